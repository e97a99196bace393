import type { ExportReader } from './export-reader'
import type { MirrorWriter } from './mirror-writer'
import type { ActivityStore } from './stores/activity-store'
import type { AlertStore } from './stores/alert-store'
import type { HealthStore } from './stores/health-store'
import type { KeptAsideStore } from './stores/kept-aside-store'
import type { HistoryLoadStore } from './stores/history-load-store'
import type { AlertFactsReader } from './stores/alert-facts-reader'
import type { AlertRuleStore } from './stores/alert-rule-store'
import type { CreditLedgerStore } from './stores/credit-ledger-store'
import type { LookupCacheStore } from './stores/lookup-cache-store'
import type { HoldingsStore } from './stores/holdings-store'
import type { MintStore } from './stores/mint-store'
import type { NamesStore } from './stores/names-store'
import type { WatchStateStore } from './stores/watch-state-store'
import type { ReviewReader } from './stores/review-reader'
import type { SearchStore } from './stores/search-store'
import type { SettingsStore } from './stores/settings-store'
import type { SyncLeaseStore } from './stores/sync-lease-store'
import type { SyncStateStore } from './stores/sync-state-store'
import type { WatchScheduleStore } from './stores/watch-schedule-store'
import type { WatchlistStore } from './stores/watchlist-store'
import type { WebhookStore } from './stores/webhook-store'
import type { WebhookDeliveryStore } from './stores/webhook-delivery-store'
import type { TeamAccountStore } from './stores/team-account-store'
import type { TagStore } from './stores/tag-store'
import type { FeedStore } from './stores/feed-store'
import type { NotifyChannelStore } from './stores/notify-channel-store'

/**
 * Tables that "delete all local data" keeps, on every engine: the person's settings, alert
 * rules and channels, and the team server's accounts (the migration log is never listed).
 */
export const KEPT_TABLES: ReadonlySet<string> = new Set([
  'settings',
  'alert_rules',
  'notify_channels',
  'team_users',
  'team_sessions',
  'team_changes',
])

/**
 * One mirror of synced wallet data, whatever engine holds it: the only way sync, app,
 * export and shells reach storage. Each concern has a store named for what it keeps; no
 * caller sees a connection or writes SQL. Every method is async, so that an engine with
 * a network between it and the app can implement the same interface. Callers ask what a
 * mirror can do (`isShared`), never which engine holds it; openMirror() (open-mirror.ts)
 * is how they get one.
 *
 * @example
 * const mirror = await openMirror({ file: '/data/heliograph.sqlite' })
 * await mirror.watchlist.add({ address: 'So111…112', label: 'Treasury' }, nowSec)
 * await mirror.close()
 */
export interface Mirror {
  /**
   * Whether several sync workers (processes) may share this mirror at once, splitting its
   * wallets with leases: true on a database server, false for a file that one writer holds.
   */
  readonly isShared: boolean
  /** Where it lives (a file path, or a database URL without its password), for messages. */
  readonly location: string
  readonly watchlist: WatchlistStore
  /** Tags on watched wallets (lower-case), and the wallets of a tag. */
  readonly tags: TagStore
  /** Every watched wallet's transactions newest first, and the feed's last-viewed mark. */
  readonly feed: FeedStore
  /** The review views' reads (history, transfers, balances, summaries). */
  readonly review: ReviewReader
  /** Streams' status and depth limits. */
  readonly syncState: SyncStateStore
  /** Loads of history: the look at a wallet's size, the load under way, what was agreed. */
  readonly historyLoads: HistoryLoadStore
  /** The sync engine's page writes, each with its cursor in one transaction. */
  readonly writer: MirrorWriter
  readonly schedule: WatchScheduleStore
  /** What watching observed on each wallet, and the changes it found. */
  readonly watchState: WatchStateStore
  readonly mints: MintStore
  /** The latest holdings snapshot read back, for a change written without asking again. */
  readonly holdings: HoldingsStore
  /** Names of addresses and each wallet's funder, with when they were asked. */
  readonly names: NamesStore
  readonly settings: SettingsStore
  readonly ledger: CreditLedgerStore
  readonly activity: ActivityStore
  /** The alert outbox: alerts with what caused them, and their deliveries per channel. */
  readonly alerts: AlertStore
  /** Why syncing stops or slows, while it lasts; raising or resolving one writes its alert. */
  readonly health: HealthStore
  /** Items of pages the app could not read, kept aside with their reason (doctor lists them). */
  readonly keptAside: KeptAsideStore
  /** The alert rules. */
  readonly alertRules: AlertRuleStore
  /** What the rules read: the alert inbox, and what a transaction or snapshot did. */
  readonly alertFacts: AlertFactsReader
  /** The look-up desk's answers, reopened offline. */
  readonly lookups: LookupCacheStore
  /** The header search over labels, names, tokens and id prefixes: reads only. */
  readonly search: SearchStore
  /** The webhooks on the person's account as last fetched, for the page offline. */
  readonly webhooks: WebhookStore
  /** Which sync worker holds which wallet, when several share the mirror. */
  readonly leases: SyncLeaseStore
  /** Webhook mode: signatures deliveries carried (each synced once) and the mode's log. */
  readonly webhookDeliveries: WebhookDeliveryStore
  /** The team server's accounts and sign-in sessions. */
  readonly team: TeamAccountStore
  /** Outbound alert channels (their secrets are kept outside the mirror). */
  readonly notifyChannels: NotifyChannelStore
  /** Export rows, read from one consistent snapshot without holding up the sync engine. */
  readonly exports: ExportReader
  /**
   * Empties every table of synced data, the watchlist and the ledger in one transaction;
   * settings and the team server's accounts stay. New tables are included without being listed anywhere.
   */
  deleteAllData(): Promise<void>
  close(): Promise<void>
}
