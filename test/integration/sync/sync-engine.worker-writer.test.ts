import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { StorageError } from '@shared/ipc/ipc-errors'
import { NO_HISTORY_FILTERS } from '@shared/ipc/review-schemas'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { WorkerMirrorWriter } from '../../../src-main/db/sqlite/worker-mirror-writer'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { expectMirrorEqualsTruth } from './mirror-truth-assertions'

// The mirror writer on its worker thread, as the app runs it: what it writes equals the
// simulator's truth, a storage failure reaches the caller as a clear StorageError, and the
// main thread answers the views while a page waits to be written.

const HISTORY_FIRST_PAGE = {
  order: 'newest',
  filters: NO_HISTORY_FILTERS,
  cursor: null,
  limit: 50,
} as const

/** Another process holding the mirror's write lock, until released. */
function holdWriteLock(path: string): { release(): void } {
  const other = new BetterSqlite3(path, { timeout: 0 })
  other.exec('begin immediate')
  return {
    release() {
      if (other.inTransaction) other.exec('rollback')
      other.close()
    },
  }
}

describe('mirror writer on a worker thread', () => {
  let fx: SyncFixture | null = null
  afterEach(async () => {
    await fx?.stop()
    fx = null
  })

  it.each(['active-trader', 'compressed-holder', 'nft-collector', 'failed-transactions'])(
    'a full sync of %s makes the mirror equal the truth, every credit in the ledger',
    async (profile) => {
      fx = await startSyncFixture({ writeIn: 'worker' })
      const address = await fx.watch(profile)
      const outcome = await fx.runtime.engine.syncWallet(address)
      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
      // Read on the main thread's own connection: the worker's commits are there.
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    },
  )

  it('after the first pages it writes, the planner has statistics for every history index', async () => {
    fx = await startSyncFixture({ writeIn: 'worker' })
    const address = await fx.watch('active-trader')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    const sqlite = new BetterSqlite3(fx.database.path, { readonly: true })
    try {
      const analyzed = (table: string) =>
        sqlite
          .prepare('select idx from sqlite_stat1 where tbl = ? order by idx')
          .all(table)
          .map((r) => (r as { idx: string }).idx)
      const indexes = (table: string) =>
        sqlite
          .prepare(
            "select name from sqlite_master where type = 'index' and tbl_name = ? order by name",
          )
          .all(table)
          .map((r) => (r as { name: string }).name)
      for (const table of ['transactions', 'balance_changes'])
        expect(analyzed(table), table).toEqual(indexes(table))
    } finally {
      sqlite.close()
    }
  })

  it('the main thread answers a History query while a page waits to be written, then shows it', async () => {
    fx = await startSyncFixture({ writeIn: 'worker' })
    const address = await fx.watch('casual')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    const { writer, review } = fx.mirror
    const walletId = (await writer.walletId(address)) as number
    const before = await review.historyPage(address, HISTORY_FIRST_PAGE)
    const newest = before.rows[0]
    if (newest === undefined) throw new Error('the casual wallet has no history')
    const entry: HistoryEntry = {
      signature: `${newest.signature.slice(0, -4)}Zzzz`,
      slot: newest.slot + 1,
      fee: 0.000005,
      feePayer: address,
      balanceChanges: [
        { mint: 'So11111111111111111111111111111111111111112', amount: -1.5, decimals: 9 },
      ],
      timestamp: (newest.blockTimeSec ?? 0) + 1,
      error: null,
    }

    // The page's transaction waits for the lock on the writer's thread, not on this one.
    const lock = holdWriteLock(fx.database.path)
    let isWritten = false
    const write = writer
      .applyHistoryPage(walletId, [entry], { newestKey: entry.signature, addPages: 1 })
      .then((n) => {
        isWritten = true
        return n
      })
    try {
      const during = await review.historyPage(address, HISTORY_FIRST_PAGE)
      expect(isWritten).toBe(false)
      expect(during.rows.map((r) => r.signature)).toEqual(before.rows.map((r) => r.signature))
    } finally {
      lock.release()
    }
    expect(await write).toBe(1)
    const after = await review.historyPage(address, HISTORY_FIRST_PAGE)
    expect(after.rows[0]?.signature).toBe(entry.signature)
    expect(after.rows[0]?.changes).toEqual([
      expect.objectContaining({ amountText: '-1.5', amountRaw: '-1500000000', decimals: 9 }),
    ])
  })

  it('a database locked by another process: the sync fails with a StorageError saying so, and resumes once released', async () => {
    fx = await startSyncFixture({ writeIn: 'worker' })
    const address = await fx.watch('casual')
    const lock = holdWriteLock(fx.database.path)
    let failure: unknown
    try {
      await fx.runtime.engine.syncWallet(address, { streams: ['history'] }).catch((e) => {
        failure = e
      })
    } finally {
      lock.release()
    }
    expect(failure).toBeInstanceOf(StorageError)
    expect((failure as Error).message).toMatch(
      /^Could not .+: the database is locked by another process; close other Heliograph windows/,
    )
    expect((failure as StorageError).details).toMatchObject({ code: 'SQLITE_BUSY' })

    const outcome = await fx.runtime.engine.syncWallet(address)
    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it('requests queued together are written in one transaction, each standing or failing alone', async () => {
    fx = await startSyncFixture({ writeIn: 'worker' })
    const address = await fx.watch('casual')
    const { writer } = fx.mirror
    const walletId = (await writer.walletId(address)) as number
    const entry = (n: number): HistoryEntry => ({
      signature: `Group${n}Signature1111111111111111111111111111111111111111111111111111`,
      slot: 500_000_000 + n,
      fee: 0.000005,
      feePayer: address,
      balanceChanges: [
        { mint: 'So11111111111111111111111111111111111111112', amount: -n, decimals: 9 },
      ],
      timestamp: 1_790_000_000 + n,
      error: null,
    })
    const entryOf = (n: number) => ({
      atMs: 1_790_000_000_000 + n,
      operation: 'wallet.history',
      endpointClass: 'das-enhanced',
      walletAddress: address,
      stream: 'history',
      credits: 100,
      status: 'ok' as const,
      errorName: null,
      durationMs: 1,
      httpStatus: 200,
    })
    const commits = () =>
      (
        fx!.database.sqlite.prepare('select count(*) as n from credit_ledger').get() as {
          n: number
        }
      ).n
    const ledgerBefore = commits()
    // Sent in one go, so they queue up behind the lock and reach the thread together.
    const lock = holdWriteLock(fx.database.path)
    const sent = [
      fx.mirror.ledger.record(entryOf(1)),
      writer.applyHistoryPage(walletId, [entry(1)], { addPages: 1 }),
      // No such wallet: its rows break a foreign key, and only this request fails.
      writer.applyHistoryPage(walletId + 1_000, [entry(2)], { addPages: 1 }),
      fx.mirror.ledger.record(entryOf(2)),
      writer.applyHistoryPage(walletId, [entry(3)], { addPages: 1 }),
    ]
    const settled = Promise.allSettled(sent)
    await new Promise((done) => setTimeout(done, 200))
    lock.release()
    const outcomes = await settled
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ])
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(StorageError)
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: 1 })
    expect(outcomes[4]).toEqual({ status: 'fulfilled', value: 1 })
    const stored = fx.database.sqlite
      .prepare(`select signature from transactions where signature like 'Group%' order by slot`)
      .all() as { signature: string }[]
    expect(stored.map((r) => r.signature)).toEqual([entry(1).signature, entry(3).signature])
    expect(commits()).toBe(ledgerBefore + 2)
  })

  it.each([
    { stream: 'history', table: 'transactions', operation: 'wallet.history' },
    { stream: 'transfers', table: 'transfers', operation: 'wallet.transfers' },
  ] as const)(
    '$stream: pages sent ahead of a page that fails are not stored; the cursor stays on the last stored page, and the next sync completes',
    async ({ stream, table, operation }) => {
      fx = await startSyncFixture({ writeIn: 'worker' })
      const address = await fx.watch('active-trader')
      // The truth's first three pages, newest first, and the cursor after each.
      const signatures: string[][] = []
      const cursors: (string | null)[] = []
      for (let cursor: string | undefined; signatures.length < 3;) {
        const page =
          stream === 'history'
            ? await fx.runtime.client.call('wallet.history', {
                wallet: address,
                limit: 100,
                ...(cursor === undefined ? {} : { before: cursor }),
              })
            : await fx.runtime.client.call('wallet.transfers', {
                wallet: address,
                limit: 100,
                ...(cursor === undefined ? {} : { cursor }),
              })
        signatures.push(page.data.map((item) => item.signature))
        cursor =
          stream === 'history'
            ? page.data.at(-1)?.signature
            : (page.pagination.nextCursor ?? undefined)
        cursors.push(cursor ?? null)
        if (!page.pagination.hasMore || cursor === undefined) break
      }
      const [first = [], second = [], third = []] = signatures
      const storedFirst = new Set([...first, ...second])
      // On the third page, and in no transaction the first two pages hold.
      const failing = third.slice(50).find((signature) => !storedFirst.has(signature))
      if (failing === undefined) throw new Error('active-trader has too few items')
      // A real failure of SQLite's, on that one item.
      fx.database.sqlite.exec(`
        create trigger store_fails before insert on ${table}
        when new.signature = '${failing}'
        begin select raise(abort, 'the disk could not take it'); end`)
      const calls = () =>
        (
          fx!.database.sqlite
            .prepare(`select count(*) as n from credit_ledger where operation = ?`)
            .get(operation) as { n: number }
        ).n
      const callsBefore = calls()

      // Held while the sync starts: the pages fetched meanwhile are all sent ahead to the
      // writer, and reach its thread together with the one that fails.
      const lock = holdWriteLock(fx.database.path)
      const sync = fx.runtime.engine.syncWallet(address, { streams: [stream] })
      await new Promise((done) => setTimeout(done, 500))
      lock.release()
      const failed = await sync
      expect(failed.state).toBe('error')
      // The failing page's own error, not that of a page sent behind it.
      expect(failed.streams.map((s) => [s.stream, s.error])).toEqual([
        [stream, `Could not store a page of ${stream}: the disk could not take it.`],
      ])
      // Pages beyond the failing one were asked for, and none of them was stored.
      expect(calls() - callsBefore).toBeGreaterThan(3)
      const stored = fx.database.sqlite
        .prepare(`select count(*) as n, count(distinct signature) as signatures from ${table}`)
        .get() as { n: number; signatures: number }
      const storedSignatures = fx.database.sqlite
        .prepare(`select distinct signature from ${table}`)
        .pluck()
        .all() as string[]
      expect(new Set(storedSignatures)).toEqual(storedFirst)
      expect(stored.n).toBe(first.length + second.length)
      const row = await fx.mirror.writer.stream(
        (await fx.mirror.writer.walletId(address)) as number,
        stream,
      )
      expect(row.backfillCursor).toBe(cursors[1])
      expect(row.itemsStored).toBe(stored.n)

      fx.database.sqlite.exec('drop trigger store_fails')
      const outcome = await fx.runtime.engine.syncWallet(address)
      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    },
  )

  it('a database the worker cannot open is a StorageError naming the path', async () => {
    const temp = makeTempDir()
    const path = join(temp.dir, 'missing', 'heliograph.sqlite')
    const writer = new WorkerMirrorWriter(path)
    try {
      const read = writer.walletId('So11111111111111111111111111111111111111112')
      await expect(read).rejects.toBeInstanceOf(StorageError)
      await expect(read).rejects.toThrow(`Could not open the database at ${path}`)
    } finally {
      await writer.close()
      temp.remove()
    }
  })
})
