import type { Kysely } from 'kysely'
import { databasePath } from '../../src-main/app/data-dir'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { openPostgresDatabase } from '../../src-main/db/postgres/database'
import type { Database } from '../../src-main/db/schema'
import { createTestDatabase } from './postgres'
import type { TestEngine } from './sync-fixture'

/** Where a core keeps its mirror: the data folder's SQLite file, or a PostgreSQL database. */
export interface MirrorPlace {
  dataDir: string
  databaseUrl?: string
}

/** A test's mirror on one engine, and what removes it. */
export interface TestMirror {
  /** Where a core keeps it: createCore's dataDir and databaseUrl. */
  place: MirrorPlace
  /** The CLI's options for it: --data-dir, and --database on PostgreSQL. */
  cliArgs: string[]
  /** Drops its PostgreSQL database (the folder is the test's to remove). */
  drop(): Promise<void>
}

/**
 * Where a test keeps a core's or the CLI's mirror: the data folder's SQLite file, or a
 * fresh PostgreSQL database, the folder still holding the key and exports.
 *
 * @example
 * const mirror = await testMirror('postgres', temp.dir)
 * const core = await createCore({ ...mirror.place, shell: 'web', version: 'test' })
 * await runCli([...mirror.cliArgs, 'status'])
 * await mirror.drop()
 */
export async function testMirror(engine: TestEngine, dataDir: string): Promise<TestMirror> {
  if (engine === 'sqlite')
    return { place: { dataDir }, cliArgs: ['--data-dir', dataDir], drop: async () => {} }
  const database = await createTestDatabase()
  return {
    place: { dataDir, databaseUrl: database.url },
    cliArgs: ['--data-dir', dataDir, '--database', database.url],
    drop: database.drop,
  }
}

/**
 * Reads a core's mirror, on whichever engine holds it, through a read-only handle of its
 * own (closed after `read`), as another process would see it.
 *
 * @example
 * const wallets = await readStoredMirror({ dataDir }, (db) => db.selectFrom('wallets').selectAll().execute())
 */
export async function readStoredMirror<T>(
  place: MirrorPlace,
  read: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const opened = place.databaseUrl
    ? await openPostgresDatabase(place.databaseUrl, { isReadOnly: true, maxConnections: 1 })
    : await openDatabase(databasePath(place.dataDir), { isReadOnly: true })
  try {
    return await read(opened.db)
  } finally {
    await opened.close()
  }
}
