import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { migrations } from '../../../src-main/db/migrations'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { killInsideMigration } from './kill-inside-migration'

// On PostgreSQL too, a process killed inside a migration leaves the database whole: the
// migrations before it are kept, of the one killed nothing, and the next start completes
// the schema exactly as a fresh database has it.

/** Runs `read` on a client of its own. */
async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows as T[]
  } finally {
    await client.end()
  }
}

/** The migrations a database records as applied (none before its first). */
async function recordedMigrations(url: string): Promise<string[]> {
  const [exists] = await query<{ t: string | null }>(
    url,
    "select to_regclass('kysely_migration') as t",
  )
  if (exists?.t == null) return []
  const rows = await query<{ name: string }>(url, 'select name from kysely_migration order by name')
  return rows.map((r) => r.name)
}

/** Every column and index of the public schema, in a stable order. */
async function schemaOf(url: string): Promise<unknown[]> {
  const columns = await query(
    url,
    `select table_name, column_name, data_type, is_nullable, column_default
       from information_schema.columns where table_schema = 'public'
      order by table_name, column_name`,
  )
  const indexes = await query(
    url,
    `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'
      order by tablename, indexname`,
  )
  return [columns, indexes]
}

describe('migrations on PostgreSQL run in a transaction', () => {
  const names = Object.keys(migrations)
  const databases: TestDatabase[] = []
  const fresh = async (): Promise<string> => {
    const database = await createTestDatabase()
    databases.push(database)
    return database.url
  }
  afterAll(async () => {
    for (const database of databases) await database.drop()
  })

  const killed = [names[0], names[Math.floor(names.length / 2)], names.at(-1)] as string[]
  it.each(killed)(
    'killed inside %s after its first statement, the next start completes it',
    async (migration) => {
      const url = await fresh()
      const before = names.slice(0, names.indexOf(migration))
      if (before.length > 0) {
        const earlier = Object.fromEntries(before.map((name) => [name, migrations[name]!]))
        await (await openPostgresDatabase(url, { migrations: earlier })).close()
      }
      await killInsideMigration(url, migration)

      // The migrations before it are kept; of the one killed, nothing.
      expect(await recordedMigrations(url)).toEqual(before)

      await (await openPostgresDatabase(url)).close()
      expect(await recordedMigrations(url)).toEqual(names)
      const reference = await fresh()
      await (await openPostgresDatabase(reference)).close()
      expect(await schemaOf(url)).toEqual(await schemaOf(reference))
    },
    60_000,
  )
})
