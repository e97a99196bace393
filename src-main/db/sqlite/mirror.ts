import { sql } from 'kysely'
import { KyselyMirror } from '../kysely-mirror'
import { KEPT_TABLES } from '../mirror'
import type { MirrorWriter } from '../mirror-writer'
import { describeStorageError } from '../storage-errors'
import { CreditLedgerStore } from '../stores/credit-ledger-store'
import { openDatabase, type OpenDatabase, type OpenDatabaseOptions } from './database'
import { ReaderThreads } from './reader-threads'
import { SqliteExportReader } from './export-reader'
import { SqliteMirrorWriter } from './mirror-writer'
import { WorkerMirrorWriter } from './worker-mirror-writer'

/**
 * A mirror in one SQLite file (the embedded default). `database` is the open file itself,
 * for the db layer's own tests and benchmarks; the app uses only the {@link Mirror} side.
 */
export class SqliteMirror extends KyselyMirror {
  readonly engine = 'sqlite' as const
  /** One file, one writer: the data folder's writer lock keeps a second one out. */
  readonly isShared = false
  readonly database: OpenDatabase
  readonly writer: MirrorWriter
  readonly ledger: CreditLedgerStore
  readonly exports: SqliteExportReader

  readonly #workerWriter: WorkerMirrorWriter | null

  readonly #readers: ReaderThreads | null

  constructor(database: OpenDatabase, options: SqliteMirrorOptions = {}) {
    const { db, sqlite } = database
    const readers =
      options.readIn === 'workers' && database.path !== ':memory:'
        ? new ReaderThreads(database.path)
        : null
    super(db, readers ? { onThreads: (local) => readers.storesOver(local) } : {})
    this.#readers = readers
    this.database = database
    const inWorker = options.writeIn === 'worker' && database.path !== ':memory:'
    this.#workerWriter = inWorker ? new WorkerMirrorWriter(database.path, sqlite) : null
    // The writer's thread checkpoints the WAL; a commit here would otherwise copy a WAL
    // that a backfill has grown back into the file on this thread, stalling the views.
    if (inWorker) sqlite.pragma('wal_autocheckpoint = 0')
    this.writer = this.#workerWriter ?? new SqliteMirrorWriter(sqlite)
    const worker = this.#workerWriter
    this.ledger = new CreditLedgerStore(db, worker ? (e) => worker.recordLedgerEntry(e) : undefined)
    this.exports = new SqliteExportReader(db, database.path)
  }

  get location(): string {
    return this.database.path
  }

  async deleteAllData(): Promise<void> {
    const { db } = this.database
    try {
      await db.transaction().execute(async (tx) => {
        // Children and parents go in one transaction; foreign keys are checked at commit.
        await sql`pragma defer_foreign_keys = on`.execute(tx)
        const tables = await sql<{ name: string }>`
          select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(
          tx,
        )
        for (const { name } of tables.rows) {
          if (!KEPT_TABLES.has(name)) await sql`delete from ${sql.table(name)}`.execute(tx)
        }
      })
    } catch (error) {
      throw describeStorageError(error, 'delete the local data')
    }
  }

  async close(): Promise<void> {
    // The writer's pages under way are committed before the connections close.
    await this.#workerWriter?.close()
    await this.#readers?.close()
    await this.database.close()
  }
}

/** How a SQLite mirror is opened. */
export interface SqliteMirrorOptions extends OpenDatabaseOptions {
  /**
   * Where the sync engine's page writes run: on this thread's connection (the default),
   * or on a worker thread with its own connection, so that this thread stays free to
   * answer the views during a backfill (what the app does).
   */
  writeIn?: 'this-thread' | 'worker'
  /**
   * Where the views' reads run: on this thread's connection (the default), or on reader
   * threads with read-only connections of their own, so that a page read never holds up
   * another, the writer, or this thread's sockets (what the app does).
   */
  readIn?: 'this-thread' | 'workers'
}

/**
 * Opens (creating if needed) the SQLite mirror at `path`, migrated to the latest schema;
 * with `isReadOnly`, an existing one for reading beside its writer.
 *
 * @example
 * const mirror = await openSqliteMirror('/tmp/x/heliograph.sqlite')
 * await mirror.watchlist.list() // []
 * await mirror.close()
 */
export async function openSqliteMirror(
  path: string,
  options: SqliteMirrorOptions = {},
): Promise<SqliteMirror> {
  return new SqliteMirror(await openDatabase(path, options), options)
}
