import { describe, expect, it } from 'vitest'
import { projectWatchCost, type WatchedWalletFootprint } from '@shared/domain/watch-cost'
import {
  describeDuration,
  describeEvery,
  describeMonths,
  describeProjection,
  describeShare,
  projectionParts,
  roundCredits,
} from '../../../src-renderer/lib/format/watch-cost'

// The cost of watching reads the same on Settings and Activity: the cadence in words, the
// credits a day and a month rounded for reading, and the share of the plan or budget.

const idle = (tokenAccounts: number): WatchedWalletFootprint => ({
  tokenAccounts,
  collectibleAccounts: 0,
  hasCompressedState: false,
  changesPerDay: 0,
  creditsPerChange: null,
})
const CADENCE = {
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 600,
  backstopEverySec: 86_400,
}

describe('describeDuration', () => {
  it('says a length of time in its largest whole unit', () => {
    expect(describeDuration(15)).toBe('15 s')
    expect(describeDuration(60)).toBe('1 minute')
    expect(describeDuration(5_400)).toBe('90 minutes')
    expect(describeDuration(86_400)).toBe('1 day')
    expect(describeDuration(30 * 86_400)).toBe('30 days')
  })
})

describe('describeEvery', () => {
  it('says a cadence in the largest whole unit', () => {
    expect(describeEvery(15)).toBe('every 15 s')
    expect(describeEvery(90)).toBe('every 90 s')
    expect(describeEvery(60)).toBe('every minute')
    expect(describeEvery(600)).toBe('every 10 minutes')
    expect(describeEvery(3_600)).toBe('every hour')
    expect(describeEvery(7_200)).toBe('every 2 hours')
    expect(describeEvery(86_400)).toBe('every day')
    expect(describeEvery(30 * 86_400)).toBe('every 30 days')
  })
})

describe('roundCredits and describeShare', () => {
  it('keeps two significant figures from 1,000 up, whole credits below', () => {
    expect(roundCredits(999.6)).toBe(1_000)
    expect(roundCredits(412.4)).toBe(412)
    expect(roundCredits(2_880)).toBe(2_900)
    expect(roundCredits(86_400)).toBe(86_000)
    expect(roundCredits(1_212_000)).toBe(1_200_000)
  })

  it('shows a tiny share as more than nothing', () => {
    expect(describeShare(0.0004)).toBe('<0.1%')
    expect(describeShare(0.0087)).toBe('0.9%')
    expect(describeShare(1.22)).toBe('122%')
  })
})

describe('describeProjection', () => {
  it('reads "50 wallets every minute ≈ … credits/day (…/month), …% of your plan"', () => {
    // 50 wallets, no token accounts: 50 accounts, one look a minute = 1,440 a day; lists
    // 50 × 2 programs hourly = 2,400; full checks 50 × 10 daily = 500.
    const wallets = Array.from({ length: 50 }, () => idle(0))
    const p = projectWatchCost(wallets, CADENCE, { plan: 'free', monthlyBudget: null })
    expect(p.perDay).toBe(1_440 + 2_400 + 500)
    expect(describeProjection(p, { wallets: 50, checkEverySec: 60, isBudget: false })).toBe(
      '50 wallets every minute ≈ 4,300 credits/day (130,000/month), 13% of your plan',
    )
  })

  it('names the monthly budget when one is set, and leaves the share out when none is known', () => {
    const p = projectWatchCost([idle(3)], CADENCE, { plan: 'free', monthlyBudget: 50_000 })
    expect(describeProjection(p, { wallets: 1, checkEverySec: 60, isBudget: true })).toMatch(
      /^1 wallet every minute ≈ [\d,]+ credits\/day \([\d,]+\/month\), [\d.]+% of your monthly budget$/,
    )
    const none = projectWatchCost([idle(3)], CADENCE, { plan: 'off', monthlyBudget: null })
    expect(describeProjection(none, { wallets: 1, checkEverySec: 60, isBudget: false })).toMatch(
      /credits\/day \([\d,]+\/month\)$/,
    )
  })

  it('lists what spends the credits, largest first, leaving out what costs nothing', () => {
    const p = projectWatchCost([idle(0)], CADENCE, { plan: 'free', monthlyBudget: null })
    expect(projectionParts(p).map((part) => part.label)).toEqual([
      'Balance looks',
      'Token-account lists',
      'Full checks',
    ])
  })
})

describe('webhook mode in the projection', () => {
  const active: WatchedWalletFootprint = {
    tokenAccounts: 5,
    collectibleAccounts: 0,
    hasCompressedState: true,
    changesPerDay: 20,
    creditsPerChange: 40,
  }
  const wallets = [active, ...Array.from({ length: 49 }, () => idle(3))]
  const allowance = { plan: 'free' as const, monthlyBudget: null }

  it('slows the probe to its floors, pays each delivery 1 credit and syncs nothing', () => {
    const polling = projectWatchCost(wallets, CADENCE, allowance)
    const webhook = projectWatchCost(wallets, CADENCE, allowance, 'webhook')
    // Looks every 10 min instead of every minute; lists every 6 h; compressed hourly.
    expect(webhook.balanceLooks).toBeCloseTo(polling.balanceLooks / 10, 5)
    expect(webhook.tokenAccountLists).toBeCloseTo(polling.tokenAccountLists / 6, 5)
    expect(webhook.compressedLooks).toBeCloseTo(polling.compressedLooks / 6, 5)
    expect(polling.changeSyncs).toBe(20 * 40)
    expect(webhook.changeSyncs).toBe(0)
    expect(webhook.deliveries).toBe(20)
    expect(webhook.webhookChecks).toBe(400)
    expect(polling.deliveries + polling.webhookChecks).toBe(0)
    expect(webhook.perDay).toBeLessThan(polling.perDay)
    expect(projectionParts(webhook).map((p) => p.label)).toContain('Webhook deliveries')
  })

  it('a month in each mode, the one in use first, against the plan', () => {
    const by = {
      polling: projectWatchCost(wallets, CADENCE, allowance),
      webhook: projectWatchCost(wallets, CADENCE, allowance, 'webhook'),
    }
    const text = describeMonths(by, 'webhook', false)
    expect(text).toMatch(
      /^A month with webhook deliveries ≈ [\d,]+ credits \([\d.]+% of your plan\); polling ≈ [\d,]+ \([\d.]+%\)$/,
    )
    expect(describeMonths(by, 'polling', true)).toMatch(
      /^A month polling ≈ .* of your monthly budget\)/,
    )
  })
})
