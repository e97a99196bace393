import { sql } from 'kysely'
import {
  openDatabase,
  describeStorageError,
  type OpenDatabase,
  type OpenDatabaseOptions,
} from './database'
import { SqliteMirrorWriter, type MirrorWriter } from './ingest/mirror-writer'
import { WorkerMirrorWriter } from './ingest/worker-mirror-writer'
import { KEPT_TABLES, type Mirror } from './mirror'
import { ActivityStore } from './stores/activity-store'
import { CreditLedgerStore } from './stores/credit-ledger-store'
import { LookupCacheStore } from './stores/lookup-cache-store'
import { SqliteExportReader } from './stores/export-reader'
import { MintStore } from './stores/mint-store'
import { NamesStore } from './stores/names-store'
import { WatchStateStore } from './stores/watch-state-store'
import { ReviewReader } from './stores/review-reader'
import { SettingsStore } from './stores/settings-store'
import { SyncLeaseStore } from './stores/sync-lease-store'
import { SyncStateStore } from './stores/sync-state-store'
import { WatchScheduleStore } from './stores/watch-schedule-store'
import { WatchlistStore } from './stores/watchlist-store'
import { WebhookStore } from './stores/webhook-store'
import { WebhookDeliveryStore } from './stores/webhook-delivery-store'

import { TeamAccountStore } from './stores/team-account-store'

/**
 * A mirror in one SQLite file (the embedded default). `database` is the open file itself,
 * for the db layer's own tests and benchmarks; the app uses only the {@link Mirror} side.
 */
export class SqliteMirror implements Mirror {
  readonly engine = 'sqlite' as const
  readonly database: OpenDatabase
  readonly watchlist: WatchlistStore
  readonly review: ReviewReader
  readonly syncState: SyncStateStore
  readonly writer: MirrorWriter
  readonly schedule: WatchScheduleStore
  readonly watchState: WatchStateStore
  readonly mints: MintStore
  readonly names: NamesStore
  readonly settings: SettingsStore
  readonly ledger: CreditLedgerStore
  readonly activity: ActivityStore
  readonly lookups: LookupCacheStore
  readonly webhooks: WebhookStore
  readonly leases: SyncLeaseStore
  readonly webhookDeliveries: WebhookDeliveryStore
  readonly team: TeamAccountStore
  readonly exports: SqliteExportReader

  readonly #workerWriter: WorkerMirrorWriter | null

  constructor(database: OpenDatabase, options: SqliteMirrorOptions = {}) {
    const { db, sqlite } = database
    this.database = database
    const inWorker = options.writeIn === 'worker' && database.path !== ':memory:'
    this.#workerWriter = inWorker ? new WorkerMirrorWriter(database.path, sqlite) : null
    // The writer's thread checkpoints the WAL; a commit here would otherwise copy a WAL
    // that a backfill has grown back into the file on this thread, stalling the views.
    if (inWorker) sqlite.pragma('wal_autocheckpoint = 0')
    this.watchlist = new WatchlistStore(db)
    this.review = new ReviewReader(db)
    this.syncState = new SyncStateStore(db)
    this.writer = this.#workerWriter ?? new SqliteMirrorWriter(sqlite)
    this.schedule = new WatchScheduleStore(db)
    this.watchState = new WatchStateStore(db)
    this.mints = new MintStore(db)
    this.names = new NamesStore(db)
    this.settings = new SettingsStore(db)
    const worker = this.#workerWriter
    this.ledger = new CreditLedgerStore(db, worker ? (e) => worker.recordLedgerEntry(e) : undefined)
    this.activity = new ActivityStore(db)
    this.lookups = new LookupCacheStore(db)
    this.webhooks = new WebhookStore(db)
    this.leases = new SyncLeaseStore(db)
    this.webhookDeliveries = new WebhookDeliveryStore(db)
    this.team = new TeamAccountStore(db)
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
