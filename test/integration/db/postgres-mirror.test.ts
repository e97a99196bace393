import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StorageError } from '@shared/ipc/ipc-errors'
import { migrations } from '../../../src-main/db/migrations'
import { openPostgresMirror, type PostgresMirror } from '../../../src-main/db/postgres/mirror'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { connectPostgresClient } from '../../../src-main/db/postgres/client'
import { createTestDatabase } from '../../helpers/postgres'
import { testAddress } from '../../helpers/wallets'

describe('the mirror on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let mirror: PostgresMirror

  beforeAll(async () => {
    database = await createTestDatabase()
    // Two processes starting at once: the migrations run once, under the migrator's lock.
    const [first, second] = await Promise.all([
      openPostgresMirror(database.url),
      openPostgresMirror(database.url),
    ])
    await second.close()
    mirror = first
  })
  afterAll(async () => {
    await mirror.close()
    await database.drop()
  })

  it('applies every migration once, in order', async () => {
    const applied = await sql<{
      name: string
    }>`select name from kysely_migration order by name`.execute(mirror.database.db)
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations))
  })

  it("gives SQLite's columns PostgreSQL's equivalents: 64-bit integers, double precision, byte-order text", async () => {
    const columns = await sql<{
      table_name: string
      column_name: string
      data_type: string
      collation_name: string | null
    }>`
      select table_name, column_name, data_type, collation_name from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(
      mirror.database.db,
    )
    const types = new Set(columns.rows.map((c) => c.data_type))
    expect([...types].sort()).toEqual(['bigint', 'double precision', 'text'])
    const text = columns.rows.filter((c) => c.data_type === 'text')
    expect(
      text.filter((c) => c.collation_name !== 'C').map((c) => `${c.table_name}.${c.column_name}`),
    ).toEqual([])
    const at = columns.rows.find(
      (c) => c.table_name === 'credit_ledger' && c.column_name === 'at_ms',
    )
    expect(at?.data_type).toBe('bigint')
  })

  it('plans for solid-state storage on every connection, the pool’s and a thread’s own', async () => {
    const pooled = await sql<{
      random_page_cost: string
    }>`show random_page_cost`.execute(mirror.database.db)
    expect(pooled.rows[0]!.random_page_cost).toBe('1.1')
    const own = await connectPostgresClient(database.url)
    try {
      const { rows } = await own.query<{ random_page_cost: string }>('show random_page_cost')
      expect(rows[0]!.random_page_cost).toBe('1.1')
    } finally {
      await own.end()
    }
  })

  it('reads 64-bit counts and sums back as numbers, as SQLite does', async () => {
    await mirror.ledger.record({
      atMs: 1_790_000_000_000,
      operation: 'wallet.history',
      endpointClass: 'das-enhanced',
      walletAddress: null,
      stream: null,
      credits: 100,
      status: 'ok',
      errorName: null,
      durationMs: 12,
      httpStatus: 200,
    })
    const summary = await mirror.ledger.summarize(1_790_000_000_000, 1)
    expect(summary.totalCredits).toBe(100)
    expect(summary.totalCalls).toBe(1)
    expect(await mirror.ledger.spentSince(0)).toBe(100)
    expect(summary.byDay).toEqual([
      {
        day: new Date(1_790_000_000_000).toISOString().slice(0, 10),
        endpointClass: 'das-enhanced',
        credits: 100,
      },
    ])
  })

  it('orders text by bytes, as SQLite does, whatever the server locale', async () => {
    const order = await sql<{
      v: string
    }>`select v from (values ('b'), ('B'), ('a'), ('_'), ('Z')) as t(v) order by v collate "C"`.execute(
      mirror.database.db,
    )
    await mirror.watchlist.add({ address: testAddress(2), label: 'b' }, 1)
    await mirror.watchlist.add({ address: testAddress(1), label: 'a' }, 1)
    const stored = await mirror.database.db
      .selectFrom('wallets')
      .select('address')
      .orderBy('address')
      .execute()
    expect(stored.map((w) => w.address)).toEqual([testAddress(1), testAddress(2)].sort())
    expect(order.rows.map((r) => r.v)).toEqual(['B', 'Z', '_', 'a', 'b'])
  })

  it('deletes all local data but the settings, in one statement', async () => {
    await mirror.settings.write('probe', { kept: true }, 1)
    await mirror.deleteAllData()
    expect(await mirror.watchlist.list()).toEqual([])
    expect((await mirror.ledger.summarize(1_790_000_000_000, 1)).totalCredits).toBe(0)
    expect(await mirror.settings.read('probe')).toEqual({ kept: true })
  })

  it('a reader refuses a database that is not migrated, and changes nothing', async () => {
    const empty = await createTestDatabase()
    try {
      await expect(openPostgresDatabase(empty.url, { isReadOnly: true })).rejects.toThrow(
        /written by an older Heliograph/,
      )
      const probe = await openPostgresDatabase(empty.url, { migrations: {}, isReadOnly: true })
      const tables = await sql<{
        n: number
      }>`select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = 'wallets'`.execute(
        probe.db,
      )
      await probe.close()
      expect(Number(tables.rows[0]?.n)).toBe(0)
    } finally {
      await empty.drop()
    }
  })

  it('names what went wrong when the server cannot be reached or refuses the password, without the password', async () => {
    const url = new URL(database.url)
    url.password = 'not-the-password-7731'
    const refused = await openPostgresDatabase(url.toString()).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(StorageError)
    expect((refused as Error).message).toMatch(/refused the user name or password/)
    expect((refused as Error).message).not.toContain('not-the-password-7731')
    const closedPort = new URL(database.url)
    closedPort.port = '9'
    const down = await openPostgresDatabase(closedPort.toString()).catch((e: unknown) => e)
    expect((down as Error).message).toMatch(/no PostgreSQL server answers/)
  })
})
