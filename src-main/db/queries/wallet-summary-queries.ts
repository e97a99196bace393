import { sql, type Kysely } from 'kysely'
import { NotFoundError } from '@shared/ipc/ipc-errors'
import type { WalletProfile, WalletSummary } from '@shared/ipc/review-schemas'
import type { Database } from '../schema'
import { fetchCompressedValueUsd } from './compressed-holdings'

/** Above this, the badge says "999+": counting further would cost time on huge wallets. */
export const NEW_ACTIVITY_CAP = 999

/** The internal id of a watched wallet, or NotFoundError naming the address. */
export async function walletIdOf(db: Kysely<Database>, address: string): Promise<number> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('address', '=', address)
    .executeTakeFirst()
  if (!row) throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
  return row.id
}

/**
 * What the sidebar shows for every watched wallet: total USD of the latest snapshot (with
 * the compressed holdings, as the Overview and the watchlist total count them), how
 * many transactions are newer than what the person last saw, and the newest activity.
 * A wallet never opened counts all its history as new (capped).
 *
 * One statement for every wallet, each figure looked up along the wallet's own index (a
 * read per wallet and figure took 20 ms for 100 wallets); the compressed holdings are
 * valued only for the wallets that have some.
 */
export async function listWalletSummaries(db: Kysely<Database>): Promise<WalletSummary[]> {
  const wallets = await db
    .selectFrom('wallets as w')
    .leftJoin('wallet_views as v', 'v.wallet_id', 'w.id')
    .select((eb) => [
      'w.id',
      'w.address',
      eb
        .selectFrom('balance_snapshots as s')
        .select('s.total_usd')
        .whereRef('s.wallet_id', '=', 'w.id')
        .orderBy('s.taken_at_sec', 'desc')
        .orderBy('s.id', 'desc')
        .limit(1)
        .as('totalUsd'),
      eb
        .exists(
          eb
            .selectFrom('compressed_snapshots as c')
            .select(sql<number>`1`.as('one'))
            .whereRef('c.wallet_id', '=', 'w.id'),
        )
        .as('hasCompressed'),
      eb
        .selectFrom('transactions as t')
        .select((e) => e.fn.max('t.block_time_sec').as('newest'))
        .whereRef('t.wallet_id', '=', 'w.id')
        .as('newest'),
      // Counts along the (wallet, time, …) index and stops at the cap.
      eb
        .selectFrom(
          eb
            .selectFrom('transactions as t')
            .select(sql<number>`1`.as('one'))
            .whereRef('t.wallet_id', '=', 'w.id')
            .where('t.block_time_sec', '>', sql<number>`coalesce(v.seen_through_sec, -1)`)
            .limit(NEW_ACTIVITY_CAP + 1)
            .as('fresh'),
        )
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('fresh'),
    ])
    .orderBy('w.position')
    .orderBy('w.id')
    .execute()
  const summaries: WalletSummary[] = []
  for (const w of wallets) {
    const fresh = Number(w.fresh ?? 0)
    const compressedUsd =
      // SQLite answers `exists` with 0 or 1, PostgreSQL with a boolean.
      w.totalUsd === null || !w.hasCompressed ? 0 : await fetchCompressedValueUsd(db, w.id)
    summaries.push({
      address: w.address,
      totalUsd: w.totalUsd === null ? null : w.totalUsd + compressedUsd,
      newActivityCount: Math.min(fresh, NEW_ACTIVITY_CAP),
      isNewActivityCapped: fresh > NEW_ACTIVITY_CAP,
      lastActivitySec: w.newest ?? null,
    })
  }
  return summaries
}

async function newestBlockTime(db: Kysely<Database>, walletId: number): Promise<number | null> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.max('block_time_sec').as('newest'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirst()
  return row?.newest ?? null
}

/**
 * Records that the person has seen the wallet up to its newest transaction, which clears
 * its new-activity badge.
 */
export async function markWalletViewed(
  db: Kysely<Database>,
  walletId: number,
  nowSec: number,
): Promise<void> {
  const newest = (await newestBlockTime(db, walletId)) ?? 0
  await db
    .insertInto('wallet_views')
    .values({ wallet_id: walletId, seen_through_sec: newest, viewed_at_sec: nowSec })
    .onConflict((oc) =>
      oc.column('wallet_id').doUpdateSet({
        // Never move backwards: a later view of an older mirror keeps the newer mark.
        seen_through_sec: sql`case when excluded.seen_through_sec > wallet_views.seen_through_sec then excluded.seen_through_sec else wallet_views.seen_through_sec end`,
        viewed_at_sec: sql`excluded.viewed_at_sec`,
      }),
    )
    .execute()
}

/**
 * Puts the watchlist in the given order. Addresses not listed keep their relative order
 * after the listed ones; unknown addresses are an error.
 */
export async function reorderWatchlist(db: Kysely<Database>, addresses: string[]): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('wallets')
      .select(['id', 'address'])
      .orderBy('position')
      .orderBy('id')
      .execute()
    const known = new Set(rows.map((r) => r.address))
    const unknown = addresses.find((a) => !known.has(a))
    if (unknown !== undefined) {
      throw new NotFoundError(`Wallet ${unknown} is not on the watchlist.`, { address: unknown })
    }
    const listed = new Set(addresses)
    const order = [...addresses, ...rows.map((r) => r.address).filter((a) => !listed.has(a))]
    for (const [position, address] of order.entries()) {
      await tx.updateTable('wallets').set({ position }).where('address', '=', address).execute()
    }
  })
}

/**
 * Facts about a wallet from the mirror: how many transactions are stored, the first and
 * last activity. Who funded it comes from the service (`wallet:whole`), not from here.
 */
export async function fetchWalletProfile(
  db: Kysely<Database>,
  walletId: number,
): Promise<WalletProfile> {
  const wallet = await db
    .selectFrom('wallets')
    .select('address')
    .where('id', '=', walletId)
    .executeTakeFirstOrThrow()
  const span = await db
    .selectFrom('transactions')
    .select((eb) => [
      eb.fn.min('block_time_sec').as('first'),
      eb.fn.max('block_time_sec').as('last'),
    ])
    .where('wallet_id', '=', walletId)
    .executeTakeFirst()
  const stream = await db
    .selectFrom('sync_streams')
    .select(['stream', 'items_stored'])
    .where('wallet_id', '=', walletId)
    .where('stream', '=', 'history')
    .execute()
  const history = stream.find((s) => s.stream === 'history')
  return {
    address: wallet.address,
    transactionCount: history?.items_stored ?? 0,
    firstActivitySec: span?.first ?? null,
    lastActivitySec: span?.last ?? null,
  }
}
