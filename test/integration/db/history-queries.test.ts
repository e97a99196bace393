import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countHistory,
  fetchHistoryPage,
  listHistoryMints,
} from '../../../src-main/db/queries/history-queries'
import {
  HistoryFilters,
  type HistoryFiltersInput,
  type SortOrder,
} from '@shared/ipc/review-schemas'
import {
  generateHistoryMirror,
  type GeneratedMirror,
  type GeneratedTx,
} from '../../helpers/history-mirror'
import { fullScans, openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// Given a generated wallet of 3,000 transactions (ties on time and slot, 2% without a block
// time, 5% failed), when History is walked page by page with any filter and either order,
// then the rows equal a brute-force filter and sort of the same transactions.

function keyCompare(a: GeneratedTx, b: GeneratedTx): number {
  // NULL block times sort lowest, as in SQLite.
  const ta = a.blockTimeSec ?? -Infinity
  const tb = b.blockTimeSec ?? -Infinity
  if (ta !== tb) return ta < tb ? -1 : 1
  if (a.slot !== b.slot) return a.slot < b.slot ? -1 : 1
  return a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : 0
}

function bruteForce(
  mirror: GeneratedMirror,
  input: HistoryFiltersInput,
  order: SortOrder,
): string[] {
  const f = HistoryFilters.parse(input)
  const rows = mirror.transactions.filter((tx) => {
    if (f.fromSec !== null && (tx.blockTimeSec === null || tx.blockTimeSec < f.fromSec))
      return false
    if (f.toSec !== null && (tx.blockTimeSec === null || tx.blockTimeSec > f.toSec)) return false
    if (f.isFailedOnly && !tx.isFailed) return false
    if (f.signature !== '' && !tx.signature.startsWith(f.signature)) return false
    const relevant = f.mint === null ? tx.changes : tx.changes.filter((c) => c.mint === f.mint)
    if (f.mint !== null && relevant.length === 0) return false
    if (f.direction === 'in' && !relevant.some((c) => c.amount > 0)) return false
    if (f.direction === 'out' && !relevant.some((c) => c.amount < 0)) return false
    return true
  })
  rows.sort(keyCompare)
  if (order === 'newest') rows.reverse()
  return rows.map((r) => r.signature)
}

async function walkAll(
  review: ReviewDb,
  mirror: GeneratedMirror,
  filters: HistoryFiltersInput,
  order: SortOrder,
  limit = 97,
): Promise<string[]> {
  const seen: string[] = []
  let cursor = null
  for (let guard = 0; guard < 1_000; guard++) {
    const page = await fetchHistoryPage(review.db, mirror.walletId, {
      order,
      filters: HistoryFilters.parse(filters),
      cursor,
      limit,
    })
    seen.push(...page.rows.map((r) => r.signature))
    if (page.nextCursor === null) return seen
    expect(page.rows).toHaveLength(limit)
    cursor = page.nextCursor
  }
  throw new Error('History walk did not end')
}

describe('history queries: keyset pages over the mirror', () => {
  let review: ReviewDb
  let mirror: GeneratedMirror

  beforeAll(async () => {
    review = await openReviewDb()
    mirror = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(1),
      count: 3_000,
      seed: 11,
      undatedShare: 0.02,
      keepTruth: true,
      rowsPerCommit: 700,
    })
    // A second wallet whose rows must never leak into the first one's pages.
    generateHistoryMirror(review.database.sqlite, { address: testAddress(2), count: 500, seed: 12 })
  })
  afterAll(async () => review?.close())

  const mid = () => mirror.oldestSec + Math.floor((mirror.newestSec - mirror.oldestSec) / 2)
  const cases: [string, () => HistoryFiltersInput][] = [
    ['no filter', () => ({})],
    ['a date range', () => ({ fromSec: mid() - 20_000, toSec: mid() + 20_000 })],
    ['only a start date', () => ({ fromSec: mid() })],
    ['a common mint', () => ({ mint: mirror.mints[1] })],
    ['a rare mint', () => ({ mint: mirror.mints[8] })],
    ['a mint, incoming only', () => ({ mint: mirror.mints[2], direction: 'in' })],
    ['any mint, outgoing only', () => ({ direction: 'out' })],
    ['any mint, incoming only', () => ({ direction: 'in' })],
    ['failed only', () => ({ isFailedOnly: true })],
    ['failed only in a date range', () => ({ isFailedOnly: true, toSec: mid() })],
    [
      'SOL in a date range',
      () => ({ mint: mirror.mints[0], fromSec: mid() - 50_000, toSec: mid() }),
    ],
    ['a signature prefix', () => ({ signature: mirror.transactions[1234]!.signature.slice(0, 1) })],
    ['an exact signature', () => ({ signature: mirror.transactions[77]!.signature })],
    [
      'a prefix with a mint',
      () => ({ signature: mirror.transactions[9]!.signature.slice(0, 1), mint: mirror.mints[1] }),
    ],
    ['a mint that never occurs', () => ({ mint: testAddress(99) })],
  ]

  for (const order of ['newest', 'oldest'] as const) {
    for (const [name, filters] of cases) {
      it(`${order} first, ${name}: equals a brute-force filter`, async () => {
        const expected = bruteForce(mirror, filters(), order)
        const got = await walkAll(review, mirror, filters(), order)
        expect(got).toEqual(expected)
      })
    }
  }

  it('the filters actually narrow (the cases are not all the same rows)', () => {
    const sizes = cases.map(([, f]) => bruteForce(mirror, f(), 'newest').length)
    expect(sizes[0]).toBe(3_000)
    expect(new Set(sizes).size).toBeGreaterThan(8)
    expect(sizes[4]).toBeGreaterThan(0)
    expect(sizes.at(-1)).toBe(0)
  })

  it('rows carry fee, fee payer, failed flag and balance changes with mint symbols', async () => {
    const page = await fetchHistoryPage(review.db, mirror.walletId, {
      order: 'newest',
      filters: HistoryFilters.parse({ signature: mirror.transactions[5]!.signature }),
      cursor: null,
      limit: 10,
    })
    const truth = mirror.transactions[5]!
    expect(page.rows).toHaveLength(1)
    const row = page.rows[0]!
    expect(row).toMatchObject({
      signature: truth.signature,
      slot: truth.slot,
      blockTimeSec: truth.blockTimeSec,
      feeText: '0.000005',
      feePayer: mirror.address,
      isFailed: truth.isFailed,
    })
    expect(row.changes.map((c) => [c.mint, c.amount])).toEqual(
      truth.changes.map((c) => [c.mint, c.amount]),
    )
    expect(row.changes[0]!.symbol).toBe('SOL')
    expect(page.nextCursor).toBeNull()
  })

  it('counts matches, and stops counting at the cap', async () => {
    const all = await countHistory(review.db, mirror.walletId, HistoryFilters.parse({}))
    expect(all).toEqual({ count: 3_000, isCapped: false })
    const failed = await countHistory(
      review.db,
      mirror.walletId,
      HistoryFilters.parse({ isFailedOnly: true }),
    )
    expect(failed.count).toBe(bruteForce(mirror, { isFailedOnly: true }, 'newest').length)
    expect(await countHistory(review.db, mirror.walletId, HistoryFilters.parse({}), 1_000)).toEqual(
      {
        count: 1_000,
        isCapped: true,
      },
    )
    // Every filter's count is its rows', a mint's counted on its changes alone included.
    for (const [name, filters] of cases) {
      const want = bruteForce(mirror, filters(), 'newest').length
      const got = await countHistory(review.db, mirror.walletId, HistoryFilters.parse(filters()))
      expect(got, name).toEqual({ count: want, isCapped: false })
    }
  })

  it('lists the mints of the wallet by symbol for the mint filter', async () => {
    const mints = await listHistoryMints(review.db, mirror.walletId)
    expect(mints.map((m) => m.symbol)).toEqual([
      'GRID',
      'HELIO',
      'KELP',
      'LUMN',
      'ORBT',
      'PIX',
      'RARE',
      'SOL',
      'USDC',
    ])
  })

  describe('query plans: every History query walks an index, never the whole table', () => {
    const planCases: [string, HistoryFiltersInput][] = [
      ['open History', {}],
      ['date range', { fromSec: 1_793_000_000, toSec: 1_793_400_000 }],
      ['mint', { mint: testAddress(3) }],
      ['mint and direction', { mint: testAddress(3), direction: 'in' }],
      ['failed only', { isFailedOnly: true }],
      ['signature prefix', { signature: 'abc' }],
      ['signature prefix and mint', { signature: 'abc', mint: testAddress(3) }],
      ['direction only', { direction: 'out' }],
    ]
    for (const [name, filters] of planCases) {
      it(`${name}`, async () => {
        review.queries.length = 0
        await fetchHistoryPage(review.db, mirror.walletId, {
          order: 'newest',
          filters: HistoryFilters.parse(filters),
          cursor: { blockTimeSec: mirror.newestSec - 1000, slot: 380_000_000, signature: 'x' },
          limit: 100,
        })
        const main = review.queries[0]!
        const plan = review.planOf(main)
        expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/)
        expect(fullScans(plan), plan.join('\n')).toEqual([])
        if (filters.signature !== undefined)
          expect(plan.join('\n')).toContain('transactions_wallet_signature')
        // Sorting everything that matches would grow with the wallet: only the keyset
        // walk's tail (ties) or a narrow signature range may be sorted.
        if (filters.signature === undefined) {
          expect(
            plan.filter((l) => l === 'USE TEMP B-TREE FOR ORDER BY'),
            plan.join('\n'),
          ).toEqual([])
        }
      })
    }

    it('counts a direction, with or without a mint, from an index alone', async () => {
      for (const filters of [
        { direction: 'in' },
        { direction: 'out', isFailedOnly: true },
        { mint: mirror.mints[2], direction: 'out' },
      ] satisfies HistoryFiltersInput[]) {
        review.queries.length = 0
        await countHistory(review.db, mirror.walletId, HistoryFilters.parse(filters))
        for (const query of review.queries) {
          const plan = review.planOf(query).join('\n')
          expect(plan, JSON.stringify(filters)).toMatch(/USING COVERING INDEX/)
          expect(plan, JSON.stringify(filters)).not.toMatch(/PRIMARY KEY/)
        }
      }
    })

    it('a mint’s page deep in the list walks the mint’s own index', async () => {
      // Statistics as sampled on a 10,000,000-row desk (the app samples 1,000 entries per
      // index), which cannot tell the mint's index from the wallet's (time, slot) one.
      const sqlite = review.database.sqlite
      sqlite.exec('analyze')
      const setStat = sqlite.prepare('update sqlite_stat1 set stat = ? where idx = ?')
      setStat.run('10046520 1001 1001 1 1 1', 'balance_changes_wallet_mint_time')
      setStat.run('8307390 1001 9 3', 'balance_changes_wallet_time')
      sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema')
      review.queries.length = 0
      await fetchHistoryPage(review.db, mirror.walletId, {
        order: 'newest',
        filters: HistoryFilters.parse({ mint: mirror.mints[1] }),
        cursor: { blockTimeSec: mid(), slot: 380_000_000, signature: 'x' },
        limit: 100,
      })
      expect(review.planOf(review.queries[0]!).join('\n')).toContain(
        'INDEX balance_changes_wallet_mint_time (wallet_id=? AND mint=? AND',
      )
    })

    it('failed only uses the partial index of failed transactions', async () => {
      review.queries.length = 0
      await fetchHistoryPage(review.db, mirror.walletId, {
        order: 'oldest',
        filters: HistoryFilters.parse({ isFailedOnly: true }),
        cursor: null,
        limit: 100,
      })
      expect(review.planOf(review.queries[0]!).join('\n')).toContain(
        'transactions_wallet_failed_time',
      )
    })
  })
})
