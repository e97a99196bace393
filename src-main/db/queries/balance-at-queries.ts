import type { Kysely } from 'kysely'
import { rawFromDecimalText } from '@shared/domain/exact-amount'
import type { Database } from '../schema'
import { latestSnapshot } from './balance-queries'
import { isHistoryWhole } from './sync-status'

/** A wallet's balances at a time, rebuilt from the mirror, or why it cannot be. */
export interface LocalBalancesAt {
  /** Whether the stored history covers the time, so the balances below are exact. */
  covered: boolean
  reason: string | null
  /** Raw amount per mint (non-zero only), with decimals and symbol. */
  balances: { mint: string; symbol: string | null; raw: string; decimals: number }[]
  /**
   * Every mint the mirror knows the wallet to have held: what a service look-up may ask
   * about. `isNft`: a non-fungible mint (listed among a snapshot's NFTs, or of 0 decimals
   * and never among its tokens), which a look-up skips unless NFTs are asked for.
   */
  mints: { mint: string; symbol: string | null; decimals: number; isNft: boolean }[]
}

/**
 * Rebuilds a wallet's balances at `atSec` from its stored balance changes — free and
 * offline. With the whole history stored, the changes up to the time are summed; with
 * the newest part stored back past the time, the latest snapshot is walked back by the
 * changes after it. Otherwise the mirror cannot say, and `covered` is false.
 *
 * @example
 * const at = await rebuildBalancesAt(db, walletId, Date.parse('2025-12-31T23:59:59Z') / 1000)
 * at.covered && at.balances // [{ mint: 'So1…112', raw: '1500000000', decimals: 9, … }]
 */
export async function rebuildBalancesAt(
  db: Kysely<Database>,
  walletId: number,
  atSec: number,
): Promise<LocalBalancesAt> {
  const mints = await heldMints(db, walletId)
  const coverage = await historyCoverage(db, walletId)
  const notCovered = (reason: string): LocalBalancesAt => ({
    covered: false,
    reason,
    balances: [],
    mints,
  })
  if (!coverage.covered) return notCovered(coverage.reason)
  const sums = new Map<string, bigint>()
  const decimalsOf = new Map(mints.map((m) => [m.mint, m.decimals]))

  if (coverage.snapshot === null) {
    await addChanges(db, walletId, { fromSec: null, toSec: atSec }, sums, decimalsOf, 1n)
  } else {
    if (coverage.fromSec > atSec)
      return notCovered('the stored history does not reach back to that date')
    const { snapshot } = coverage
    for (const [mint, raw] of await snapshotRaws(db, snapshot.id)) sums.set(mint, raw)
    await addChanges(
      db,
      walletId,
      { fromSec: atSec, toSec: snapshot.takenAtSec },
      sums,
      decimalsOf,
      -1n,
    )
  }
  const balances = mints
    .map((m) => ({ ...m, raw: (sums.get(m.mint) ?? 0n).toString() }))
    .filter((b) => b.raw !== '0')
  return { covered: true, reason: null, balances, mints }
}

/**
 * How far back the mirror can rebuild a wallet's balances from its stored changes: from
 * the start with the whole history stored (`snapshot` null: sum the changes), from the
 * oldest stored transaction with only the newest part stored (walk `snapshot` back), or
 * not at all, with the reason in words.
 */
export type HistoryCoverage =
  | { covered: false; reason: string }
  | { covered: true; fromSec: null; snapshot: null }
  | { covered: true; fromSec: number; snapshot: { id: number; takenAtSec: number } }

/** What the mirror's history of a wallet lets it rebuild (see HistoryCoverage). */
export async function historyCoverage(
  db: Kysely<Database>,
  walletId: number,
): Promise<HistoryCoverage> {
  const history = await db
    .selectFrom('sync_streams')
    .select([
      'is_backfill_complete',
      'backfill_cursor',
      'depth_limit_count',
      'depth_limit_since_sec',
      'gap_cursor',
    ])
    .where('wallet_id', '=', walletId)
    .where('stream', '=', 'history')
    .executeTakeFirst()
  if (!history) return { covered: false, reason: 'the wallet’s history has not been synced yet' }
  if (history.gap_cursor !== null)
    return { covered: false, reason: 'the newest part of the history is still being synced' }
  const isWhole = isHistoryWhole({
    isBackfillComplete: history.is_backfill_complete === 1,
    backfillCursor: history.backfill_cursor,
    depthLimitCount: history.depth_limit_count,
    depthLimitSinceSec: history.depth_limit_since_sec,
  })
  if (isWhole) return { covered: true, fromSec: null, snapshot: null }
  const oldest = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.min('block_time_sec').as('t'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirst()
  if (oldest?.t == null)
    return { covered: false, reason: 'the stored history does not reach back to that date' }
  const snapshot = await latestSnapshot(db, walletId)
  if (!snapshot) return { covered: false, reason: 'no balances snapshot has been taken yet' }
  return {
    covered: true,
    fromSec: oldest.t,
    snapshot: { id: snapshot.id, takenAtSec: snapshot.taken_at_sec },
  }
}

/** Raw amount per mint of a balances snapshot. */
export async function snapshotRaws(
  db: Kysely<Database>,
  snapshotId: number,
): Promise<Map<string, bigint>> {
  const items = await db
    .selectFrom('balance_snapshot_items')
    .select(['mint', 'balance_text', 'decimals'])
    .where('snapshot_id', '=', snapshotId)
    .execute()
  return new Map(
    items.map((i) => [i.mint, BigInt(rawFromDecimalText(i.balance_text, i.decimals) ?? 0)]),
  )
}

/** Adds `sign ×` each change in (fromSec, toSec] to `sums`, in raw units. */
async function addChanges(
  db: Kysely<Database>,
  walletId: number,
  range: { fromSec: number | null; toSec: number },
  sums: Map<string, bigint>,
  decimalsOf: Map<string, number>,
  sign: bigint,
): Promise<void> {
  let q = db
    .selectFrom('balance_changes')
    .select(['mint', 'amount_raw', 'amount_text', 'decimals'])
    .where('wallet_id', '=', walletId)
    .where('block_time_sec', '<=', range.toSec)
  if (range.fromSec !== null) q = q.where('block_time_sec', '>', range.fromSec)
  for (const c of await q.execute()) {
    sums.set(c.mint, (sums.get(c.mint) ?? 0n) + sign * rawOfChange(c))
    if (!decimalsOf.has(c.mint)) decimalsOf.set(c.mint, c.decimals)
  }
}

/** A stored change's exact raw amount (older rows kept only its decimal text). */
export function rawOfChange(c: {
  amount_raw: string | null
  amount_text: string
  decimals: number
}): bigint {
  return BigInt(c.amount_raw ?? rawFromDecimalText(c.amount_text, c.decimals) ?? '0')
}

/** Mints the wallet's changes or snapshots name, with decimals, symbol and NFT-ness. */
export async function heldMints(
  db: Kysely<Database>,
  walletId: number,
): Promise<LocalBalancesAt['mints']> {
  const rows = await db
    .selectFrom('balance_changes as c')
    .leftJoin('mints as m', 'm.mint', 'c.mint')
    .select(['c.mint', 'm.symbol', (eb) => eb.fn.max('c.decimals').as('decimals')])
    .where('c.wallet_id', '=', walletId)
    .groupBy(['c.mint', 'm.symbol'])
    .union(
      db
        .selectFrom('balance_snapshot_items as i')
        .innerJoin('balance_snapshots as s', 's.id', 'i.snapshot_id')
        .leftJoin('mints as m', 'm.mint', 'i.mint')
        .select(['i.mint', 'm.symbol', (eb) => eb.fn.max('i.decimals').as('decimals')])
        .where('s.wallet_id', '=', walletId)
        .groupBy(['i.mint', 'm.symbol']),
    )
    .execute()
  const listed = await snapshotMints(db, walletId)
  const byMint = new Map<string, LocalBalancesAt['mints'][number]>()
  for (const r of rows) {
    const decimals = Number(r.decimals)
    // An NFT sold before any snapshot is known only by its changes: one unit, 0 decimals.
    const isNft = listed.nfts.has(r.mint) || (decimals === 0 && !listed.tokens.has(r.mint))
    byMint.set(r.mint, { mint: r.mint, symbol: r.symbol, decimals, isNft })
  }
  return [...byMint.values()].sort((a, b) => a.mint.localeCompare(b.mint))
}

/** Mints the wallet's snapshots list as NFTs, and as tokens. */
async function snapshotMints(
  db: Kysely<Database>,
  walletId: number,
): Promise<{ nfts: Set<string>; tokens: Set<string> }> {
  const snapshots = db
    .selectFrom('balance_snapshots')
    .select('id')
    .where('wallet_id', '=', walletId)
  const [nfts, tokens] = await Promise.all([
    db
      .selectFrom('balance_snapshot_nfts')
      .select('mint')
      .distinct()
      .where('snapshot_id', 'in', snapshots)
      .execute(),
    db
      .selectFrom('balance_snapshot_items')
      .select('mint')
      .distinct()
      .where('snapshot_id', 'in', snapshots)
      .execute(),
  ])
  return { nfts: new Set(nfts.map((r) => r.mint)), tokens: new Set(tokens.map((r) => r.mint)) }
}
