import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration'
import { StorageError } from '@shared/ipc/ipc-errors'
import { pendingMigrations, type OnMigration } from '../migration-progress'
import { migrations } from '../migrations'
import { makePrivateDir, makePrivateFile, narrowToPrivate } from '../private-files'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'
import { cachingStatements } from './statement-cache'

/** An open SQLite file: the typed Kysely handle and the raw connection for prepared hot paths. */
export interface OpenDatabase {
  db: Kysely<Database>
  sqlite: BetterSqlite3.Database
  path: string
  close(): Promise<void>
}

/** How to open a database; the defaults are what the app uses. */
export interface OpenDatabaseOptions {
  /**
   * Read beside the process that writes (which holds the data folder's writer lock): the
   * file must exist and be migrated already, and nothing is ever written to it.
   */
  isReadOnly?: boolean
  /** The migrations to apply, by name; every migration by default (tests stop inside one). */
  migrations?: Record<string, Migration>
  /** Told before each migration runs (see MigrationProgress). */
  onMigration?: OnMigration | undefined
}

/**
 * Opens (creating if needed) the SQLite mirror at `path`, applies pending migrations and
 * returns it ready for use; read-only, opens an existing, migrated file without changing it.
 *
 * @example
 * const { db, close } = await openDatabase('/tmp/x/heliograph.sqlite')
 * await db.selectFrom('wallets').selectAll().execute()
 * await close()
 */
export async function openDatabase(
  path: string,
  options: OpenDatabaseOptions = {},
): Promise<OpenDatabase> {
  const isReadOnly = options.isReadOnly === true
  let sqlite: BetterSqlite3.Database
  try {
    if (isReadOnly) {
      sqlite = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: 5_000 })
    } else {
      if (path !== ':memory:') {
        makePrivateDir(dirname(path))
        // SQLite gives the -wal and -shm files it creates the database file's mode; ones
        // left by an earlier version, which made them world-readable, are narrowed too.
        makePrivateFile(path)
        narrowToPrivate(`${path}-wal`)
        narrowToPrivate(`${path}-shm`)
      }
      sqlite = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS })
      configureWriter(sqlite)
    }
    sqlite.pragma('foreign_keys = ON')
  } catch (error) {
    throw describeStorageError(error, `open the database at ${path}`)
  }
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: cachingStatements(sqlite) }),
  })
  try {
    if (isReadOnly) await assertMigrated(db, path, options.migrations ?? migrations)
    else await migrateToLatest(db, sqlite, options.migrations ?? migrations, options.onMigration)
  } catch (error) {
    await db.destroy()
    throw error
  }
  return { db, sqlite, path, close: () => db.destroy() }
}

/** How long a connection waits for another one's write transaction before it says "locked". */
const BUSY_TIMEOUT_MS = 5_000

/** The pragmas every writing connection runs with. */
function configureWriter(sqlite: BetterSqlite3.Database): void {
  // WAL: readers (the UI) never wait for the sync engine's page transactions.
  sqlite.pragma('journal_mode = WAL')
  // NORMAL is durable across application crashes in WAL mode; only power loss can
  // drop the last commits, which a re-sync refetches.
  sqlite.pragma('synchronous = NORMAL')
}

/**
 * A second writing connection to a database that {@link openDatabase} has already
 * created and migrated (the mirror writer's worker thread has its own), with the same
 * pragmas as the first.
 */
export function openWriterConnection(path: string): BetterSqlite3.Database {
  try {
    const sqlite = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS, fileMustExist: true })
    configureWriter(sqlite)
    sqlite.pragma('foreign_keys = ON')
    return sqlite
  } catch (error) {
    throw describeStorageError(error, `open the database at ${path}`)
  }
}

/** A reader cannot migrate: it needs a file that the writer has brought up to date. */
async function assertMigrated(
  db: Kysely<Database>,
  path: string,
  expected: Record<string, Migration>,
): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => expected } })
  let pending: number
  try {
    pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length
  } catch (error) {
    throw describeStorageError(error, `read the database at ${path}`)
  }
  if (pending > 0) {
    throw new StorageError(
      `The database at ${path} was written by an older Heliograph and cannot be read until it is updated: open the app or run a command that writes (such as \`heliograph sync --once\`) once.`,
      { pendingMigrations: pending },
    )
  }
}

/**
 * Applies every pending migration, forward only, each in its own transaction together with
 * its row in `kysely_migration`; fails with the migration's name.
 *
 * SQLite's DDL is transactional, but Kysely's SQLite adapter says it is not, so on its
 * own the migrator would run each statement bare, and a crash or a full disk midway would
 * leave half a migration the next start cannot apply again ("table sync_streams already
 * exists"). `begin immediate` takes the write lock first, so a second process starting at
 * the same time waits for this one (busy timeout), then finds nothing left to apply.
 */
async function migrateToLatest(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  toApply: Record<string, Migration>,
  onMigration: OnMigration | undefined,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => toApply } })
  const applied: string[] = []
  let started: { steps: number; isUpdate: boolean } | null = null
  for (;;) {
    let outcome: MigrationResultSet
    try {
      if (onMigration) {
        // Told before the write lock is taken: another process may yet go first.
        const left = pendingMigrations(await migrator.getMigrations())
        const next = left.pending[0]
        if (next === undefined) return applied
        // The opening's count and kind, as they were before its first step.
        started ??= { steps: left.pending.length, isUpdate: left.isUpdate }
        await onMigration({ name: next, step: applied.length + 1, ...started })
      }
      sqlite.exec('begin immediate')
      outcome = await migrator.migrateUp()
      if (outcome.error === undefined) sqlite.exec('commit')
    } catch (error) {
      outcome = { error }
    }
    const { error, results } = outcome
    if (error !== undefined) {
      if (sqlite.inTransaction) sqlite.exec('rollback')
      const failed = results?.find((r) => r.status === 'Error')
      const which = failed ? ` (migration ${failed.migrationName})` : ''
      throw describeStorageError(error, `migrate the database${which}`)
    }
    const done = (results ?? []).filter((r) => r.status === 'Success')
    if (done.length === 0) return applied
    applied.push(...done.map((r) => r.migrationName))
  }
}
