import type { Kysely } from 'kysely'
import type { StreamStatus, WalletSyncState, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { STREAM_NAMES } from '../mirror-writer'
import { creditsOfWallets } from '../stores/credit-ledger-store'
import type { Database } from '../schema'

const WORST_FIRST: WalletSyncState[] = ['budget', 'offline', 'error', 'paused']

/**
 * Every watched wallet's streams and overall state, in sidebar order. `syncing` names the
 * wallets the engine is running now (the database only knows committed pages).
 *
 * @example
 * const [first] = await readSyncStatus(db, new Set())
 * first.state // 'up-to-date'
 */
export async function readSyncStatus(
  db: Kysely<Database>,
  syncing: ReadonlySet<string>,
  address?: string,
): Promise<WalletSyncStatus[]> {
  let walletsQuery = db
    .selectFrom('wallets')
    .select(['id', 'address', 'label'])
    .orderBy('position')
    .orderBy('id')
  if (address !== undefined) walletsQuery = walletsQuery.where('address', '=', address)
  const wallets = await walletsQuery.execute()
  const rows = await db
    .selectFrom('sync_streams')
    .selectAll()
    .where('wallet_id', 'in', wallets.length === 0 ? [-1] : wallets.map((w) => w.id))
    .execute()
  const credits = await creditsOfWallets(
    db,
    wallets.map((w) => w.address),
  )
  const paused = await db
    .selectFrom('watch_schedule')
    .select('wallet_id')
    .where('is_paused', '=', 1)
    .execute()
  const pausedIds = new Set(paused.map((p) => p.wallet_id))
  return wallets.map((wallet) => {
    const spent = credits.get(wallet.address)
    const streams: StreamStatus[] = rows
      .filter((r) => r.wallet_id === wallet.id)
      .sort(
        (a, b) => STREAM_NAMES.indexOf(a.stream as never) - STREAM_NAMES.indexOf(b.stream as never),
      )
      .map((r) => ({
        stream: r.stream as StreamStatus['stream'],
        state: (r.state === 'syncing' && !syncing.has(wallet.address)
          ? 'cancelled'
          : r.state) as StreamStatus['state'],
        itemsStored: r.items_stored,
        pagesFetched: r.pages_fetched,
        creditsSpent: spent?.byStream[r.stream] ?? 0,
        isBackfillComplete: r.is_backfill_complete === 1,
        newestKey: r.newest_key,
        backfillCursor: r.backfill_cursor,
        depthLimitCount: r.depth_limit_count,
        depthLimitSinceSec: r.depth_limit_since_sec,
        lastSuccessSec: r.last_success_sec,
        lastError: r.last_error,
        isPaused: r.is_paused === 1,
      }))
    const isPaused = pausedIds.has(wallet.id)
    const isSyncing = syncing.has(wallet.address)
    const state: WalletSyncState =
      isPaused && !isSyncing ? 'paused' : overallState(streams, isSyncing)
    const message =
      isPaused && !isSyncing
        ? 'Paused: no calls are made for this wallet until it is resumed.'
        : (streams.find((s) => s.lastError !== null)?.lastError ?? null)
    return {
      address: wallet.address,
      label: wallet.label,
      state,
      message,
      isPaused,
      creditsSpent: spent?.credits ?? 0,
      streams,
    }
  })
}

function overallState(streams: StreamStatus[], isSyncing: boolean): WalletSyncState {
  if (isSyncing) return 'syncing'
  if (streams.length === 0) return 'never'
  for (const state of WORST_FIRST) {
    if (streams.some((s) => s.state === state || (state === 'paused' && s.isPaused))) return state
  }
  // A first sync cancelled before any stream finished has checked nothing yet.
  if (streams.every((s) => s.lastSuccessSec === null)) return 'never'
  return 'up-to-date'
}

/** Sets the backfill depth limit of a wallet's streams (history, transfers, compression). */
export async function setDepthLimit(
  db: Kysely<Database>,
  walletId: number,
  depth: { maxTransactions: number | null; sinceSec: number | null },
): Promise<void> {
  for (const stream of STREAM_NAMES.filter((s) => s !== 'balances')) {
    await db
      .insertInto('sync_streams')
      .values({
        wallet_id: walletId,
        stream,
        depth_limit_count: depth.maxTransactions,
        depth_limit_since_sec: depth.sinceSec,
        newest_key: null,
        backfill_cursor: null,
        gap_cursor: null,
        last_success_sec: null,
        last_error: null,
        last_error_at_sec: null,
      })
      .onConflict((oc) =>
        oc.columns(['wallet_id', 'stream']).doUpdateSet({
          depth_limit_count: depth.maxTransactions,
          depth_limit_since_sec: depth.sinceSec,
        }),
      )
      .execute()
  }
}
