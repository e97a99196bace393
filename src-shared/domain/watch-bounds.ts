import type { WatchClocks, WatchCostProjection } from './watch-cost'
import { WEBHOOK_MODE_CLOCKS } from './watch-cost'

// How soon watching sees each kind of change, and which clock of the cadence bounds it: one
// table for the command line (`watch cadence`), Settings → Watching and the rule editor, so
// that what they promise is what the change detector does (src-main/sync/change-detector.ts).

/** A clock of the cadence, by its setting's name. */
export type WatchClock = keyof WatchClocks

/** One kind of change: what finds it, what bounds how soon, and what that costs. */
export interface ChangeBound {
  /** The change, as a person says it. */
  change: string
  /** The same in a few words, for a hint beside its clock's setting. */
  short: string
  /** What finds it while polling. */
  foundBy: string
  /** The clock that bounds it while polling. */
  clock: WatchClock
  /** While polling, it reaches the mirror at most this long after it lands (plus its sync). */
  withinSec: number
  /** With webhook deliveries: how soon, in words. */
  withWebhooks: string
}

/**
 * A length of time as the bounds say it: "45 s", "10 min", "1 h", "36 h", "3 days".
 *
 * @example
 * spanText(3_600) // '1 h'
 */
export function spanText(sec: number): string {
  if (sec < 60) return `${sec} s`
  if (sec < 3_600 || sec % 3_600 !== 0) return `${Math.round(sec / 60)} min`
  if (sec >= 2 * 86_400 && sec % 86_400 === 0) return `${sec / 86_400} days`
  return `${sec / 3_600} h`
}

/**
 * Every kind of change a watched wallet sees, in the order a person meets them, with how
 * soon polling at `clocks` finds it and how soon webhook deliveries bring it.
 *
 * @example
 * changeBounds(DEFAULT_WATCH_CADENCE).find((b) => b.clock === 'tokenAccountsEverySec')?.withinSec // 3600
 */
export function changeBounds(clocks: WatchClocks): ChangeBound[] {
  const floors = WEBHOOK_MODE_CLOCKS.probeFloors
  const slowest = (clock: keyof typeof floors) => Math.max(clocks[clock], floors[clock])
  return [
    {
      change:
        'The wallet signs a transaction (a send, a swap, a new token bought, a close, a failed one)',
      short: 'what a wallet signs',
      foundBy: 'the balance look: its SOL moves by the fee',
      clock: 'checkEverySec',
      withinSec: clocks.checkEverySec,
      withWebhooks: `seconds; a failed one within ${spanText(slowest('checkEverySec'))}`,
    },
    {
      change:
        'Someone sends a token into an account the mirror knows (one the wallet opened a minute ago too)',
      short: 'a token sent into an account the mirror knows',
      foundBy: "the balance look: the account's amount moves",
      clock: 'checkEverySec',
      withinSec: clocks.checkEverySec,
      withWebhooks: `seconds when the delivery names the wallet, else within ${spanText(slowest('checkEverySec'))}`,
    },
    {
      change: 'Someone opens a new token account for the wallet (an airdrop)',
      short: 'a new token account someone else opens for a wallet',
      foundBy: "the list of the wallet's token accounts: nothing else shows it",
      clock: 'tokenAccountsEverySec',
      withinSec: clocks.tokenAccountsEverySec,
      withWebhooks: `seconds when the delivery names the wallet, else within ${spanText(slowest('tokenAccountsEverySec'))}`,
    },
    {
      change: 'Compressed tokens or SOL arrive (a compressed transfer)',
      short: 'a compressed transfer',
      foundBy: 'the look at compressed balances',
      clock: 'compressedEverySec',
      withinSec: clocks.compressedEverySec,
      withWebhooks: `within ${spanText(slowest('compressedEverySec'))} (never delivered)`,
    },
    {
      change:
        "A transaction moves nothing of the wallet's (a memo naming it, someone else's failed transfer to it)",
      short: "a transaction that moves none of a wallet's balances",
      foundBy: 'the full check of its newest signature',
      clock: 'backstopEverySec',
      withinSec: clocks.backstopEverySec,
      withWebhooks: `seconds for a memo; a failed one within ${spanText(clocks.backstopEverySec)}`,
    },
  ]
}

/**
 * How soon each mode sees a new token account someone else opened for a wallet (what a
 * `new-token` rule waits on at worst), at these clocks.
 *
 * @example
 * newAccountSeenText({ tokenAccountsEverySec: 3_600, … }) // 'within 1 h while polling at these settings; seconds with webhooks'
 */
export function newAccountSeenText(
  clocks: Pick<WatchClocks, 'tokenAccountsEverySec'>,
  settings: 'these settings' | 'the default settings' = 'these settings',
): string {
  return `within ${spanText(clocks.tokenAccountsEverySec)} while polling at ${settings}; seconds with webhooks`
}

/**
 * What a `new-token` rule waits on, as a clause: a token the wallet buys (or one sent
 * into an account the mirror knows) at the next balance look; a new account someone else
 * opens for the wallet as {@link newAccountSeenText} says.
 */
export function newTokenSeenText(
  clocks: Pick<WatchClocks, 'checkEverySec' | 'tokenAccountsEverySec'>,
  settings: 'these settings' | 'the default settings' = 'these settings',
): string {
  return (
    `a token the wallet buys is seen within ${spanText(clocks.checkEverySec)}; ` +
    `a new token account someone else opens for it, ${newAccountSeenText(clocks, settings)}`
  )
}

/**
 * What a clock bounds, in a few words: "a compressed transfer: within 10 min".
 *
 * @example
 * clockBoundText(changeBounds(cadence), 'tokenAccountsEverySec')
 * // 'a new token account someone else opens for a wallet: within 1 h'
 */
export function clockBoundText(bounds: readonly ChangeBound[], clock: WatchClock): string {
  const mine = bounds.filter((b) => b.clock === clock)
  const within = mine[0] === undefined ? '' : `: within ${spanText(mine[0].withinSec)}`
  return `${mine.map((b) => b.short).join(', ')}${within}`
}

/** What each clock costs a day in a projection, by the clock's setting. */
export function clockCredits(p: WatchCostProjection): Record<WatchClock, number> {
  return {
    checkEverySec: p.balanceLooks,
    tokenAccountsEverySec: p.tokenAccountLists,
    compressedEverySec: p.compressedLooks,
    backstopEverySec: p.backstop,
  }
}
