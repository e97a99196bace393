import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { migrations } from '../../../src-main/db/migrations'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { killInsideMigration } from './kill-inside-migration'

// On PostgreSQL the migrations of one start run in one transaction (Kysely's migrator, DDL
// being transactional there), with their rows in kysely_migration: a process killed inside
// a migration leaves the database at the version it had before that start, and the next
// start applies them all.

const names = Object.keys(migrations)

async function withClient<T>(url: string, read: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await read(client)
  } finally {
    await client.end()
  }
}

/** The migrations a database records as applied (none before its first one). */
const recordedMigrations = (url: string): Promise<string[]> =>
  withClient(url, async (client) => {
    const table = await client.query("select to_regclass('kysely_migration') as name")
    if ((table.rows[0] as { name: string | null }).name === null) return []
    const rows = await client.query('select name from kysely_migration order by name')
    return rows.rows.map((r: { name: string }) => r.name)
  })

/** Every column, constraint and index of the database's own tables. */
const schemaOf = (url: string): Promise<unknown> =>
  withClient(url, async (client) => {
    const columns = await client.query(`
      select table_name, column_name, data_type, is_nullable, column_default
      from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely_%'
      order by table_name, column_name`)
    const constraints = await client.query(`
      select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as def
      from pg_constraint where connamespace = current_schema()::regnamespace
        and conrelid::regclass::text not like 'kysely_%'
      order by 1, 2`)
    const indexes = await client.query(`
      select tablename, indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename not like 'kysely_%'
      order by 1, 2`)
    return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows }
  })

/** Migrates `url` with the migrations before `migration` only. */
async function migrateUpTo(url: string, migration: string): Promise<void> {
  const before = Object.fromEntries(Object.entries(migrations).slice(0, names.indexOf(migration)))
  const opened = await openPostgresDatabase(url, { migrations: before, maxConnections: 1 })
  await opened.close()
}

describe('PostgreSQL migrations killed midway', () => {
  const databases: TestDatabase[] = []
  let freshSchema: unknown
  beforeAll(async () => {
    const fresh = await createTestDatabase()
    databases.push(fresh)
    await (await openPostgresDatabase(fresh.url, { maxConnections: 1 })).close()
    freshSchema = await schemaOf(fresh.url)
  })
  afterAll(async () => {
    for (const database of databases) await database.drop()
  })

  it.each(names)(
    'killed inside %s after its first statement: the database keeps its version, the next start completes',
    async (migration) => {
      const database = await createTestDatabase()
      databases.push(database)
      await migrateUpTo(database.url, migration)
      const schemaBefore = await schemaOf(database.url)

      await killInsideMigration(database.url, migration)

      // The migrations before it are kept; of the one killed, nothing.
      expect(await recordedMigrations(database.url)).toEqual(
        names.slice(0, names.indexOf(migration)),
      )
      expect(await schemaOf(database.url)).toEqual(schemaBefore)

      await (await openPostgresDatabase(database.url, { maxConnections: 1 })).close()
      expect(await recordedMigrations(database.url)).toEqual(names)
      expect(await schemaOf(database.url)).toEqual(freshSchema)
    },
  )

  it('a start killed midway through several migrations keeps none of them', async () => {
    const database = await createTestDatabase()
    databases.push(database)
    await killInsideMigration(database.url, '0005-balance-watch')
    expect(await recordedMigrations(database.url)).toEqual([])
    expect(await schemaOf(database.url)).toEqual({ columns: [], constraints: [], indexes: [] })
    await (await openPostgresDatabase(database.url, { maxConnections: 1 })).close()
    expect(await schemaOf(database.url)).toEqual(freshSchema)
  })
})
