import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import { getOperation } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { futureDayProblem } from '@shared/domain/calendar-day'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { BalanceAtPlan, BalanceAtResult, BalanceAtSource } from '@shared/ipc/wallet-schemas'
import type { LocalBalancesAt } from '../db/queries/balance-at-queries'
import type { HandlerContext } from './handlers/handler-context'
import { historyGaps } from './history-gaps'

// Balances at a date (ARCHITECTURE, Sync rules): rebuilt from the mirror for free where its
// history covers the date, else asked of the service a mint at a time, its cost said first.
// The `balances:*` channels and the balances-at export both answer through here.

/** Credits of one balance-at call (one call per wallet and mint: docs/service.md, Wallet REST). */
export const BALANCE_AT_CREDITS = creditsPerCall(getOperation('wallet.balanceAt').priceKey)

/** The end of a calendar day (UTC): balances "on 31 Dec" are as of its last second. */
export function endOfDaySec(date: string): number {
  return Math.floor(Date.parse(`${date}T23:59:59Z`) / 1000)
}

/** The first second of `date` (YYYY-MM-DD, UTC): how far back history must reach for it. */
export function startOfDaySec(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000)
}

/**
 * Refuses a day after today (UTC, by the core's clock) before anything is read or asked:
 * it has no balances yet, and the service would charge for each mint all the same.
 */
export function assertDayHasBegun(ctx: Pick<HandlerContext, 'nowSec'>, date: string): void {
  const problem = futureDayProblem(date, ctx.nowSec() * 1000)
  if (problem !== null) throw new InvalidInputError(problem, { date })
}

/**
 * The mints a service look-up asks about: SOL always (every wallet holds some), the
 * fungible mints, and the NFT mints only when asked for — a collector's NFTs would
 * otherwise cost a call each.
 */
function mintsToAsk(local: LocalBalancesAt, includeNfts: boolean): string[] {
  const asked = local.mints.filter((m) => includeNfts || !m.isNft).map((m) => m.mint)
  return asked.includes(NATIVE_SOL_MINT) ? asked : [NATIVE_SOL_MINT, ...asked]
}

/**
 * Whether the mirror can answer, and what the service would cost: a call per mint asked.
 *
 * @example
 * planOf(await mirror.review.balancesAt(address, atSec), false)
 * // { coveredLocally: true, reason: null, mints: 3, serviceCredits: 300, nftMints: 173, nftCredits: 17300, includeNfts: false }
 */
export function planOf(local: LocalBalancesAt, includeNfts: boolean): BalanceAtPlan {
  const mints = mintsToAsk(local, includeNfts).length
  const nftMints = local.mints.filter((m) => m.isNft).length
  return {
    coveredLocally: local.covered,
    reason: local.reason,
    mints,
    serviceCredits: mints * BALANCE_AT_CREDITS,
    nftMints,
    nftCredits: nftMints * BALANCE_AT_CREDITS,
    includeNfts,
  }
}

/** What `balances:at` and the balances-at export ask for one wallet. */
export interface BalancesAtRequest {
  address: string
  date: string
  source: BalanceAtSource
  includeNfts: boolean
  /** Checked between service calls: an aborted look-up asks nothing more. */
  signal?: AbortSignal
}

/**
 * A watched wallet's balances at the end of `date` (UTC): from the mirror (refused, naming
 * why, where its history does not cover the date) or from the service, fungible mints
 * only unless `includeNfts`; NFT holdings not asked come from the mirror where it covers
 * the date, else are listed as not asked.
 */
export async function balancesAt(
  ctx: HandlerContext,
  request: BalancesAtRequest,
): Promise<BalanceAtResult> {
  const { address, date, source, includeNfts } = request
  assertDayHasBegun(ctx, date)
  const local = await ctx.mirror.review.balancesAt(address, endOfDaySec(date))
  const localAmounts = new Map(
    local.balances.map((b) => [b.mint, decimalFromRaw(b.raw, b.decimals)]),
  )
  if (source === 'local') {
    if (!local.covered) {
      // The history held does not reach back that far: say what would fill it, and its cost.
      const [gap] = await historyGaps(ctx, [address], startOfDaySec(date))
      const fill = gap ? `, or ${gap.offer}: \`${gap.command}\`` : ''
      throw new InvalidInputError(
        `The mirror cannot rebuild balances on ${date}: ${local.reason}. Ask the service instead (${planOf(local, includeNfts).serviceCredits.toLocaleString('en-US')} credits)${fill}.`,
        { address, date, reason: local.reason, ...(gap ? { gap } : {}) },
      )
    }
    return {
      address,
      date,
      source,
      balances: local.balances.map((b) => ({
        mint: b.mint,
        symbol: b.symbol,
        amount: localAmounts.get(b.mint) as string,
      })),
    }
  }
  const asked = await askService(
    ctx,
    address,
    endOfDaySec(date),
    mintsToAsk(local, includeNfts),
    request.signal,
  )
  const nfts = local.mints.filter((m) => m.isNft)
  const answeredBy = includeNfts ? 'service' : local.covered ? 'mirror' : 'not asked'
  const amountOf = (mint: string): string | undefined =>
    asked.get(mint) ?? (answeredBy === 'mirror' ? (localAmounts.get(mint) ?? '0') : undefined)
  // The mirror's order (by mint), SOL first where the mirror never saw it: as a local answer.
  const symbols = new Map(local.mints.map((m) => [m.mint, m.symbol]))
  const order = local.mints.some((m) => m.mint === NATIVE_SOL_MINT)
    ? local.mints.map((m) => m.mint)
    : [NATIVE_SOL_MINT, ...local.mints.map((m) => m.mint)]
  const balances: BalanceAtResult['balances'] = []
  for (const mint of order) {
    const amount = amountOf(mint)
    if (amount === undefined || amount === '0') continue
    balances.push({ mint, symbol: symbols.get(mint) ?? null, amount })
  }
  return {
    address,
    date,
    source,
    balances,
    nfts: { mints: nfts.length, answeredBy },
    notAsked:
      answeredBy === 'not asked' ? nfts.map((m) => ({ mint: m.mint, symbol: m.symbol })) : [],
  }
}

/** One balance-at call per mint; exact decimal text per mint asked. */
async function askService(
  ctx: HandlerContext,
  address: string,
  atSec: number,
  mints: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Map<string, string>> {
  const runtime = await ctx.session.runtime()
  const amounts = new Map<string, string>()
  for (const mint of mints) {
    signal?.throwIfAborted()
    const answer = await runtime.engine.callFor(address, 'wallet.balanceAt', {
      wallet: address,
      // balance-at names native SOL with its own pseudo-mint (So1…111, not So1…112).
      mint: mint === NATIVE_SOL_MINT ? BALANCE_AT_NATIVE_SOL_MINT : mint,
      time: atSec,
    })
    amounts.set(mint, decimalFromRaw(answer.balanceRaw, answer.decimals))
  }
  return amounts
}
