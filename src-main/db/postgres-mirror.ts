import { sql } from 'kysely'
import {
  describePostgresError,
  openPostgresDatabase,
  type OpenPostgresDatabase,
} from './postgres-database'
import { PostgresMirrorWriter } from './ingest/postgres-mirror-writer'
import { KEPT_TABLES, type Mirror } from './mirror'
import { ActivityStore } from './stores/activity-store'
import { CreditLedgerStore } from './stores/credit-ledger-store'
import { LookupCacheStore } from './stores/lookup-cache-store'
import { MintStore } from './stores/mint-store'
import { NamesStore } from './stores/names-store'
import { PostgresExportReader } from './stores/postgres-export-reader'
import { ReviewReader } from './stores/review-reader'
import { SettingsStore } from './stores/settings-store'
import { SyncLeaseStore } from './stores/sync-lease-store'
import { SyncStateStore } from './stores/sync-state-store'
import { WatchScheduleStore } from './stores/watch-schedule-store'
import { WatchStateStore } from './stores/watch-state-store'
import { WatchlistStore } from './stores/watchlist-store'
import { WebhookStore } from './stores/webhook-store'
import { WebhookDeliveryStore } from './stores/webhook-delivery-store'

import { TeamAccountStore } from './stores/team-account-store'

/**
 * A mirror in a PostgreSQL database: the same stores as SQLite's, over Kysely's PostgreSQL
 * dialect, for a desk or team that outgrows one file. Several processes may share it.
 * `database` is the open connection pool, for the db layer's own tests and benchmarks.
 */
export class PostgresMirror implements Mirror {
  readonly engine = 'postgres' as const
  readonly database: OpenPostgresDatabase
  readonly watchlist: WatchlistStore
  readonly review: ReviewReader
  readonly syncState: SyncStateStore
  readonly writer: PostgresMirrorWriter
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
  readonly exports: PostgresExportReader

  constructor(database: OpenPostgresDatabase) {
    const { db } = database
    this.database = database
    this.watchlist = new WatchlistStore(db)
    this.review = new ReviewReader(db)
    this.syncState = new SyncStateStore(db)
    this.writer = new PostgresMirrorWriter(db)
    this.schedule = new WatchScheduleStore(db)
    this.watchState = new WatchStateStore(db)
    this.mints = new MintStore(db)
    this.names = new NamesStore(db)
    this.settings = new SettingsStore(db)
    this.ledger = new CreditLedgerStore(db)
    this.activity = new ActivityStore(db)
    this.lookups = new LookupCacheStore(db)
    this.webhooks = new WebhookStore(db)
    this.leases = new SyncLeaseStore(db)
    this.webhookDeliveries = new WebhookDeliveryStore(db)
    this.team = new TeamAccountStore(db)
    this.exports = new PostgresExportReader(db, database.pool)
  }

  get location(): string {
    return this.database.location
  }

  async deleteAllData(): Promise<void> {
    const { db } = this.database
    try {
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'
          and table_name not like 'kysely_%'`.execute(db)
      const emptied = tables.rows.map((t) => t.name).filter((name) => !KEPT_TABLES.has(name))
      // One statement: children and parents together, identities restarted as in a new mirror.
      if (emptied.length > 0) {
        await sql`truncate ${sql.join(emptied.map((name) => sql.table(name)))} restart identity`.execute(
          db,
        )
      }
    } catch (error) {
      throw describePostgresError(error, 'delete the local data')
    }
  }

  async close(): Promise<void> {
    await this.database.close()
  }
}

/**
 * Connects to the PostgreSQL mirror at `url`, migrated to the latest schema (the same
 * numbered migrations as SQLite).
 *
 * @example
 * const mirror = await openPostgresMirror('postgres://app:pw@127.0.0.1:5432/heliograph')
 * await mirror.watchlist.list()
 * await mirror.close()
 */
export async function openPostgresMirror(
  url: string,
  options: { isReadOnly?: boolean } = {},
): Promise<PostgresMirror> {
  return new PostgresMirror(await openPostgresDatabase(url, options))
}
