import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteMirror, type SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { openReaderPool } from '../../../src-main/db/sqlite/reader-pool'
import type { Kysely } from 'kysely'
import type { Database } from '../../../src-main/db/schema'
import { FeedFilters } from '@shared/ipc/feed-schemas'
import { NO_HISTORY_FILTERS } from '@shared/ipc/review-schemas'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Issue 50, item 6: reads that cannot block each other or the writer. On the main thread a
// better-sqlite3 statement runs to its end before anything else: one slow page held up
// every other person's page and every socket. The app's views read on reader threads, each
// with a read-only connection of its own: a long read leaves the others and the main
// thread free, and a write transaction held open leaves every read free (WAL).

/** A read that takes a while: counting up to n in SQL. */
const slowCount = (db: Kysely<Database>, n: number) =>
  sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n})
    select count(*) as n from c`.execute(db)

describe('the mirror’s reader threads', () => {
  const temp = makeTempDir()
  let mirror: SqliteMirror
  let reads: Kysely<Database>

  beforeAll(async () => {
    mirror = await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
    await mirror.watchlist.add({ address: testAddress(1), label: 'One' }, 1_700_000_000)
    reads = openReaderPool(mirror.database.path, 2)
    // Both threads started (each starts with its first statement).
    await Promise.all([sql`select 1`.execute(reads), sql`select 2`.execute(reads)])
  })
  afterAll(async () => {
    await reads.destroy()
    await mirror.close()
    temp.remove()
  })

  it('a long read holds up neither another read nor the main thread', async () => {
    const order: string[] = []
    let ticks = 0
    const ticking = setInterval(() => ticks++, 5)
    const long = slowCount(reads, 3_000_000).then((r) => {
      order.push('long')
      return r
    })
    // Let the long read reach its thread, then ask a short one.
    await new Promise((resolve) => setTimeout(resolve, 20))
    const ticksBefore = ticks
    const short = await reads.selectFrom('wallets').select('address').execute()
    order.push('short')
    expect(short).toEqual([{ address: testAddress(1) }])
    expect((await long).rows[0]?.n).toBe(3_000_000)
    clearInterval(ticking)
    expect(order).toEqual(['short', 'long'])
    // The main thread's timers kept firing while the long read ran.
    expect(ticks).toBeGreaterThan(ticksBefore)
  })

  it('reads go on while the writer holds a transaction open, and see it once committed', async () => {
    const { sqlite } = mirror.database
    sqlite.exec('begin immediate')
    sqlite.prepare('update wallets set label = ? where address = ?').run('Renamed', testAddress(1))
    const during = await reads.selectFrom('wallets').select('label').execute()
    expect(during).toEqual([{ label: 'One' }])
    sqlite.exec('commit')
    const after = await reads.selectFrom('wallets').select('label').execute()
    expect(after).toEqual([{ label: 'Renamed' }])
  })

  it('a failed read answers with the database’s error; a write is refused', async () => {
    await expect(sql`select * from no_such_table`.execute(reads)).rejects.toThrow(
      /no such table: no_such_table/,
    )
    await expect(reads.updateTable('wallets').set({ label: 'x' }).execute()).rejects.toMatchObject({
      code: 'SQLITE_READONLY',
    })
    // The thread that failed still answers.
    expect(await reads.selectFrom('wallets').select('address').execute()).toHaveLength(1)
  })

  it('the app’s mirror reads History, the feed and the search on its reader threads', async () => {
    const app = await openSqliteMirror(mirror.database.path, {
      writeIn: 'worker',
      readIn: 'workers',
    })
    try {
      const page = await app.review.historyPage(testAddress(1), {
        order: 'newest',
        filters: NO_HISTORY_FILTERS,
        cursor: null,
        limit: 10,
      })
      expect(page).toEqual({ rows: [], nextCursor: null })
      expect(await app.search.find('Renamed')).toEqual([
        expect.objectContaining({ id: testAddress(1), matched: 'Renamed' }),
      ])
      const feed = await app.feed.page({
        filters: FeedFilters.parse({}),
        cursor: null,
        newerThan: null,
        limit: 5,
        unreadCap: 999,
      })
      expect(feed.rows).toEqual([])
    } finally {
      await app.close()
    }
  })
})
