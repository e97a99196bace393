import type { Kysely } from 'kysely'
import type { StreamStatus, WalletSyncState, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { compressedKindOf } from '../ingest/page-rows'
import { STREAM_NAMES, type StreamRow } from '../mirror-writer'
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

/**
 * Sets how deep a wallet's history goes (its `history` row). The streams that follow the
 * history (transfers, compression signatures) go as far back as the stored history
 * reaches, so their own limits are cleared. A depth past what a finished backfill holds
 * opens the backfills again, to go on from where they stopped.
 */
export async function setDepthLimit(
  db: Kysely<Database>,
  walletId: number,
  depth: { maxTransactions: number | null; sinceSec: number | null },
): Promise<void> {
  const reopens = await isDeeperThanHeld(db, walletId, depth)
  for (const stream of STREAM_NAMES.filter((s) => s !== 'balances')) {
    const limits =
      stream === 'history'
        ? { depth_limit_count: depth.maxTransactions, depth_limit_since_sec: depth.sinceSec }
        : { depth_limit_count: null, depth_limit_since_sec: null }
    const update = reopens ? { ...limits, is_backfill_complete: 0 } : limits
    await db
      .insertInto('sync_streams')
      .values({
        wallet_id: walletId,
        stream,
        ...limits,
        newest_key: null,
        backfill_cursor: null,
        gap_cursor: null,
        last_success_sec: null,
        last_error: null,
        last_error_at_sec: null,
      })
      .onConflict((oc) => oc.columns(['wallet_id', 'stream']).doUpdateSet(update))
      .execute()
  }
}

/** Whether `depth` asks for history a finished backfill, stopped short of the start, lacks. */
async function isDeeperThanHeld(
  db: Kysely<Database>,
  walletId: number,
  depth: { maxTransactions: number | null; sinceSec: number | null },
): Promise<boolean> {
  const history = await db
    .selectFrom('sync_streams')
    .select(['is_backfill_complete', 'backfill_cursor', 'items_stored'])
    .where('wallet_id', '=', walletId)
    .where('stream', '=', 'history')
    .executeTakeFirst()
  if (!history || history.is_backfill_complete !== 1 || history.backfill_cursor === null)
    return false
  const oldest = await oldestStoredSec(db, walletId, 'history')
  return (
    (depth.maxTransactions === null || depth.maxTransactions > history.items_stored) &&
    (depth.sinceSec === null || oldest === null || depth.sinceSec < oldest)
  )
}

/**
 * Whether a wallet's history is held back to its start: its backfill is complete with no
 * cursor left (the walk reached the start), or — as rows written before the start cleared
 * the cursor say it — complete without a depth limit.
 */
export function isHistoryWhole(
  history: Pick<
    StreamRow,
    'isBackfillComplete' | 'backfillCursor' | 'depthLimitCount' | 'depthLimitSinceSec'
  >,
): boolean {
  return (
    history.isBackfillComplete &&
    (history.backfillCursor === null ||
      (history.depthLimitCount === null && history.depthLimitSinceSec === null))
  )
}

/** Block time of a wallet's newest stored transaction, or null when it holds none. */
export async function newestStoredSec(
  db: Kysely<Database>,
  walletId: number,
): Promise<number | null> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.max('block_time_sec').as('t'))
    .where('wallet_id', '=', walletId)
    .executeTakeFirst()
  return row?.t == null ? null : Number(row.t)
}

/**
 * The block time of the oldest item a wallet's stream holds (history, transfers or
 * compression signatures), or null when it holds none with a known time.
 */
export async function oldestStoredSec(
  db: Kysely<Database>,
  walletId: number,
  stream: 'history' | 'transfers' | 'compressed-owner' | 'compressed-token-owner',
): Promise<number | null> {
  const row =
    stream === 'history'
      ? await db
          .selectFrom('transactions')
          .select((eb) => eb.fn.min('block_time_sec').as('t'))
          .where('wallet_id', '=', walletId)
          .executeTakeFirst()
      : stream === 'transfers'
        ? await db
            .selectFrom('transfers')
            .select((eb) => eb.fn.min('block_time_sec').as('t'))
            .where('wallet_id', '=', walletId)
            .executeTakeFirst()
        : await db
            .selectFrom('compressed_signatures')
            .select((eb) => eb.fn.min('block_time_sec').as('t'))
            .where('wallet_id', '=', walletId)
            .where('kind', '=', compressedKindOf(stream))
            .executeTakeFirst()
  return row?.t == null ? null : Number(row.t)
}
