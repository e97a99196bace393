import { describe, expect, it } from 'vitest'
import {
  NOTHING_HELD,
  estimateHistorySize,
  firstSyncText,
  historySizeText,
  priceHistoryLoad,
  type WalletSizeFacts,
} from '../../../src-shared/domain/history-load-cost'

const NOW = 1_800_000_000
const DAY = 86_400
const FIRST = { isIdentityKnown: false, isFunderKnown: false }
const NEWEST_1000 = { maxTransactions: 1_000, sinceSec: null }
const ALL = { maxTransactions: null, sinceSec: null }

/** A wallet whose newest 1,000 signatures span `days` days before NOW. */
const busy = (days: number, extra: Partial<WalletSizeFacts> = {}): WalletSizeFacts => ({
  signatures: 1_000,
  hasMoreSignatures: true,
  oldestSignatureSec: NOW - days * DAY,
  newestSignatureSec: NOW,
  fungibleTokens: 5,
  nfts: 0,
  fundedAtSec: null,
  probedAtSec: NOW,
  credits: 22,
  ...extra,
})

describe('history-load cost: what a first sync and a load of older history will cost, said before', () => {
  it('a busy wallet’s first sync: 10 history pages, its transfers at 1–3 a transaction, holdings and names', () => {
    const cost = priceHistoryLoad({
      depth: NEWEST_1000,
      facts: busy(1),
      held: NOTHING_HELD,
      fundedAtSec: null,
      nowSec: NOW,
      firstSync: FIRST,
    })
    expect(cost.transactions).toEqual({ low: 1_000, high: 1_000 })
    const part = (name: string) => cost.lines.find((l) => l.part === name)?.credits
    expect(part('history')).toEqual({ low: 1_000, high: 1_000 })
    expect(part('transfers')).toEqual({ low: 1_000, high: 3_000 })
    // One balances page for SOL and 5 tokens, one DAS page, naming new mints.
    expect(part('holdings')).toEqual({ low: 120, high: 120 })
    expect(part('names')?.low).toBe(300)
    expect(cost.leavesOlder).toBe(true)
    expect(cost.credits.low).toBeGreaterThan(2_000)
    expect(cost.credits.high).toBeLessThan(5_000)
    expect(firstSyncText(NEWEST_1000, cost, busy(1))).toMatch(
      /^First sync ≈ [\d,]+ credits \(newest 1,000 transactions, 6 holdings, names\); older history on request$/,
    )
  })

  it('a small wallet is priced whole, and says so', () => {
    const facts = busy(30, { signatures: 64, hasMoreSignatures: false })
    const cost = priceHistoryLoad({
      depth: NEWEST_1000,
      facts,
      held: NOTHING_HELD,
      fundedAtSec: null,
      nowSec: NOW,
      firstSync: { isIdentityKnown: true, isFunderKnown: true },
    })
    expect(cost.transactions).toEqual({ low: 64, high: 64 })
    expect(cost.leavesOlder).toBe(false)
    expect(firstSyncText(NEWEST_1000, cost, facts)).toMatch(
      /\(all 64 transactions, 6 holdings, names\)$/,
    )
  })

  it('the whole history is carried back from the pace of the newest page to the wallet’s first funding', () => {
    // 1,000 a day for 1,000 days: about a million, or more (token-account transactions).
    const size = estimateHistorySize({
      facts: busy(1),
      held: NOTHING_HELD,
      fundedAtSec: NOW - 1_000 * DAY,
      nowSec: NOW,
    })
    expect(size).toEqual({ transactions: 1_000_000, isAtLeast: true, isCarried: true })
    expect(historySizeText(size)).toBe('≈ 1,000,000+')
    // Without the funder, only "more than a page" is known.
    const unknown = estimateHistorySize({
      facts: busy(1),
      held: NOTHING_HELD,
      fundedAtSec: null,
      nowSec: NOW,
    })
    expect(historySizeText(unknown)).toBe('more than 1,000')
    // The look's own funder dates the start as well.
    const looked = estimateHistorySize({
      facts: busy(1, { fundedAtSec: NOW - 1_000 * DAY }),
      held: NOTHING_HELD,
      fundedAtSec: null,
      nowSec: NOW,
    })
    expect(historySizeText(looked)).toBe('≈ 1,000,000+')
    // A wallet quiet for a month since its newest signature keeps the pace of its page.
    const quiet = estimateHistorySize({
      facts: busy(31, { newestSignatureSec: NOW - 30 * DAY, fundedAtSec: NOW - 1_030 * DAY }),
      held: NOTHING_HELD,
      fundedAtSec: null,
      nowSec: NOW,
    })
    expect(quiet).toEqual({ transactions: 1_000_000, isAtLeast: true, isCarried: true })
    // Held whole, the count is exact.
    expect(
      historySizeText(
        estimateHistorySize({
          facts: null,
          held: {
            transactions: 6_000,
            transfers: 9_000,
            oldestSec: NOW - DAY,
            newestSec: NOW,
            isWhole: true,
          },
          fundedAtSec: null,
          nowSec: NOW,
        }),
      ),
    ).toBe('6,000')
  })

  it('all of a million-transaction wallet is priced in millions, open-ended: it asks first', () => {
    const cost = priceHistoryLoad({
      depth: ALL,
      facts: busy(1),
      held: NOTHING_HELD,
      fundedAtSec: NOW - 1_000 * DAY,
      nowSec: NOW,
      firstSync: FIRST,
    })
    expect(cost.isOpenEnded).toBe(true)
    expect(cost.credits.low).toBeGreaterThan(1_900_000)
    expect(firstSyncText(ALL, cost, busy(1))).toMatch(
      /^First sync ≈ [\d,]+\+ credits \(all ≈ 1,000,000\+ transactions/,
    )
  })

  it('older history is priced from the wallet’s own transfers a transaction, and by date from its pace', () => {
    const held = {
      transactions: 1_000,
      transfers: 2_200,
      oldestSec: NOW - DAY,
      newestSec: NOW,
      isWhole: false,
    }
    const more = priceHistoryLoad({
      depth: { maxTransactions: 3_000, sinceSec: null },
      facts: busy(1),
      held,
      fundedAtSec: NOW - 1_000 * DAY,
      nowSec: NOW,
    })
    expect(more.transactions).toEqual({ low: 2_000, high: 2_000 })
    expect(more.lines.find((l) => l.part === 'transfers')?.credits).toEqual({
      low: 4_400,
      high: 4_400,
    })
    expect(more.lines.some((l) => l.part === 'holdings')).toBe(false)
    // Back ten days at a thousand a day: about 9,000 more than the 1,000 held.
    const back = priceHistoryLoad({
      depth: { maxTransactions: null, sinceSec: NOW - 10 * DAY },
      facts: busy(1),
      held,
      fundedAtSec: NOW - 1_000 * DAY,
      nowSec: NOW,
    })
    expect(back.transactions).toEqual({ low: 9_000, high: 9_000 })
    expect(back.lines.find((l) => l.part === 'history')?.credits.high).toBe(9_000 * 1)
  })
})
