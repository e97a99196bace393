import type { Kysely } from 'kysely'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import type { AmountSeries, AmountSeriesChoice } from '@shared/ipc/wallet-schemas'
import type { Database } from '../schema'
import { heldMints, historyCoverage, rawOfChange, snapshotRaws } from './balance-at-queries'
import { fetchCurrentBalances } from './balance-queries'
import { thinEvenly } from './series-thinning'

/** A token's raw amount from `atSec` on, until the next step. */
interface AmountStep {
  atSec: number
  raw: bigint
}

/** One wallet's steps of one mint, or why the mirror cannot rebuild them. */
type WalletSteps =
  | { covered: false; reason: string }
  | { covered: true; fromSec: number | null; decimals: number | null; steps: AmountStep[] }

/**
 * A wallet's amount of `mint` at each transaction that changed it, rebuilt from stored
 * balance changes by the rule of balance-at-queries.ts (summed from the start of a whole
 * history, or the latest snapshot walked back through a partial one). The last step is
 * repeated at the latest snapshot, so the line reaches the present.
 */
async function walletAmountSteps(
  db: Kysely<Database>,
  walletId: number,
  mint: string,
): Promise<WalletSteps> {
  const coverage = await historyCoverage(db, walletId)
  if (!coverage.covered) return coverage
  const changes = await db
    .selectFrom('balance_changes')
    .select(['block_time_sec', 'amount_raw', 'amount_text', 'decimals'])
    .where('wallet_id', '=', walletId)
    .where('mint', '=', mint)
    .where('block_time_sec', 'is not', null)
    .orderBy('block_time_sec')
    .orderBy('slot')
    .execute()
  let decimals: number | null = changes[0]?.decimals ?? null
  let running = 0n
  if (coverage.snapshot !== null) {
    // Partial history: the amount before the oldest stored change is the snapshot's amount
    // less every change up to the snapshot.
    running = (await snapshotRaws(db, coverage.snapshot.id)).get(mint) ?? 0n
    for (const c of changes)
      if ((c.block_time_sec as number) <= coverage.snapshot.takenAtSec) running -= rawOfChange(c)
  }
  const steps: AmountStep[] =
    coverage.fromSec !== null ? [{ atSec: coverage.fromSec, raw: running }] : []
  for (const c of changes) {
    const atSec = c.block_time_sec as number
    running += rawOfChange(c)
    const last = steps.at(-1)
    if (last?.atSec === atSec) last.raw = running
    else steps.push({ atSec, raw: running })
  }
  const latest = await db
    .selectFrom('balance_snapshots')
    .select((eb) => eb.fn.max('taken_at_sec').as('t'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirst()
  const last = steps.at(-1)
  if (last && latest?.t != null && latest.t > last.atSec)
    steps.push({ atSec: latest.t, raw: last.raw })
  if (decimals === null) decimals = await decimalsOf(db, walletId, mint)
  return { covered: true, fromSec: coverage.fromSec, decimals, steps }
}

/**
 * A wallet's amount of a token over time from its balance changes (exact, offline): the
 * token asked for, else SOL, else its largest holding. Thinned to a bounded point count.
 */
export async function fetchWalletAmountSeries(
  db: Kysely<Database>,
  walletId: number,
  mint: string | undefined,
): Promise<AmountSeries> {
  const choices = await choicesOf(db, [walletId])
  const chosen = mint ?? defaultMint(choices)
  if (chosen === null) return emptySeries(choices, 'no token has been held yet', 1)
  const steps = await walletAmountSteps(db, walletId, chosen)
  if (!steps.covered) return { ...emptySeries(choices, steps.reason, 1), mint: chosen }
  const decimals = steps.decimals ?? 0
  return seriesOf(chosen, choices, decimals, steps.steps, 1)
}

/**
 * The watchlist's total amount of a token over time: at each change in any wallet, the sum
 * of every wallet's amount then. Wallets whose history the mirror cannot rebuild are left
 * out (and counted in `reason`); with partial histories the sum starts where all reach.
 */
export async function fetchWatchlistAmountSeries(
  db: Kysely<Database>,
  mint: string | undefined,
): Promise<AmountSeries> {
  const wallets = (await db.selectFrom('wallets').select('id').orderBy('id').execute()).map(
    (w) => w.id,
  )
  const choices = await choicesOf(db, wallets)
  const chosen = mint ?? defaultMint(choices)
  if (chosen === null) return emptySeries(choices, 'no token has been held yet', 0)
  const perWallet: AmountStep[][] = []
  let fromSec: number | null = null
  let decimals: number | null = null
  let left = 0
  for (const id of wallets) {
    const steps = await walletAmountSteps(db, id, chosen)
    if (!steps.covered) {
      left++
      continue
    }
    perWallet.push(steps.steps)
    decimals ??= steps.decimals
    if (steps.fromSec !== null) fromSec = Math.max(fromSec ?? steps.fromSec, steps.fromSec)
  }
  const reason =
    left === 0
      ? null
      : `${left} wallet${left === 1 ? '' : 's'} left out: the mirror cannot rebuild ${left === 1 ? 'its' : 'their'} history yet`
  if (perWallet.length === 0)
    return { ...emptySeries(choices, reason ?? 'no wallet is watched', 0), mint: chosen }
  const times = [...new Set(perWallet.flat().map((s) => s.atSec))]
    .filter((t) => fromSec === null || t >= fromSec)
    .sort((a, b) => a - b)
  const next = perWallet.map(() => 0)
  const latest = perWallet.map(() => 0n)
  const summed = times.map((atSec) => {
    perWallet.forEach((steps, w) => {
      let i = next[w] as number
      while (i < steps.length && (steps[i] as AmountStep).atSec <= atSec) {
        latest[w] = (steps[i] as AmountStep).raw
        i++
      }
      next[w] = i
    })
    return { atSec, raw: latest.reduce((sum, r) => sum + r, 0n) }
  })
  return { ...seriesOf(chosen, choices, decimals ?? 0, summed, perWallet.length), reason }
}

function seriesOf(
  mint: string,
  choices: AmountSeriesChoice[],
  decimals: number,
  steps: readonly AmountStep[],
  wallets: number,
): AmountSeries {
  return {
    source: 'balance-changes',
    mint,
    symbol: choices.find((c) => c.mint === mint)?.symbol ?? null,
    decimals,
    covered: true,
    reason: null,
    wallets,
    points: thinEvenly(steps).map((s) => ({
      atSec: s.atSec,
      amount: decimalFromRaw(s.raw.toString(), decimals),
    })),
    choices,
  }
}

function emptySeries(choices: AmountSeriesChoice[], reason: string, wallets: number): AmountSeries {
  return {
    source: 'balance-changes',
    mint: null,
    symbol: null,
    decimals: 0,
    covered: false,
    reason,
    wallets,
    points: [],
    choices,
  }
}

/** SOL when the wallets hold it (every wallet pays fees in it), else the largest holding. */
function defaultMint(choices: readonly AmountSeriesChoice[]): string | null {
  return choices.some((c) => c.mint === NATIVE_SOL_MINT)
    ? NATIVE_SOL_MINT
    : (choices[0]?.mint ?? null)
}

/** Every mint the wallets have held, largest current USD value first, then by symbol. */
async function choicesOf(
  db: Kysely<Database>,
  walletIds: readonly number[],
): Promise<AmountSeriesChoice[]> {
  const valueOf = new Map<string, number>()
  const held = new Map<string, { symbol: string | null; isNft: boolean }>()
  for (const id of walletIds) {
    for (const m of await heldMints(db, id)) held.set(m.mint, m)
    for (const r of (await fetchCurrentBalances(db, id)).rows)
      valueOf.set(r.mint, (valueOf.get(r.mint) ?? 0) + (r.usdValue ?? 0))
  }
  const nfts = await nftNamesOf(db, walletIds)
  return [...held]
    .map(([mint, { symbol, isNft }]) => ({
      mint,
      symbol,
      isNft,
      nftName: nfts.get(mint)?.name ?? null,
      nftCollection: nfts.get(mint)?.collection ?? null,
    }))
    .sort(
      (a, b) =>
        (valueOf.get(b.mint) ?? 0) - (valueOf.get(a.mint) ?? 0) ||
        (a.symbol ?? '\uffff').localeCompare(b.symbol ?? '\uffff') ||
        a.mint.localeCompare(b.mint),
    )
}

/** The names and collections snapshots gave the wallets' NFTs (the newest name wins). */
async function nftNamesOf(
  db: Kysely<Database>,
  walletIds: readonly number[],
): Promise<Map<string, { name: string; collection: string }>> {
  const named = new Map<string, { name: string; collection: string }>()
  if (walletIds.length === 0) return named
  const rows = await db
    .selectFrom('balance_snapshot_nfts as n')
    .innerJoin('balance_snapshots as s', 's.id', 'n.snapshot_id')
    .select(['n.mint', 'n.name', 'n.collection_name'])
    .where('s.wallet_id', 'in', walletIds)
    .orderBy('n.snapshot_id')
    .execute()
  for (const r of rows) named.set(r.mint, { name: r.name, collection: r.collection_name })
  return named
}

async function decimalsOf(
  db: Kysely<Database>,
  walletId: number,
  mint: string,
): Promise<number | null> {
  return (await heldMints(db, walletId)).find((m) => m.mint === mint)?.decimals ?? null
}
