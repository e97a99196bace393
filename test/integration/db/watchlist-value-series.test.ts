import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fetchWatchlistValueSeries,
  VALUE_SERIES_MIN_SPAN_SEC,
} from '../../../src-main/db/queries/value-series-queries'
import { addBalanceSnapshots, generateHistoryMirror } from '../../helpers/history-mirror'
import { openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// The watchlist's value over time sums each wallet's latest snapshot. While the first syncs
// come in one by one, a sum would lack the wallets not yet synced and draw a rise from near
// zero over seconds; the series starts once every wallet has a snapshot.
describe('the watchlist’s value over time', () => {
  let review: ReviewDb
  const t0 = 1_700_000_000
  const day = VALUE_SERIES_MIN_SPAN_SEC

  beforeAll(async () => {
    review = await openReviewDb()
    const sqlite = review.database.sqlite
    const early = generateHistoryMirror(sqlite, { address: testAddress(1), count: 3 })
    const late = generateHistoryMirror(sqlite, { address: testAddress(2), count: 3 })
    // The early wallet is synced 40 s before the late one, then both again two days on.
    addBalanceSnapshots(sqlite, early, [
      { atSec: t0, tokens: [{ mintIndex: 0, balance: 1, priceUsd: 100 }] },
      { atSec: t0 + 2 * day, tokens: [{ mintIndex: 0, balance: 1, priceUsd: 150 }] },
    ])
    addBalanceSnapshots(sqlite, late, [
      { atSec: t0 + 40, tokens: [{ mintIndex: 0, balance: 2, priceUsd: 1_000 }] },
      { atSec: t0 + 2 * day + 40, tokens: [{ mintIndex: 0, balance: 2, priceUsd: 900 }] },
    ])
  })
  afterAll(() => review.close())

  it('starts once every wallet has its first snapshot, each point the sum of the latest values', async () => {
    const series = await fetchWatchlistValueSeries(review.db)
    expect(series.isDrawn).toBe(true)
    expect(series.points).toEqual([
      { atSec: t0 + 40, valueUsd: 100 + 2_000 },
      { atSec: t0 + 2 * day, valueUsd: 150 + 2_000 },
      { atSec: t0 + 2 * day + 40, valueUsd: 150 + 1_800 },
    ])
  })
})
