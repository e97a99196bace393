import type { MirrorWriter } from './ingest/mirror-writer'
import type { ActivityStore } from './stores/activity-store'
import type { CreditLedgerStore } from './stores/credit-ledger-store'
import type { LookupCacheStore } from './stores/lookup-cache-store'
import type { ExportRows } from './stores/export-reader'
import type { ExportRowFilters } from './queries/export-queries'
import type { ExportKind } from '@shared/ipc/export-schemas'
import type { MintStore } from './stores/mint-store'
import type { NamesStore } from './stores/names-store'
import type { WatchStateStore } from './stores/watch-state-store'
import type { ReviewReader } from './stores/review-reader'
import type { SettingsStore } from './stores/settings-store'
import type { SyncLeaseStore } from './stores/sync-lease-store'
import type { SyncStateStore } from './stores/sync-state-store'
import type { WatchScheduleStore } from './stores/watch-schedule-store'
import type { WatchlistStore } from './stores/watchlist-store'
import type { WebhookStore } from './stores/webhook-store'
import type { WebhookDeliveryStore } from './stores/webhook-delivery-store'
import type { TeamAccountStore } from './stores/team-account-store'

/**
 * Tables that "delete all local data" keeps, on every engine: the person's settings and
 * the team server's accounts (the migration log is never listed).
 */
export const KEPT_TABLES: ReadonlySet<string> = new Set(['settings', 'team_users', 'team_sessions'])

/** The database engines a mirror can live on. */
export type MirrorEngine = 'sqlite' | 'postgres'

/**
 * One mirror of synced wallet data, whatever engine holds it: the only way sync, app,
 * export and shells reach storage. Each concern has a store named for what it keeps; no
 * caller sees a connection or writes SQL. Every method is async, so that an engine with
 * a network between it and the app can implement the same interface.
 *
 * @example
 * const mirror = await openSqliteMirror('/data/heliograph.sqlite')
 * await mirror.watchlist.add({ address: 'So111…112', label: 'Treasury' }, nowSec)
 * await mirror.close()
 */
export interface Mirror {
  readonly engine: MirrorEngine
  /** Where it lives (a file path), for messages. */
  readonly location: string
  readonly watchlist: WatchlistStore
  /** The review views' reads (history, transfers, balances, summaries). */
  readonly review: ReviewReader
  /** Streams' status and depth limits. */
  readonly syncState: SyncStateStore
  /** The sync engine's page writes, each with its cursor in one transaction. */
  readonly writer: MirrorWriter
  readonly schedule: WatchScheduleStore
  /** What watching observed on each wallet, and the changes it found. */
  readonly watchState: WatchStateStore
  readonly mints: MintStore
  /** Names of addresses and each wallet's funder, with when they were asked. */
  readonly names: NamesStore
  readonly settings: SettingsStore
  readonly ledger: CreditLedgerStore
  readonly activity: ActivityStore
  /** The look-up desk's answers, reopened offline. */
  readonly lookups: LookupCacheStore
  /** The webhooks on the person's account as last fetched, for the page offline. */
  readonly webhooks: WebhookStore
  /** Which sync worker holds which wallet, when several share the mirror. */
  readonly leases: SyncLeaseStore
  /** Webhook mode: signatures deliveries carried (each synced once) and the mode's log. */
  readonly webhookDeliveries: WebhookDeliveryStore
  /** The team server's accounts and sign-in sessions. */
  readonly team: TeamAccountStore
  /** Export rows, read from one consistent snapshot without holding up the sync engine. */
  readonly exports: {
    count(kind: ExportKind, filters: ExportRowFilters): Promise<number>
    open(kind: ExportKind, filters: ExportRowFilters, batchRows: number): Promise<ExportRows>
  }
  /**
   * Empties every table of synced data, the watchlist and the ledger in one transaction;
   * settings and the team server's accounts stay. New tables are included without being listed anywhere.
   */
  deleteAllData(): Promise<void>
  close(): Promise<void>
}
