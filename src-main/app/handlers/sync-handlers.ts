import { AppError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { STREAM_NAMES, type StreamRow } from '../../db/ingest/mirror-writer'
import { summarizeCredits } from '../../db/queries/credit-ledger'
import { readSyncStatus, setDepthLimit } from '../../db/queries/sync-status'
import { estimateSyncCredits } from '../../sync/sync-estimate'
import { readSettingsNow } from '../settings-store'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

type SyncChannels =
  | 'sync:start'
  | 'sync:cancel'
  | 'sync:pause'
  | 'sync:resume'
  | 'sync:retry'
  | 'sync:status'
  | 'sync:estimate'
  | 'sync:set-depth'
  | 'credits:overview'

/** Handlers of the `sync:*` and `credits:*` channels, over the session's engine and scheduler. */
export function syncHandlers(ctx: HandlerContext): Pick<HandlerTable, SyncChannels> {
  const { session } = ctx
  const walletId = async (address: string): Promise<number> => {
    const runtime = await session.runtime()
    const id = runtime.engine.writer.walletId(address)
    if (id === null)
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
    return id
  }
  const schedulerOrThrow = async () => {
    await session.runtime()
    if (session.isOffline)
      throw new AppError('Offline: the data service cannot be reached, so nothing can sync now.')
    const scheduler = session.scheduler
    if (!scheduler) throw new AppError('Syncing is not available in this run.')
    return scheduler
  }

  return {
    'sync:start': async ({ address }) => {
      const scheduler = await schedulerOrThrow()
      const addresses = address
        ? [address]
        : (await readSyncStatus(ctx.db, new Set())).map((s) => s.address)
      if (address) await walletId(address)
      for (const a of addresses) scheduler.syncNow(a)
    },
    'sync:cancel': async ({ address }) => {
      ;(await session.runtime()).engine.cancel(address)
    },
    'sync:pause': async ({ address }) => {
      await walletId(address)
      session.scheduler?.pause(address)
    },
    'sync:resume': async ({ address }) => {
      await walletId(address)
      session.scheduler?.resume(address)
    },
    'sync:retry': async ({ address, stream }) => {
      const runtime = await session.runtime()
      await walletId(address)
      for (const s of stream ? [stream] : STREAM_NAMES) runtime.engine.retryStream(address, s)
      session.scheduler?.syncNow(address)
    },
    'sync:status': async () => {
      const syncing = new Set(session.runtimeIfConnected()?.engine.syncingAddresses() ?? [])
      return readSyncStatus(ctx.db, syncing)
    },
    'sync:estimate': async ({ address }) => {
      const id = await walletId(address)
      const writer = (await session.runtime()).engine.writer
      const rows = Object.fromEntries(STREAM_NAMES.map((s) => [s, writer.stream(id, s)])) as Record<
        string,
        StreamRow
      >
      return estimateSyncCredits(address, rows)
    },
    'sync:set-depth': async ({ address, depth }) => {
      await setDepthLimit(ctx.db, await walletId(address), depth)
    },
    'credits:overview': async (): Promise<CreditsOverview> => {
      const summary = await summarizeCredits(ctx.db, ctx.nowSec() * 1000)
      const settings = readSettingsNow(ctx.sqlite)
      return {
        ...summary,
        dailyBudget: settings.dailyBudget,
        monthlyBudget: settings.monthlyBudget,
      }
    },
  }
}
