import { randomBytes } from 'node:crypto'
import { inject } from 'vitest'
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

/** The options that point a CLI run at its mirror, and what removes the mirror's database. */
export interface CliMirror {
  args: string[]
  drop(): Promise<void>
}

/**
 * Where a CLI test keeps its mirror: the data folder's SQLite file, or (on PostgreSQL) a
 * fresh database given with `--database`, the folder still holding the key and exports.
 *
 * @example
 * const mirror = await cliMirror('postgres', temp.dir)
 * await runCli([...mirror.args, 'status'])
 * await mirror.drop()
 */
export async function cliMirror(
  engine: 'sqlite' | 'postgres',
  dataDir: string,
): Promise<CliMirror> {
  if (engine === 'sqlite') return { args: ['--data-dir', dataDir], drop: async () => {} }
  const database = await createTestDatabase()
  return { args: ['--data-dir', dataDir, '--database', database.url], drop: database.drop }
}
