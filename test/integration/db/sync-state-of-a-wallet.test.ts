import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSyncStatus } from '../../../src-main/db/queries/sync-status'
import { openReviewDb, type ReviewDb } from '../../helpers/review-db'
import { testAddress } from '../../helpers/wallets'

// A wallet's overall state comes from its streams: "Up to date" only once a stream has
// finished a sync, so a first sync cancelled before any page still reads "Not synced yet".
describe('the overall sync state of a wallet', () => {
  let review: ReviewDb
  const [never, cancelledFirst, synced] = [testAddress(1), testAddress(2), testAddress(3)]

  beforeAll(async () => {
    review = await openReviewDb()
    const { db } = review
    const ids: number[] = []
    for (const [i, address] of [never, cancelledFirst, synced].entries()) {
      const row = await db
        .insertInto('wallets')
        .values({ address, label: `w${i}`, position: i, added_at_sec: 1_700_000_000 })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.push(row.id)
    }
    const [, cancelledId, syncedId] = ids as [number, number, number]
    await db
      .insertInto('sync_streams')
      .values([
        { wallet_id: cancelledId, stream: 'history', state: 'cancelled' },
        { wallet_id: cancelledId, stream: 'transfers', state: 'idle' },
        { wallet_id: syncedId, stream: 'history', state: 'ok', last_success_sec: 1_700_000_100 },
        { wallet_id: syncedId, stream: 'transfers', state: 'idle' },
      ])
      .execute()
  })
  afterAll(() => review.close())

  it('is "never" without streams, "never" while no stream has finished, and up to date after one has', async () => {
    const states = Object.fromEntries(
      (await readSyncStatus(review.db, new Set())).map((s) => [s.address, s.state]),
    )
    expect(states).toEqual({ [never]: 'never', [cancelledFirst]: 'never', [synced]: 'up-to-date' })
  })

  it('says "syncing" while a first sync runs', async () => {
    const [status] = await readSyncStatus(review.db, new Set([cancelledFirst]), cancelledFirst)
    expect(status?.state).toBe('syncing')
  })
})
