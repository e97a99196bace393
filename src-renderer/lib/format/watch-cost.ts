import type { WatchCostProjection } from '@shared/domain/watch-cost'
import { formatCount, formatShare } from '@shared/domain/display-text'

// How the cost of watching reads, the same on the Settings page (before saving) and on
// the Activity page (against what was spent).

const UNITS = [
  { sec: 86_400, one: 'day', many: 'days' },
  { sec: 3_600, one: 'hour', many: 'hours' },
  { sec: 60, one: 'minute', many: 'minutes' },
] as const

/**
 * A length of time in its largest whole unit.
 *
 * @example
 * describeDuration(15) // "15 s"
 * describeDuration(86_400) // "1 day"
 */
export function describeDuration(sec: number): string {
  for (const unit of UNITS) {
    if (sec % unit.sec !== 0) continue
    const n = sec / unit.sec
    return `${formatCount(n)} ${n === 1 ? unit.one : unit.many}`
  }
  return `${formatCount(sec)} s`
}

/**
 * A cadence in words.
 *
 * @example
 * describeEvery(60) // "every minute"
 * describeEvery(15) // "every 15 s"
 * describeEvery(7_200) // "every 2 hours"
 */
export function describeEvery(sec: number): string {
  return `every ${describeDuration(sec).replace(/^1 (?=[a-z])/, '')}`
}

/** Credits rounded for reading: two significant figures from 1,000 up. */
export function roundCredits(credits: number): number {
  if (credits < 1_000) return Math.round(credits)
  const step = 10 ** (Math.floor(Math.log10(credits)) - 1)
  return Math.round(credits / step) * step
}

/** A share of the allowance, where a tiny one still reads as more than nothing. */
export function describeShare(share: number): string {
  return share > 0 && share < 0.001 ? '<0.1%' : formatShare(share)
}

/**
 * The projection in one sentence, naming what the share is of.
 *
 * @example
 * describeProjection(p, { wallets: 50, checkEverySec: 60, isBudget: false })
 * // "50 wallets every minute ≈ 2,900 credits/day (87,000/month), 0.9% of your plan"
 */
export function describeProjection(
  p: WatchCostProjection,
  watchlist: { wallets: number; checkEverySec: number; isBudget: boolean },
): string {
  const wallets = watchlist.wallets === 1 ? '1 wallet' : `${formatCount(watchlist.wallets)} wallets`
  const head = `${wallets} ${describeEvery(watchlist.checkEverySec)} ≈ ${formatCount(roundCredits(p.perDay))} credits/day (${formatCount(roundCredits(p.perMonth))}/month)`
  if (p.shareOfMonth === null) return head
  return `${head}, ${describeShare(p.shareOfMonth)} of your ${watchlist.isBudget ? 'monthly budget' : 'plan'}`
}

/** What spends the credits, largest first, for a breakdown under the sentence. */
export function projectionParts(p: WatchCostProjection): { label: string; perDay: number }[] {
  return [
    { label: 'Balance looks', perDay: p.balanceLooks },
    { label: 'Token-account lists', perDay: p.tokenAccountLists },
    { label: 'Compressed balances', perDay: p.compressedLooks },
    { label: 'Full checks', perDay: p.backstop },
    { label: 'Syncs of changes', perDay: p.changeSyncs },
    { label: 'Webhook deliveries', perDay: p.deliveries },
    { label: 'Webhook checks', perDay: p.webhookChecks },
  ]
    .filter((part) => part.perDay > 0)
    .sort((a, b) => b.perDay - a.perDay)
}

/**
 * What a month comes to in each mode, the one in use first, each against the allowance.
 *
 * @example
 * describeMonths({ polling, webhook }, 'polling')
 * // "A month polling ≈ 390,000 credits (39% of your plan); with webhook deliveries ≈ 78,000 (7.8%)"
 */
export function describeMonths(
  by: { polling: WatchCostProjection; webhook: WatchCostProjection },
  current: 'polling' | 'webhook',
  isBudget: boolean,
): string {
  const share = (p: WatchCostProjection) =>
    p.shareOfMonth === null ? '' : ` (${describeShare(p.shareOfMonth)})`
  const words = { polling: 'polling', webhook: 'with webhook deliveries' } as const
  const other = current === 'polling' ? 'webhook' : 'polling'
  const first = by[current]
  const firstShare =
    first.shareOfMonth === null
      ? ''
      : ` (${describeShare(first.shareOfMonth)} of your ${isBudget ? 'monthly budget' : 'plan'})`
  return (
    `A month ${words[current]} ≈ ${formatCount(roundCredits(first.perMonth))} credits${firstShare}; ` +
    `${words[other]} ≈ ${formatCount(roundCredits(by[other].perMonth))}${share(by[other])}`
  )
}
