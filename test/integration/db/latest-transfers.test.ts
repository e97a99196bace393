import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listLatestTransfers } from '../../../src-main/db/queries/transfer-queries'
import { generateHistoryMirror, type GeneratedMirror } from '../../helpers/history-mirror'
import { fullScans, openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// Given three watched wallets with transfers at interleaved times, when the Watchlist asks
// for the latest activity, then it gets the newest transfers across all of them in
// (time, signature, id) order, each with its wallet, reading each wallet on its index.

describe('latest transfers across the watchlist', () => {
  let review: ReviewDb
  const mirrors: GeneratedMirror[] = []

  beforeAll(async () => {
    review = await openReviewDb()
    const newestSec = 1_760_000_000
    for (const [i, count] of [1_200, 300, 40].entries()) {
      mirrors.push(
        generateHistoryMirror(review.database.sqlite, {
          address: testAddress(10 + i),
          label: i === 0 ? 'Main' : undefined,
          count,
          seed: 20 + i,
          // Interleaved: the small wallets' newest transfers are among the newest overall.
          newestSec: newestSec - i * 7,
          keepTruth: true,
        }),
      )
    }
  })
  afterAll(async () => review?.close())

  function bruteForce(limit: number) {
    return mirrors
      .flatMap((m) => m.transfers.map((t) => ({ ...t, wallet: m.address })))
      .sort(
        (a, b) =>
          b.blockTimeSec - a.blockTimeSec ||
          (a.signature < b.signature ? 1 : a.signature > b.signature ? -1 : 0) ||
          b.id - a.id,
      )
      .slice(0, limit)
  }

  for (const limit of [1, 12, 50, 200]) {
    it(`the newest ${limit} equal a brute-force merge of every wallet's transfers`, async () => {
      const got = await listLatestTransfers(review.db, limit)
      const want = bruteForce(limit)
      expect(got.map((t) => [t.walletAddress, t.id])).toEqual(want.map((t) => [t.wallet, t.id]))
      // More than one wallet contributes, so the merge was tested.
      expect(new Set(got.map((t) => t.walletAddress)).size).toBe(limit === 1 ? 1 : 3)
    })
  }

  it('rows carry their wallet’s label and the transfer’s exact amount', async () => {
    const got = await listLatestTransfers(review.db, 50)
    for (const t of got) {
      expect(t.walletLabel).toBe(t.walletAddress === mirrors[0]!.address ? 'Main' : null)
      expect(t.amountText).toBe(String(t.amount))
    }
  })

  it('reads each wallet on its index, never scanning the transfers', async () => {
    review.queries.length = 0
    await listLatestTransfers(review.db, 12)
    const plan = review.planOf(review.queries.at(-1)!)
    expect(fullScans(plan)).toEqual([])
    expect(plan.some((line) => /^SEARCH t USING INTEGER PRIMARY KEY/.test(line))).toBe(true)
  })
})
