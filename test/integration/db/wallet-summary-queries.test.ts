import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listWatchedWallets } from '../../../src-main/db/queries/watchlist-queries'
import {
  fetchWalletProfile,
  listWalletSummaries,
  markWalletViewed,
  NEW_ACTIVITY_CAP,
  reorderWatchlist,
  walletIdOf,
} from '../../../src-main/db/queries/wallet-summary-queries'
import { NotFoundError } from '@shared/ipc/ipc-errors'
import {
  addBalanceSnapshots,
  generateHistoryMirror,
  type GeneratedMirror,
} from '../../helpers/history-mirror'
import { openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

describe('wallet summaries, viewed marks, order and profile', () => {
  let review: ReviewDb
  let big: GeneratedMirror
  let small: GeneratedMirror

  beforeAll(async () => {
    review = await openReviewDb()
    big = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(1),
      count: 2_000,
      keepTruth: true,
    })
    small = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(2),
      count: 12,
      newestSec: 1_700_000_000,
      keepTruth: true,
    })
    addBalanceSnapshots(review.database.sqlite, small, [
      { atSec: 1, tokens: [{ mintIndex: 0, balance: 2, priceUsd: 10 }] },
    ])
  })
  afterAll(async () => review?.close())

  it('never-opened wallets count all history as new, capped; totals come from the latest snapshot', async () => {
    const [a, b] = await listWalletSummaries(review.db)
    expect(a).toEqual({
      address: big.address,
      totalUsd: null,
      newActivityCount: NEW_ACTIVITY_CAP,
      isNewActivityCapped: true,
      lastActivitySec: big.newestSec,
    })
    expect(b).toMatchObject({
      address: small.address,
      totalUsd: 20,
      newActivityCount: 12,
      isNewActivityCapped: false,
    })
  })

  it('viewing clears the badge; newer transactions count again', async () => {
    await markWalletViewed(review.db, small.walletId, 5)
    expect((await listWalletSummaries(review.db))[1]!.newActivityCount).toBe(0)
    review.database.sqlite
      .prepare(
        `insert into transactions (wallet_id, signature, slot, block_time_sec, fee, fee_text, fee_payer, error, is_failed, change_count)
         values (?, 'newer1', 1, ?, 0, '0', 'x', null, 0, 0), (?, 'newer2', 2, ?, 0, '0', 'x', null, 0, 0)`,
      )
      .run(small.walletId, small.newestSec + 10, small.walletId, small.newestSec + 20)
    const after = (await listWalletSummaries(review.db))[1]!
    expect(after.newActivityCount).toBe(2)
    expect(after.lastActivitySec).toBe(small.newestSec + 20)
  })

  it('reorders the watchlist and refuses unknown wallets', async () => {
    await reorderWatchlist(review.db, [small.address, big.address])
    expect((await listWatchedWallets(review.db)).map((w) => w.address)).toEqual([
      small.address,
      big.address,
    ])
    await expect(reorderWatchlist(review.db, [testAddress(77)])).rejects.toBeInstanceOf(
      NotFoundError,
    )
    await expect(walletIdOf(review.db, testAddress(77))).rejects.toBeInstanceOf(NotFoundError)
  })

  it('profiles a wallet: counts, first and last activity', async () => {
    const profile = await fetchWalletProfile(review.db, big.walletId)
    expect(profile).toEqual({
      address: big.address,
      transactionCount: 2_000,
      firstActivitySec: big.oldestSec,
      lastActivitySec: big.newestSec,
    })
  })
})
