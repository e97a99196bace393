import { historySizeText, estimateHistorySize } from '@shared/domain/history-load-cost'
import { formatCount } from '@shared/domain/display-text'
import { AppError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { OlderHistoryOutcome, OlderHistoryPlan } from '@shared/ipc/history-load-schemas'
import type { Mirror } from '../../db/mirror'
import { HistoryLoads } from '../../sync/history-loads'
import type { SyncRuntime } from '../../sync/sync-runtime'
import { probeWalletSize } from '../../sync/wallet-size-probe'
import { monthlyAllowanceOf, readSettings } from '../app-settings'
import { budgetPeriodStarts } from '../../db/stores/credit-ledger-store'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** The ledger's name for the calls that look at a wallet's size before its first sync. */
export const ESTIMATE_PURPOSE = 'estimate'

/** The streams a load of older history runs: the history, then those that follow it. */
const OLDER_STREAMS = [
  'history',
  'transfers',
  'compressed-owner',
  'compressed-token-owner',
] as const

/**
 * Handlers of loading history (issue 48): the first sync's estimate (looking at the
 * wallet's size first), agreeing to a load that asks first, and loading older history,
 * its cost said before it runs.
 */
export function historyLoadHandlers(ctx: HandlerContext) {
  const walletIdOf = async (mirror: Mirror, address: string): Promise<number> => {
    const id = await mirror.writer.walletId(address)
    if (id === null)
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
    return id
  }

  return {
    'sync:first-sync-estimate': async ({ address, depth }) => {
      const loads = historyLoadsOf(ctx)
      let probeCredits = 0
      if (!loads.isProbeFresh(await ctx.mirror.historyLoads.probe(address))) {
        // Without a key (or offline) the estimate is made from what is known, never nothing.
        const runtime = await runtimeForLook(ctx, address)
        const looked =
          runtime &&
          (await probeWalletSize(
            (operation, input, signal) =>
              runtime.engine.callAs(
                { address, purpose: ESTIMATE_PURPOSE },
                operation,
                input,
                signal,
              ),
            address,
            ctx.nowSec(),
          ).catch(() => null))
        if (looked) {
          await ctx.mirror.historyLoads.saveProbe(address, looked.facts, looked.funding)
          probeCredits = looked.facts.credits
        }
      }
      return loads.firstSyncEstimate(address, depth ?? null, probeCredits)
    },
    'sync:approve': async ({ address, credits }) => {
      await walletIdOf(ctx.mirror, address)
      await ctx.session.approveLoad(address, credits)
    },
    'sync:older-plan': async ({ address, target }) => {
      await walletIdOf(ctx.mirror, address)
      return historyLoadsOf(ctx).olderPlan(address, target)
    },
    'sync:older': async ({ address, target, approvedCredits }) => {
      const walletId = await walletIdOf(ctx.mirror, address)
      const refusal = await ctx.session.refusalOfSyncNow({ isNewRun: true })
      if (refusal !== null) throw refusal
      const runtime = await ctx.session.runtime()
      const plan = await runtime.loads.olderPlan(address, target)
      assertMayLoadOlder(plan)
      const open = await ctx.mirror.historyLoads.load(walletId)
      // Kept before the first call: a load stopped by the budget or a cancel goes on from here.
      await ctx.mirror.historyLoads.start(walletId, {
        kind: 'older',
        target: plan.depth,
        approvedCredits:
          approvedCredits ?? (plan.isContinuing ? (open?.approvedCredits ?? null) : null),
        askedAtSec: ctx.nowSec(),
      })
      const outcome = await runtime.engine.syncWallet(address, {
        streams: [...OLDER_STREAMS],
        older: { depth: plan.depth },
      })
      return finishOlderLoad(ctx.mirror, runtime, walletId, plan, outcome)
    },
    'sync:history-depth': async ({ address }) => {
      const walletId = await walletIdOf(ctx.mirror, address)
      const loads = historyLoadsOf(ctx)
      const basis = await loads.basis(address, walletId)
      const size = estimateHistorySize(basis)
      const { held } = basis
      // Nothing held and nothing seen yet (no look made): say that, not "0 of more than 0".
      const text = held.isWhole
        ? `all ${formatCount(held.transactions)} transactions`
        : held.transactions === 0 && size.transactions === 0
          ? 'none held yet'
          : `newest ${formatCount(held.transactions)} of ${historySizeText(size)} transactions`
      return {
        address,
        held,
        size,
        text,
        older: held.isWhole ? null : await loads.olderPlan(address),
      }
    },
  } satisfies HandlerGroup
}

/** Prices loads of the current mirror, its month weighed from the settings and the ledger. */
export function historyLoadsOf(ctx: HandlerContext): HistoryLoads {
  const { mirror } = ctx
  return new HistoryLoads({
    loads: mirror.historyLoads,
    names: mirror.names,
    writer: mirror.writer,
    month: async () => ({
      allowance: monthlyAllowanceOf(await readSettings(ctx.settings)),
      spent: await mirror.ledger.spentSince(budgetPeriodStarts(ctx.nowSec() * 1000).monthStartMs),
    }),
    namesRefreshSec: async () => (await readSettings(ctx.settings)).namesRefreshDays * 86_400,
    nowSec: () => ctx.nowSec(),
  })
}

/**
 * The runtime to look at a wallet through, or null where a look would tell nothing or
 * cannot be made: no key, or the demo's simulator asked about a wallet of its own chain only.
 */
async function runtimeForLook(ctx: HandlerContext, address: string): Promise<SyncRuntime | null> {
  if (ctx.info.dataSource === 'demo' && !(await ctx.session.isDemoChainWallet(address))) return null
  if (ctx.session.isWaitingForKey) return null
  return ctx.session.runtime().catch(() => null)
}

/** Refuses a load of older history that cannot start, in words naming what comes first. */
function assertMayLoadOlder(plan: OlderHistoryPlan): void {
  if (plan.isFirstSyncPending)
    throw new AppError(
      `The first sync of ${plan.address} has not finished (${formatCount(plan.held.transactions)} transactions so far): it comes first (\`heliograph sync --once\`, or Sync now in the app).`,
      { address: plan.address },
    )
}

/**
 * After a load of older history ran: when it reached its target (or the history's start),
 * the history's depth becomes the target and the load is done; else it stays, to go on.
 */
async function finishOlderLoad(
  mirror: Mirror,
  runtime: SyncRuntime,
  walletId: number,
  plan: OlderHistoryPlan,
  outcome: OlderHistoryOutcome['outcome'],
): Promise<OlderHistoryOutcome> {
  const before = await mirror.historyLoads.held(walletId)
  const history = await mirror.writer.stream(walletId, 'history')
  const { depth } = plan
  const isStartReached = history.backfillCursor === null
  const isReached =
    isStartReached ||
    (depth.maxTransactions !== null && before.transactions >= depth.maxTransactions) ||
    (depth.sinceSec !== null && before.oldestSec !== null && before.oldestSec < depth.sinceSec)
  const isDone = outcome.state === 'ok' && isReached
  if (isDone) {
    await mirror.syncState.setDepthLimit(plan.address, depth)
    await mirror.historyLoads.finish(walletId)
  }
  await runtime.meter.idle()
  const held = await mirror.historyLoads.held(walletId)
  const loaded = `Loaded ${formatCount(outcome.newTransactions)} older transactions`
  const stop = outcome.streams.find((s) => s.error)?.error ?? outcome.state
  const summary = isDone
    ? `${loaded}; the mirror holds ${formatCount(held.transactions)}${isStartReached ? ', back to the wallet’s first' : ''}.`
    : `${loaded} before it stopped (${stop}); run it again to go on from there.`
  return { outcome, held, isDone, summary }
}
