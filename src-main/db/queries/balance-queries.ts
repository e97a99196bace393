import type { Kysely } from 'kysely'
import type { CurrentBalances, NftItem } from '@shared/ipc/review-schemas'
import type { Database } from '../schema'

/** A wallet's latest balances snapshot, or undefined before the first. */
export async function latestSnapshot(db: Kysely<Database>, walletId: number) {
  return db
    .selectFrom('balance_snapshots')
    .select(['id', 'taken_at_sec', 'total_usd', 'nft_count'])
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/**
 * The wallet's tokens from its latest balances snapshot, largest USD value first, with
 * mint metadata and each token's share of the total.
 */
export async function fetchCurrentBalances(
  db: Kysely<Database>,
  walletId: number,
): Promise<CurrentBalances> {
  const snapshot = await latestSnapshot(db, walletId)
  if (!snapshot) return { takenAtSec: null, totalUsd: 0, unpricedCount: 0, rows: [], nftCount: 0 }
  const items = await db
    .selectFrom('balance_snapshot_items as i')
    .leftJoin('mints as m', 'm.mint', 'i.mint')
    .select([
      'i.mint',
      'm.symbol',
      'm.name',
      'm.logo_uri',
      'i.balance',
      'i.balance_text',
      'i.decimals',
      'i.price_usd',
      'i.usd_value',
    ])
    .where('i.snapshot_id', '=', snapshot.id)
    // Unpriced tokens (no value) last on both engines: PostgreSQL sorts nulls first.
    .orderBy('i.usd_value', (ob) => ob.desc().nullsLast())
    .orderBy('i.mint')
    .execute()
  const total = snapshot.total_usd
  return {
    takenAtSec: snapshot.taken_at_sec,
    totalUsd: total,
    unpricedCount: items.filter((r) => r.usd_value === null).length,
    nftCount: snapshot.nft_count,
    rows: items.map((r) => ({
      mint: r.mint,
      symbol: r.symbol,
      name: r.name,
      logoUri: r.logo_uri,
      amount: r.balance,
      amountText: r.balance_text,
      decimals: r.decimals,
      priceUsd: r.price_usd,
      usdValue: r.usd_value,
      share: total > 0 && r.usd_value !== null ? r.usd_value / total : 0,
    })),
  }
}

// Names end in serial numbers ("Gate #698", "Gate #6672"): compared as numbers, not as
// text, and without regard to case; SQLite's collations cannot do either.
const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

/** The NFTs of the latest balances snapshot, by collection then name, numbers as numbers. */
export async function listCurrentNfts(db: Kysely<Database>, walletId: number): Promise<NftItem[]> {
  const snapshot = await latestSnapshot(db, walletId)
  if (!snapshot) return []
  const rows = await db
    .selectFrom('balance_snapshot_nfts')
    .select(['mint', 'name', 'image_uri', 'collection_name', 'is_compressed'])
    .where('snapshot_id', '=', snapshot.id)
    .orderBy('mint')
    .execute()
  rows.sort(
    (a, b) =>
      naturalOrder.compare(a.collection_name, b.collection_name) ||
      naturalOrder.compare(a.name, b.name),
  )
  return rows.map((r) => ({
    mint: r.mint,
    name: r.name,
    imageUri: r.image_uri,
    collectionName: r.collection_name,
    isCompressed: r.is_compressed === 1,
  }))
}
