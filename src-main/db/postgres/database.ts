import { Kysely, PostgresDialect } from 'kysely'
import { Migrator, type Migration } from 'kysely/migration'
import pg from 'pg'
import { StorageError } from '@shared/ipc/ipc-errors'
import { pendingMigrations, type OnMigration } from '../migration-progress'
import { migrations } from '../migrations'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'
import { displayDatabaseUrl } from '../database-url'
import { ClosingClient, mirrorConnection } from './client'

/** An open PostgreSQL mirror database: the typed Kysely handle and its connection pool. */
export interface OpenPostgresDatabase {
  db: Kysely<Database>
  pool: pg.Pool
  /**
   * The views' reads, on a pool of their own: a page a person asks for never waits for a
   * connection the writer's transactions hold, nor they for the pages.
   */
  reads: Kysely<Database>
  /** The URL without its password, for messages. */
  location: string
  close(): Promise<void>
}

/**
 * Connects to the PostgreSQL database at `url` and brings its schema up to date with the
 * same numbered migrations as SQLite (PostgreSQL's DDL is transactional: Kysely runs them
 * in one transaction under an advisory lock, so workers starting together migrate once).
 *
 * @example
 * const { db, close } = await openPostgresDatabase('postgres://app:pw@127.0.0.1:5432/heliograph')
 * await db.selectFrom('wallets').selectAll().execute()
 * await close()
 */
export async function openPostgresDatabase(
  url: string,
  options: {
    migrations?: Record<string, Migration>
    maxConnections?: number
    /** Read beside the processes that write: the schema must be current; nothing is migrated. */
    isReadOnly?: boolean
    /** Told before each migration runs (see MigrationProgress). */
    onMigration?: OnMigration | undefined
  } = {},
): Promise<OpenPostgresDatabase> {
  const location = displayDatabaseUrl(url)
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 8,
    ...mirrorConnection,
    Client: ClosingClient,
  })
  // An idle client's error (the server restarted) must not end the process; the next
  // query reconnects or fails with its own error.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  try {
    const all = options.migrations ?? migrations
    let migrator = new Migrator({ db, provider: { getMigrations: async () => all } })
    if (options.onMigration && options.isReadOnly !== true) {
      // Every pending migration runs in one transaction (a start stopped midway keeps
      // none): each is told from inside it, as it begins.
      const { pending, isUpdate } = pendingMigrations(await migrator.getMigrations())
      const told = tellingEach(all, pending, isUpdate, options.onMigration)
      migrator = new Migrator({ db, provider: { getMigrations: async () => told } })
    }
    if (options.isReadOnly === true) {
      const pending = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined)
      if (pending.length > 0) {
        throw new StorageError(
          `The database at ${location} was written by an older Heliograph and cannot be read until it is updated: run a command that writes (such as \`heliograph sync --once\`) once.`,
          { pendingMigrations: pending.length },
        )
      }
      return withReadPool({ db, pool, location }, url, options.maxConnections ?? 8)
    }
    const { error, results } = await migrator.migrateToLatest()
    if (error !== undefined) {
      const failed = results?.find((r) => r.status === 'Error')
      const which = failed ? ` (migration ${failed.migrationName})` : ''
      throw describeStorageError(error, `migrate the database at ${location}${which}`)
    }
  } catch (error) {
    await db.destroy()
    throw error instanceof StorageError
      ? error
      : describeStorageError(error, `open the database at ${location}`)
  }
  return withReadPool({ db, pool, location }, url, options.maxConnections ?? 8)
}

/** The database with a pool for the views' reads beside the writer's (both connect lazily). */
function withReadPool(
  open: Omit<OpenPostgresDatabase, 'reads' | 'close'>,
  url: string,
  maxConnections: number,
): OpenPostgresDatabase {
  const readPool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    ...mirrorConnection,
    Client: ClosingClient,
  })
  readPool.on('error', () => {})
  const reads = new Kysely<Database>({ dialect: new PostgresDialect({ pool: readPool }) })
  return {
    ...open,
    reads,
    close: async () => {
      await reads.destroy()
      await open.db.destroy()
    },
  }
}

/** `all`, with each of `pending` telling `onMigration` as it begins. */
function tellingEach(
  all: Record<string, Migration>,
  pending: readonly string[],
  isUpdate: boolean,
  onMigration: OnMigration,
): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(all).map(([name, migration]) => {
      const step = pending.indexOf(name) + 1
      if (step === 0) return [name, migration]
      const up: Migration['up'] = async (db) => {
        await onMigration({ name, step, steps: pending.length, isUpdate })
        await migration.up(db)
      }
      return [name, { ...migration, up }]
    }),
  )
}
