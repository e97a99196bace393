import { AppError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { projectMonth, type BudgetStatus } from '@shared/domain/budget-status'
import { projectWatchCost } from '@shared/domain/watch-cost'
import { STREAM_NAMES } from '../../db/mirror-writer'
import { estimateSyncCredits } from '../../sync/sync-estimate'
import { readWatchFootprint } from '../../sync/watch-footprint'
import type { WatchScheduler } from '../../sync/watch-scheduler'
import { readSettings } from '../app-settings'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** Handlers of the `sync:*` and `credits:*` channels, over the session's engine and scheduler. */
export function syncHandlers(ctx: HandlerContext) {
  const walletId = async (address: string): Promise<number> => {
    const id = await ctx.mirror.writer.walletId(address)
    if (id === null)
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
    return id
  }
  const schedulerOrThrow = async (): Promise<WatchScheduler> => {
    const { session } = ctx
    await session.runtime()
    if (session.isOffline)
      throw new AppError('Offline: the data service cannot be reached, so nothing can sync now.')
    // Asking again cannot help while the budget is spent or the key is rejected: say why.
    const refusal = await session.refusalOfSyncNow()
    if (refusal !== null) throw refusal
    const scheduler = session.scheduler
    if (!scheduler) throw new AppError('Syncing is not available in this run.')
    return scheduler
  }

  return {
    'sync:start': async ({ address }) => {
      const scheduler = await schedulerOrThrow()
      if (address) await walletId(address)
      const addresses = address
        ? [address]
        : (await ctx.mirror.watchlist.list()).map((w) => w.address)
      for (const a of addresses) await scheduler.syncNow(a)
    },
    'sync:run': async ({ address }) => {
      await walletId(address)
      const refusal = await ctx.session.refusalOfSyncNow({ isNewRun: true })
      if (refusal !== null) throw refusal
      const runtime = await ctx.session.runtime()
      return runtime.engine.syncWallet(address)
    },
    'sync:cancel': async ({ address }) => {
      ctx.session.runtimeIfConnected()?.engine.cancel(address)
    },
    // Pausing stops new calls at once; pages in flight are paid for, so they finish and are
    // written before the answer, which then reports the wallet paused.
    'sync:pause': async ({ address }) => {
      await walletId(address)
      await ctx.mirror.schedule.setPaused(address, true, ctx.nowSec())
      await ctx.session.runtimeIfConnected()?.engine.finishPagesAndStopWallet(address)
      await ctx.session.relay.emitStatus(address)
    },
    'sync:resume': async ({ address }) => {
      await walletId(address)
      await ctx.mirror.schedule.setPaused(address, false, ctx.nowSec())
      await ctx.session.relay.emitStatus(address)
      await ctx.session.scheduler?.syncNow(address)
    },
    'sync:retry': async ({ address, stream }) => {
      const runtime = await ctx.session.runtime()
      await walletId(address)
      for (const s of stream ? [stream] : STREAM_NAMES) await runtime.engine.retryStream(address, s)
      await ctx.session.scheduler?.syncNow(address)
    },
    'sync:name-counterparties': async () => {
      const runtime = await ctx.session.runtime()
      return { calls: await runtime.engine.nameCounterparties() }
    },
    'sync:status': async () =>
      ctx.session.withHealth(
        await ctx.mirror.syncState.status(new Set(ctx.session.syncingAddresses())),
      ),
    'sync:estimate': async ({ address }) => {
      const id = await walletId(address)
      const { writer } = ctx.mirror
      const rows = await Promise.all(STREAM_NAMES.map((s) => writer.stream(id, s)))
      // The latest snapshot's NFT count sizes the holdings pages; none before a first sync.
      const snapshot = await ctx.mirror.review.currentBalances(address)
      return estimateSyncCredits(
        address,
        Object.fromEntries(STREAM_NAMES.map((s, i) => [s, rows[i]])) as Parameters<
          typeof estimateSyncCredits
        >[1],
        snapshot.takenAtSec === null ? null : snapshot.nftCount,
        ctx.nowSec(),
      )
    },
    'sync:set-depth': async ({ address, depth }) => {
      await ctx.mirror.syncState.setDepthLimit(address, depth)
    },
    'credits:overview': async (): Promise<CreditsOverview> => {
      const summary = await ctx.mirror.ledger.summarize(ctx.nowSec() * 1000)
      const settings = await readSettings(ctx.settings)
      return {
        ...summary,
        dailyBudget: settings.dailyBudget,
        monthlyBudget: settings.monthlyBudget,
      }
    },
    'watch:footprint': async () => readWatchFootprint(ctx.mirror, ctx.nowSec()),
    'credits:budget': async (): Promise<BudgetStatus> => {
      const nowMs = ctx.nowSec() * 1000
      const settings = await readSettings(ctx.settings)
      const { todayCredits, monthCredits } = await ctx.mirror.ledger.summarize(nowMs)
      // The same projection as the Settings and Activity pages show, at the saved cadence.
      const footprint = await readWatchFootprint(ctx.mirror, ctx.nowSec())
      const perDay = settings.watch.isWatching
        ? projectWatchCost(footprint.wallets, settings.watch, {
            plan: settings.plan,
            monthlyBudget: settings.monthlyBudget,
            customMonthlyCredits: settings.customMonthlyCredits,
          }).perDay
        : 0
      return {
        dailyBudget: settings.dailyBudget,
        monthlyBudget: settings.monthlyBudget,
        todayCredits,
        monthCredits,
        projection: projectMonth(monthCredits, perDay, nowMs),
      }
    },
  } satisfies HandlerGroup
}
