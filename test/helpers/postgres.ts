import { randomBytes } from 'node:crypto'
import pg from 'pg'
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

/**
 * A fresh database owned by a login role of its own with `password`, and its URL as that
 * role: for tests that look for the password in what the app prints.
 *
 * @example
 * const database = await createPasswordDatabase('s3cr3t-Pa55')
 * expect(database.url).toContain(':s3cr3t-Pa55@')
 */
export async function createPasswordDatabase(password: string): Promise<TestDatabase> {
  const serverUrl = inject('postgresServerUrl')
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`create role ${name} login password ${admin.escapeLiteral(password)}`)
    await admin.query(`create database ${name} owner ${name}`)
  } finally {
    await admin.end()
  }
  const url = new URL(serverUrl)
  url.username = name
  url.password = encodeURIComponent(password)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      await dropDatabase(serverUrl, name)
      const cleanup = new pg.Client({ connectionString: serverUrl })
      await cleanup.connect()
      await cleanup.query(`drop role if exists ${name}`).finally(() => cleanup.end())
    },
  }
}
