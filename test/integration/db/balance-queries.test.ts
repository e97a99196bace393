import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchCurrentBalances, listCurrentNfts } from '../../../src-main/db/queries/balance-queries'
import {
  fetchWalletValueSeries,
  listWalletValuePoints,
} from '../../../src-main/db/queries/value-series-queries'
import {
  addBalanceSnapshots,
  generateHistoryMirror,
  type GeneratedMirror,
} from '../../helpers/history-mirror'
import { openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

describe('balance queries: latest snapshot, NFTs and the value series', () => {
  let review: ReviewDb
  let mirror: GeneratedMirror
  let empty: GeneratedMirror

  beforeAll(async () => {
    review = await openReviewDb()
    mirror = generateHistoryMirror(review.database.sqlite, { address: testAddress(1), count: 10 })
    empty = generateHistoryMirror(review.database.sqlite, { address: testAddress(2), count: 0 })
    addBalanceSnapshots(review.database.sqlite, mirror, [
      { atSec: 1_000, tokens: [{ mintIndex: 0, balance: 1, priceUsd: 100 }], nfts: 1 },
      {
        atSec: 2_000,
        tokens: [
          { mintIndex: 1, balance: 50, priceUsd: 1 },
          { mintIndex: 0, balance: 1.5, priceUsd: 100 },
        ],
        nfts: 3,
      },
    ])
  })
  afterAll(async () => review?.close())

  it('answers the latest snapshot, largest value first, with metadata and shares', async () => {
    const balances = await fetchCurrentBalances(review.db, mirror.walletId)
    expect(balances.takenAtSec).toBe(2_000)
    expect(balances.totalUsd).toBe(200)
    expect(balances.nftCount).toBe(3)
    expect(balances.rows.map((r) => [r.symbol, r.amountText, r.usdValue, r.share])).toEqual([
      ['SOL', '1.5', 150, 0.75],
      ['USDC', '50', 50, 0.25],
    ])
    expect(balances.rows[0]).toMatchObject({
      name: 'SOL token',
      priceUsd: 100,
      mint: mirror.mints[0],
    })
  })

  it('answers an empty state before the first snapshot', async () => {
    expect(await fetchCurrentBalances(review.db, empty.walletId)).toEqual({
      takenAtSec: null,
      totalUsd: 0,
      unpricedCount: 0,
      rows: [],
      nftCount: 0,
    })
    expect(await listCurrentNfts(review.db, empty.walletId)).toEqual([])
    expect(await fetchWalletValueSeries(review.db, empty.walletId)).toMatchObject({
      snapshotCount: 0,
      firstSnapshotSec: null,
      isDrawn: false,
      points: [],
    })
  })

  it('lists the latest NFTs by collection with the compressed flag', async () => {
    const nfts = await listCurrentNfts(review.db, mirror.walletId)
    expect(nfts.map((n) => [n.collectionName, n.name, n.isCompressed])).toEqual([
      ['Moon Gates', 'Piece #0', true],
      ['Moon Gates', 'Piece #2', false],
      ['Sun Dials', 'Piece #1', false],
    ])
  })

  it('sorts NFT names by their numbers, not as text (#698 before #6672)', async () => {
    const numbered = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(3),
      count: 0,
    })
    addBalanceSnapshots(review.database.sqlite, numbered, [
      {
        atSec: 1_000,
        tokens: [],
        nftNames: ['Gate #6672', 'Gate #698', 'Gate #70', 'gate #9', 'Gate #1204', 'Gate #70b'],
      },
    ])
    const nfts = await listCurrentNfts(review.db, numbered.walletId)
    // By collection first (even names in Moon Gates, odd ones in Sun Dials), then by name.
    expect(nfts.map((n) => n.name)).toEqual([
      'Gate #70',
      'Gate #1204',
      'Gate #6672',
      'gate #9',
      'Gate #70b',
      'Gate #698',
    ])
  })

  it('gives the value at each snapshot, oldest first, drawn only once they span a day', async () => {
    expect(await listWalletValuePoints(review.db, mirror.walletId)).toEqual([
      { atSec: 1_000, valueUsd: 100 },
      { atSec: 2_000, valueUsd: 200 },
    ])
    expect(await fetchWalletValueSeries(review.db, mirror.walletId)).toEqual({
      source: 'snapshots',
      snapshotCount: 2,
      firstSnapshotSec: 1_000,
      lastSnapshotSec: 2_000,
      isDrawn: false,
      points: [],
    })
  })
})
