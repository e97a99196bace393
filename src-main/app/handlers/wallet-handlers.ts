import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import { getOperation } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import { InvalidInputError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { BalanceAtPlan, BalanceAtResult } from '@shared/ipc/wallet-schemas'
import type { LocalBalancesAt } from '../../db/queries/balance-at-queries'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

type WalletChannel =
  | 'wallet:whole'
  | 'balances:at-plan'
  | 'balances:at'
  | 'watchlist:totals'
  | 'wallet:value-series'
  | 'wallet:amount-series'
  | 'watchlist:value-series'
  | 'watchlist:amount-series'

/** The end of a calendar day (UTC): balances "on 31 Dec" are as of its last second. */
export function endOfDaySec(date: string): number {
  return Math.floor(Date.parse(`${date}T23:59:59Z`) / 1000)
}

const BALANCE_AT_CREDITS = creditsPerCall(getOperation('wallet.balanceAt').priceKey)

/**
 * Handlers of the whole-wallet channels: holdings, names and funder, balances at a date
 * (rebuilt from the mirror for free where its history covers the date, else asked of the
 * service a mint at a time, its cost said first by `balances:at-plan`), totals, and the
 * charts' series: amounts from balance changes, USD value from snapshots.
 */
export function walletHandlers(ctx: HandlerContext): Pick<HandlerTable, WalletChannel> {
  const review = () => ctx.mirror.review
  const ensureWatched = async (address: string): Promise<void> => {
    if ((await ctx.mirror.writer.walletId(address)) === null)
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
  }
  const plan = async (address: string, date: string): Promise<BalanceAtPlan> => {
    await ensureWatched(address)
    return planOf(await review().balancesAt(address, endOfDaySec(date)))
  }
  return {
    'wallet:whole': async ({ address }) => {
      await ensureWatched(address)
      return review().wholeWallet(address)
    },
    'balances:at-plan': ({ address, date }) => plan(address, date),
    'balances:at': async ({ address, date, source }): Promise<BalanceAtResult> => {
      await ensureWatched(address)
      const atSec = endOfDaySec(date)
      const local = await review().balancesAt(address, atSec)
      if (source === 'local') {
        if (!local.covered) {
          throw new InvalidInputError(
            `The mirror cannot rebuild balances on ${date}: ${local.reason}. Ask the service instead (${planOf(local).serviceCredits} credits).`,
          )
        }
        return {
          address,
          date,
          source,
          balances: local.balances.map((b) => ({
            mint: b.mint,
            symbol: b.symbol,
            amount: decimalFromRaw(b.raw, b.decimals),
          })),
        }
      }
      const runtime = await ctx.session.runtime()
      const symbols = new Map(local.mints.map((m) => [m.mint, m.symbol]))
      const balances: BalanceAtResult['balances'] = []
      for (const mint of withSol(local.mints.map((m) => m.mint))) {
        const answer = await runtime.engine.callFor(address, 'wallet.balanceAt', {
          wallet: address,
          // facts: balance-at names native SOL with its own pseudo-mint.
          mint: mint === NATIVE_SOL_MINT ? BALANCE_AT_NATIVE_SOL_MINT : mint,
          time: atSec,
        })
        if (answer.balanceRaw === '0') continue
        balances.push({
          mint,
          symbol: symbols.get(mint) ?? null,
          amount: decimalFromRaw(answer.balanceRaw, answer.decimals),
        })
      }
      return { address, date, source, balances }
    },
    'watchlist:totals': () => review().watchlistTotals(),
    'wallet:value-series': ({ address }) => review().valueSeries(address),
    'wallet:amount-series': ({ address, mint }) => review().amountSeries(address, mint),
    'watchlist:value-series': () => review().watchlistValueSeries(),
    'watchlist:amount-series': ({ mint }) => review().watchlistAmountSeries(mint),
  }
}

/** Whether the mirror can answer, and what the service would cost: a call per mint. */
function planOf(local: LocalBalancesAt): BalanceAtPlan {
  const mints = withSol(local.mints.map((m) => m.mint)).length
  return {
    coveredLocally: local.covered,
    reason: local.reason,
    mints,
    serviceCredits: mints * BALANCE_AT_CREDITS,
  }
}

/** Mints to ask about: SOL always, every wallet holds some. */
function withSol(mints: readonly string[]): string[] {
  return mints.includes(NATIVE_SOL_MINT) ? [...mints] : [NATIVE_SOL_MINT, ...mints]
}
