import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchCompressedPage } from '../../../src-main/db/queries/compressed-queries'
import type { CompressedKind } from '@shared/ipc/review-schemas'
import { generateHistoryMirror, type GeneratedMirror } from '../../helpers/history-mirror'
import { fullScans, openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

describe('compressed signature pages', () => {
  let review: ReviewDb
  let mirror: GeneratedMirror
  let truth: { kind: string; signature: string; slot: number }[]

  beforeAll(async () => {
    review = await openReviewDb()
    mirror = generateHistoryMirror(review.database.sqlite, {
      address: testAddress(1),
      count: 4_000,
      seed: 3,
    })
    truth = review.database.sqlite
      .prepare('select kind, signature, slot from compressed_signatures where wallet_id = ?')
      .all(mirror.walletId) as typeof truth
    truth.sort(
      (a, b) =>
        b.slot - a.slot ||
        (a.signature < b.signature ? 1 : a.signature > b.signature ? -1 : a.kind < b.kind ? 1 : -1),
    )
  })
  afterAll(async () => review?.close())

  for (const kind of ['all', 'owner', 'token-owner'] as CompressedKind[]) {
    it(`${kind}: pages newest slot first and end exactly`, async () => {
      const expected = truth
        .filter((t) => kind === 'all' || t.kind === kind)
        .map((t) => `${t.kind}:${t.signature}`)
      expect(expected.length).toBeGreaterThan(50)
      const got: string[] = []
      let cursor = null
      do {
        const page = await fetchCompressedPage(review.db, mirror.walletId, {
          kind,
          cursor,
          limit: 33,
        })
        got.push(...page.rows.map((r) => `${r.kind}:${r.signature}`))
        cursor = page.nextCursor
      } while (cursor !== null)
      expect(got).toEqual(expected)
    })
  }

  it('walks the (wallet, slot) index', async () => {
    review.queries.length = 0
    await fetchCompressedPage(review.db, mirror.walletId, {
      kind: 'all',
      cursor: { slot: 380_000_000, signature: 'x', kind: 'owner' },
      limit: 100,
    })
    const plan = review.planOf(review.queries[0]!)
    expect(fullScans(plan)).toEqual([])
    expect(plan.join('\n')).toContain('compressed_signatures_wallet_slot_all')
  })
})
