import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FeedFilters } from '@shared/ipc/feed-schemas'
import { NO_HISTORY_FILTERS } from '@shared/ipc/review-schemas'
import { openSqliteMirror, type SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { generateHistoryMirror } from '../../helpers/history-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Issue 50, item 6: reads that cannot block each other or the writer. On the main thread a
// better-sqlite3 statement runs to its end before anything else: one slow page held up
// every other person's page and every socket. The app's mirror reads the views (History,
// transfers, balances, the feed, the search) on reader threads, each with a read-only
// connection of its own: a long read leaves the other reads and the main thread free, and
// a write transaction held open leaves every read free (WAL).

const WHALE = testAddress(1)
const SMALL = testAddress(2)
const WHALE_ROWS = 150_000

describe('the mirror’s reader threads', () => {
  const temp = makeTempDir()
  const path = join(temp.dir, 'heliograph.sqlite')
  let mirror: SqliteMirror

  beforeAll(async () => {
    const setup = await openSqliteMirror(path)
    generateHistoryMirror(setup.database.sqlite, {
      address: WHALE,
      label: 'Whale',
      count: WHALE_ROWS,
    })
    await setup.watchlist.add({ address: SMALL, label: 'Small' }, 1_700_000_000)
    await setup.close()
    mirror = await openSqliteMirror(path, { writeIn: 'worker', readIn: 'workers' })
    // Both threads started (each starts with its first read).
    await Promise.all([mirror.review.walletProfile(SMALL), mirror.review.walletProfile(SMALL)])
  }, 120_000)
  afterAll(async () => {
    await mirror?.close()
    temp.remove()
  })

  it('a long read holds up neither another read nor the main thread', async () => {
    const order: string[] = []
    let ticks = 0
    const ticking = setInterval(() => ticks++, 2)
    // The whale's balances rebuilt from all its changes: a read that takes a while.
    const long = mirror.review.balancesAt(WHALE, 1_793_491_200).then((r) => {
      order.push('long')
      return r
    })
    const ticksBefore = ticks
    const short = await mirror.review.historyPage(SMALL, {
      order: 'newest',
      filters: NO_HISTORY_FILTERS,
      cursor: null,
      limit: 100,
    })
    order.push('short')
    expect(short).toEqual({ rows: [], nextCursor: null })
    expect((await long).balances.length).toBeGreaterThan(0)
    clearInterval(ticking)
    expect(order).toEqual(['short', 'long'])
    // The main thread's timers kept firing while the long read ran.
    expect(ticks).toBeGreaterThan(ticksBefore)
  })

  it('reads go on while a write transaction is held open, and see it once committed', async () => {
    const { sqlite } = mirror.database
    sqlite.exec('begin immediate')
    sqlite.prepare('update wallets set label = ? where address = ?').run('Renamed', SMALL)
    expect((await mirror.search.find('Renamed')).length).toBe(0)
    sqlite.exec('commit')
    expect(await mirror.search.find('Renamed')).toEqual([
      expect.objectContaining({ id: SMALL, matched: 'Renamed' }),
    ])
  })

  it('the feed and History read there; a read’s error comes back as it was thrown', async () => {
    const feed = await mirror.feed.page({
      filters: FeedFilters.parse({}),
      cursor: null,
      newerThan: null,
      limit: 5,
      unreadCap: 999,
    })
    expect(feed.rows).toHaveLength(5)
    const page = await mirror.review.historyPage(WHALE, {
      order: 'newest',
      filters: NO_HISTORY_FILTERS,
      cursor: null,
      limit: 100,
    })
    expect(page.rows).toHaveLength(100)
    expect(page.nextCursor).not.toBeNull()
    await expect(mirror.review.walletProfile(testAddress(3))).rejects.toMatchObject({
      name: 'NotFoundError',
    })
  })

  it('marking a wallet viewed writes on the mirror’s own connection, and the threads read it', async () => {
    const before = await mirror.review.walletSummaries()
    await mirror.review.markViewed(WHALE, 1_800_000_000)
    const after = await mirror.review.walletSummaries()
    const whale = (list: typeof before) => list.find((w) => w.address === WHALE)
    expect(whale(before)?.newActivityCount).toBeGreaterThan(0)
    expect(whale(after)?.newActivityCount).toBe(0)
  })
})
