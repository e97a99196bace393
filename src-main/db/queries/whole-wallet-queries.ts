import type { Kysely } from 'kysely'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import type { WatchlistTotals, WholeWallet } from '@shared/ipc/wallet-schemas'
import type { Database } from '../schema'
import { fetchCurrentBalances, latestSnapshot } from './balance-queries'
import { latestCompressed } from './compressed-holdings'
import { holdingsByMint, type MintHolding } from './holdings-by-mint'

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
    // The sidebar's sum (wallet-summary-queries.ts), to the last bit.
    valueUsd: current.totalUsd + (compressed?.valueUsd ?? 0),
    unpricedCount: current.unpricedCount,
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
 * Totals across the watchlist from each wallet's latest snapshot and compressed state:
 * the value of everything held and, per token, the summed exact amount and value, by the
 * one rule of holdings-by-mint.ts (compressed SOL as SOL, compressed tokens under their
 * mint), so the tokens' values add up to the total.
 */
export async function fetchWatchlistTotals(db: Kysely<Database>): Promise<WatchlistTotals> {
  const wallets = await db.selectFrom('wallets').select('id').execute()
  const perMint = new Map<string, MintHolding & { wallets: number }>()
  for (const { id } of wallets) {
    // Tokens and value only: a wallet's NFTs, names and funder play no part in totals.
    const current = await fetchCurrentBalances(db, id)
    for (const h of holdingsByMint(current.rows, await latestCompressed(db, id))) {
      const entry = perMint.get(h.mint)
      if (!entry) {
        perMint.set(h.mint, { ...h, wallets: 1 })
        continue
      }
      entry.raw += h.raw
      entry.compressedRaw += h.compressedRaw
      // A token priced in one wallet's snapshot and not in another's is valued where priced.
      entry.valueUsd =
        entry.valueUsd === null && h.valueUsd === null
          ? null
          : (entry.valueUsd ?? 0) + (h.valueUsd ?? 0)
      entry.compressedValueUsd += h.compressedValueUsd
      entry.wallets += 1
    }
  }
  const tokens = [...perMint.values()]
    .map((e) => ({
      mint: e.mint,
      symbol: e.symbol,
      amount: decimalFromRaw(e.raw.toString(), e.decimals),
      valueUsd: e.valueUsd,
      wallets: e.wallets,
      compressedAmount: decimalFromRaw(e.compressedRaw.toString(), e.decimals),
      compressedValueUsd: e.compressedValueUsd,
    }))
    .sort(
      (a, b) =>
        Number(b.valueUsd !== null) - Number(a.valueUsd !== null) ||
        (b.valueUsd ?? 0) - (a.valueUsd ?? 0) ||
        a.mint.localeCompare(b.mint),
    )
  return {
    valueUsd: tokens.reduce((sum, t) => sum + (t.valueUsd ?? 0), 0),
    unpricedCount: tokens.filter((t) => t.valueUsd === null).length,
    wallets: wallets.length,
    compressedValueUsd: tokens.reduce((sum, t) => sum + t.compressedValueUsd, 0),
    tokens,
  }
}
