import { creditsEstimateText } from '@shared/domain/history-load-cost'
import { walletName } from '@shared/domain/wallet-address'
import type { HistoryGap, OlderHistoryTarget } from '@shared/ipc/history-load-schemas'
import type { HandlerContext } from './handlers/handler-context'
import { historyLoadsOf } from './handlers/history-load-handlers'

/**
 * The wallets whose stored history does not reach back to `fromSec` (null: to their start),
 * each with the load of older history that would fill the period and its cost: an export
 * or a balance over a period the mirror does not hold says so, never a silent gap.
 *
 * @example
 * const gaps = await historyGaps(ctx, [address], Date.parse('2025-01-01') / 1000)
 * gaps[0]?.text // 'Whale: the mirror holds its history from 2026-11-28 only; …'
 */
export async function historyGaps(
  ctx: HandlerContext,
  addresses: readonly string[],
  fromSec: number | null,
): Promise<HistoryGap[]> {
  const { mirror } = ctx
  const watched = await mirror.watchlist.list()
  const chosen =
    addresses.length === 0 ? watched : watched.filter((w) => addresses.includes(w.address))
  const loads = historyLoadsOf(ctx)
  const gaps: HistoryGap[] = []
  for (const wallet of chosen) {
    const walletId = await mirror.writer.walletId(wallet.address)
    if (walletId === null) continue
    const held = await mirror.historyLoads.held(walletId)
    if (held.isWhole) continue
    if (fromSec !== null && held.oldestSec !== null && held.oldestSec <= fromSec) continue
    const target: OlderHistoryTarget =
      fromSec === null ? { kind: 'all' } : { kind: 'to', sinceSec: fromSec }
    const plan = await loads.olderPlan(wallet.address, target)
    const name = walletName(wallet)
    const to = fromSec === null ? '--all' : `--to ${dayOf(fromSec)}`
    const holds =
      held.oldestSec === null
        ? 'the mirror holds none of its history yet'
        : `the mirror holds its history from ${dayOf(held.oldestSec)} only`
    const offer = plan.isFirstSyncPending
      ? 'its first sync comes first'
      : `load older history ${fromSec === null ? 'to its start' : `back to ${dayOf(fromSec)}`} (${creditsEstimateText(plan.cost.credits, plan.cost.isOpenEnded)})`
    gaps.push({
      address: wallet.address,
      name,
      heldFromSec: held.oldestSec,
      target,
      cost: plan.cost,
      text: `${name}: ${holds}; anything older is not in it. To fill it, ${offer}.`,
      offer,
      command: `heliograph sync --deeper ${wallet.address} ${to}`,
    })
  }
  return gaps
}

function dayOf(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10)
}
