import { randomBytes } from 'node:crypto'
import { inject } from 'vitest'
import { createDatabase, dropDatabase } from '../../scripts/postgres/postgres-databases'

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
