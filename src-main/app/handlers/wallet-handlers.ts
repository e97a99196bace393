import { NotFoundError } from '@shared/ipc/ipc-errors'
import type { BalanceAtPlan, BalanceAtResult } from '@shared/ipc/wallet-schemas'
import { assertDayHasBegun, balancesAt, endOfDaySec, planOf, startOfDaySec } from '../balances-at'
import { historyGaps } from '../history-gaps'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/**
 * Handlers of the whole-wallet channels: holdings, names and funder, balances at a date
 * (rebuilt from the mirror for free where its history covers the date, else asked of the
 * service a mint at a time, its cost said first by `balances:at-plan`; see app/balances-at.ts),
 * totals, and the charts' series: amounts from balance changes, USD value from snapshots.
 */
export function walletHandlers(ctx: HandlerContext) {
  const review = () => ctx.mirror.review
  const ensureWatched = async (address: string): Promise<void> => {
    if ((await ctx.mirror.writer.walletId(address)) === null)
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
  }
  const plan = async (
    address: string,
    date: string,
    includeNfts: boolean,
  ): Promise<BalanceAtPlan> => {
    assertDayHasBegun(ctx, date)
    await ensureWatched(address)
    const planned = planOf(await review().balancesAt(address, endOfDaySec(date)), includeNfts)
    if (planned.coveredLocally) return planned
    // The history held does not reach that day: the load of older history that fills it.
    const [gap] = await historyGaps(ctx, [address], startOfDaySec(date))
    return gap ? { ...planned, gap } : planned
  }
  return {
    'wallet:whole': async ({ address }) => {
      await ensureWatched(address)
      return review().wholeWallet(address)
    },
    'balances:at-plan': ({ address, date, includeNfts }) => plan(address, date, includeNfts),
    'balances:at': async ({ address, date, source, includeNfts }): Promise<BalanceAtResult> => {
      assertDayHasBegun(ctx, date)
      await ensureWatched(address)
      return balancesAt(ctx, { address, date, source, includeNfts })
    },
    'watchlist:totals': () => review().watchlistTotals(),
    'wallet:value-series': ({ address }) => review().valueSeries(address),
    'wallet:amount-series': ({ address, mint }) => review().amountSeries(address, mint),
    'watchlist:value-series': () => review().watchlistValueSeries(),
    'watchlist:amount-series': ({ mint }) => review().watchlistAmountSeries(mint),
  } satisfies HandlerGroup
}
