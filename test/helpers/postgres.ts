import { randomBytes } from 'node:crypto'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { mirrorTypeParsers } from '../../src-main/db/postgres/pg-number-types'
import { createDatabase, dropDatabase } from '../../src-main/db/postgres/postgres-databases'

/** A fresh database on the run's PostgreSQL server (test/setup/local-postgres.ts). */
export interface TestDatabase {
  /** Its URL, as the server's superuser. */
  url: string
  /** Drops it, closing the connections still open to it. */
  drop(): Promise<void>
}

/**
 * Creates a database of its own for a test file, with a name no other file or run uses.
 *
 * @example
 * let database: TestDatabase
 * beforeAll(async () => (database = await createTestDatabase()))
 * afterAll(() => database.drop())
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('postgresServerUrl')
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`
  const url = await createDatabase(serverUrl, name)
  return { url, drop: () => dropDatabase(serverUrl, name) }
}

/**
 * A Kysely handle over its own pool on `url`, returning bigints as numbers as the mirror
 * does; `destroy()` it after.
 */
export function openPostgresKysely<T>(url: string, maxConnections = 10): Kysely<T> {
  const pool = new pg.Pool({
    connectionString: url,
    types: mirrorTypeParsers(),
    max: maxConnections,
  })
  return new Kysely<T>({ dialect: new PostgresDialect({ pool }) })
}
