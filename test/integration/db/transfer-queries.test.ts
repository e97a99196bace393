import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchTransferPage } from '../../../src-main/db/queries/transfer-queries'
import {
  TransferFilters,
  type SortOrder,
  type TransferFiltersInput,
} from '@shared/ipc/review-schemas'
import { generateHistoryMirror, type GeneratedMirror } from '../../helpers/history-mirror'
import { fullScans, openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// Given a generated wallet with ~1,500 transfers, when the Transfers view is walked page by
// page with each filter, then it equals a brute-force filter sorted by (time, signature, id).

function bruteForce(
  mirror: GeneratedMirror,
  input: TransferFiltersInput,
  order: SortOrder,
): number[] {
  const f = TransferFilters.parse(input)
  const rows = mirror.transfers.filter(
    (t) =>
      (f.fromSec === null || t.blockTimeSec >= f.fromSec) &&
      (f.toSec === null || t.blockTimeSec <= f.toSec) &&
      (f.mint === null || t.mint === f.mint) &&
      (f.direction === 'any' || t.direction === f.direction) &&
      (f.counterparty === '' || t.counterparty === f.counterparty) &&
      t.signature.startsWith(f.signature),
  )
  rows.sort((a, b) =>
    a.blockTimeSec !== b.blockTimeSec
      ? a.blockTimeSec - b.blockTimeSec
      : a.signature !== b.signature
        ? a.signature < b.signature
          ? -1
          : 1
        : a.id - b.id,
  )
  if (order === 'newest') rows.reverse()
  return rows.map((r) => r.id)
}

describe('transfer queries', () => {
  let review: ReviewDb
  let mirror: GeneratedMirror

  beforeAll(async () => {
    review = await openReviewDb()
    mirror = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(1),
      count: 3_000,
      seed: 5,
      keepTruth: true,
    })
    // A watched counterparty shows with its label.
    review.database.sqlite
      .prepare('insert into wallets (address, label, position, added_at_sec) values (?, ?, 9, 0)')
      .run(mirror.counterparties[3], 'Exchange deposit')
  })
  afterAll(async () => review?.close())

  const cases: [string, () => TransferFiltersInput][] = [
    ['no filter', () => ({})],
    ['a mint', () => ({ mint: mirror.mints[1] })],
    ['incoming', () => ({ direction: 'in' })],
    ['outgoing SOL', () => ({ direction: 'out', mint: mirror.mints[0] })],
    ['a counterparty', () => ({ counterparty: mirror.counterparties[3] })],
    [
      'a date range',
      () => ({ fromSec: mirror.newestSec - 20_000, toSec: mirror.newestSec - 5_000 }),
    ],
    ['a signature prefix', () => ({ signature: mirror.transfers[10]!.signature.slice(0, 2) })],
  ]
  for (const order of ['newest', 'oldest'] as const) {
    for (const [name, filters] of cases) {
      it(`${order} first, ${name}: equals a brute-force filter`, async () => {
        const expected = bruteForce(mirror, filters(), order)
        expect(expected.length).toBeGreaterThan(0)
        const got: number[] = []
        let cursor = null
        do {
          const page = await fetchTransferPage(review.db, mirror.walletId, {
            order,
            filters: TransferFilters.parse(filters()),
            cursor,
            limit: 61,
          })
          got.push(...page.rows.map((r) => r.id))
          cursor = page.nextCursor
        } while (cursor !== null)
        expect(got).toEqual(expected)
      })
    }
  }

  it('rows carry direction, counterparty (with its label when watched), symbol and exact amount', async () => {
    const page = await fetchTransferPage(review.db, mirror.walletId, {
      order: 'newest',
      filters: TransferFilters.parse({ counterparty: mirror.counterparties[3] }),
      cursor: null,
      limit: 5,
    })
    const row = page.rows[0]!
    expect(row.counterpartyName).toBe('Exchange deposit')
    expect(['in', 'out']).toContain(row.direction)
    expect(row.symbol).not.toBeNull()
    expect(row.amountText).toBe(String(row.amount))
  })

  it('walks an index for each filter', async () => {
    for (const [, filters] of cases) {
      review.queries.length = 0
      await fetchTransferPage(review.db, mirror.walletId, {
        order: 'newest',
        filters: TransferFilters.parse(filters()),
        cursor: { blockTimeSec: mirror.newestSec, signature: 'x', id: 1 },
        limit: 100,
      })
      const plan = review.planOf(review.queries[0]!)
      expect(fullScans(plan), plan.join('\n')).toEqual([])
      expect(plan.join('\n')).toMatch(/SEARCH t USING (COVERING )?INDEX/)
    }
  })
})
