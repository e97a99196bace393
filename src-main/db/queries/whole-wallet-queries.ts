import type { Kysely } from 'kysely'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { WatchlistTotals, WholeWallet } from '@shared/ipc/wallet-schemas'
import type { Database } from '../schema'
import { fetchCurrentBalances, latestSnapshot } from './balance-queries'

/** SOL's decimals: lamports per SOL is 10^9. */
const SOL_DECIMALS = 9

/**
 * Everything the mirror holds about a wallet now: its latest holdings snapshot (tokens and
 * every NFT), its latest compressed state, its name and its funder.
 *
 * @example
 * const whole = await fetchWholeWallet(db, walletId)
 * whole.holdings.nfts.length // 173 for the demo collector
 */
export async function fetchWholeWallet(
  db: Kysely<Database>,
  walletId: number,
): Promise<WholeWallet> {
  const wallet = await db
    .selectFrom('wallets')
    .select(['address', 'label'])
    .where('id', '=', walletId)
    .executeTakeFirstOrThrow()
  const snapshot = await latestSnapshot(db, walletId)
  const current = await fetchCurrentBalances(db, walletId)
  const nfts = snapshot
    ? await db
        .selectFrom('balance_snapshot_nfts')
        .select(['mint', 'name', 'collection_name', 'collection_address', 'is_compressed'])
        .where('snapshot_id', '=', snapshot.id)
        .orderBy('collection_name')
        .orderBy('name')
        .execute()
    : []
  const compressed = await latestCompressed(db, walletId)
  return {
    address: wallet.address,
    label: wallet.label,
    identity: await identityOf(db, wallet.address),
    fundedBy: await funderOf(db, walletId),
    valueUsd: current.totalUsd + (await valueOfCompressed(db, compressed)),
    takenAtSec: current.takenAtSec,
    holdings: {
      tokens: current.rows.map((t) => ({
        mint: t.mint,
        symbol: t.symbol,
        name: t.name,
        amount: t.amountText,
        decimals: t.decimals,
        priceUsd: t.priceUsd,
        valueUsd: t.usdValue,
      })),
      nfts: nfts.map((n) => ({
        id: n.mint,
        name: n.name,
        collectionName: n.collection_name,
        collectionAddress: n.collection_address,
        compressed: n.is_compressed === 1,
      })),
      compressed: {
        lamports: compressed?.lamportsRaw ?? null,
        tokens: (compressed?.tokens ?? []).map(({ mint, symbol, amount }) => ({
          mint,
          symbol,
          amount,
        })),
      },
    },
  }
}

/**
 * The USD value of a wallet's latest compressed state: compressed SOL at SOL's price plus
 * compressed tokens at theirs. Part of the wallet's value wherever a value is shown.
 */
export async function fetchCompressedValueUsd(
  db: Kysely<Database>,
  walletId: number,
): Promise<number> {
  return valueOfCompressed(db, await latestCompressed(db, walletId))
}

async function valueOfCompressed(
  db: Kysely<Database>,
  compressed: Awaited<ReturnType<typeof latestCompressed>>,
): Promise<number> {
  if (!compressed) return 0
  const solPrice = await mintPrice(db, NATIVE_SOL_MINT)
  const solUsd = Number(decimalFromRaw(compressed.lamportsRaw, SOL_DECIMALS)) * (solPrice ?? 0)
  return compressed.tokens.reduce((sum, t) => sum + Number(t.amount) * (t.priceUsd ?? 0), solUsd)
}

async function latestCompressed(db: Kysely<Database>, walletId: number) {
  const snapshot = await db
    .selectFrom('compressed_snapshots')
    .select(['id', 'lamports_raw'])
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!snapshot) return null
  const tokens = await db
    .selectFrom('compressed_snapshot_tokens as t')
    .leftJoin('mints as m', 'm.mint', 't.mint')
    .select(['t.mint', 't.amount_raw', 'm.symbol', 'm.decimals', 'm.price_usd'])
    .where('t.snapshot_id', '=', snapshot.id)
    .orderBy('t.mint')
    .execute()
  return {
    lamportsRaw: snapshot.lamports_raw,
    tokens: tokens.map((t) => ({
      mint: t.mint,
      symbol: t.symbol,
      // Without known decimals the raw integer is all that can be said exactly.
      amount: decimalFromRaw(t.amount_raw, t.decimals ?? 0),
      priceUsd: t.decimals === null ? null : t.price_usd,
    })),
  }
}

async function mintPrice(db: Kysely<Database>, mint: string): Promise<number | null> {
  const row = await db
    .selectFrom('mints')
    .select('price_usd')
    .where('mint', '=', mint)
    .executeTakeFirst()
  return row?.price_usd ?? null
}

/** The service's name for an address, when it gave one. */
export async function identityOf(
  db: Kysely<Database>,
  address: string,
): Promise<WholeWallet['identity']> {
  const row = await db
    .selectFrom('address_names')
    .selectAll()
    .where('address', '=', address)
    .where('status', '=', 'named')
    .executeTakeFirst()
  if (!row || row.name === null) return null
  return {
    name: row.name,
    type: row.type,
    category: row.category,
    tags: JSON.parse(row.tags_json) as string[],
  }
}

async function funderOf(db: Kysely<Database>, walletId: number): Promise<WholeWallet['fundedBy']> {
  const row = await db
    .selectFrom('wallet_funding')
    .selectAll()
    .where('wallet_id', '=', walletId)
    .where('status', '=', 'found')
    .executeTakeFirst()
  if (!row || row.funder === null) return null
  return {
    funder: row.funder,
    funderName: row.funder_name ?? (await identityOf(db, row.funder))?.name ?? null,
    funderType: row.funder_type,
    symbol: row.symbol,
    amount:
      row.amount_raw === null || row.decimals === null
        ? null
        : decimalFromRaw(row.amount_raw, row.decimals),
    signature: row.signature,
    fundedAtSec: row.funded_at_sec,
  }
}

/**
 * Totals across the watchlist from each wallet's latest snapshot: the value of everything
 * held and, per token, the summed exact amount and value.
 */
export async function fetchWatchlistTotals(db: Kysely<Database>): Promise<WatchlistTotals> {
  const wallets = await db.selectFrom('wallets').select('id').execute()
  const perMint = new Map<
    string,
    { symbol: string | null; raw: bigint; decimals: number; valueUsd: number; wallets: number }
  >()
  let valueUsd = 0
  for (const { id } of wallets) {
    // Tokens and value only: a wallet's NFTs, names and funder play no part in totals.
    const current = await fetchCurrentBalances(db, id)
    valueUsd += current.totalUsd + (await fetchCompressedValueUsd(db, id))
    for (const t of current.rows) {
      const raw = BigInt(rawFromDecimalText(t.amountText, t.decimals) ?? '0')
      const entry = perMint.get(t.mint) ?? {
        symbol: t.symbol,
        raw: 0n,
        decimals: t.decimals,
        valueUsd: 0,
        wallets: 0,
      }
      entry.raw += raw
      entry.valueUsd += t.usdValue
      entry.wallets += 1
      perMint.set(t.mint, entry)
    }
  }
  const tokens = [...perMint]
    .map(([mint, e]) => ({
      mint,
      symbol: e.symbol,
      amount: decimalFromRaw(e.raw.toString(), e.decimals),
      valueUsd: e.valueUsd,
      wallets: e.wallets,
    }))
    .sort((a, b) => b.valueUsd - a.valueUsd || a.mint.localeCompare(b.mint))
  return { valueUsd, wallets: wallets.length, tokens }
}
