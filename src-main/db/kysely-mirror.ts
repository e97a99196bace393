import type { Kysely } from 'kysely'
import type { ExportReader } from './export-reader'
import type { Mirror } from './mirror'
import type { MirrorWriter } from './mirror-writer'
import type { Database } from './schema'
import { ActivityStore } from './stores/activity-store'
import { AlertStore } from './stores/alert-store'
import { HealthStore } from './stores/health-store'
import { KeptAsideStore } from './stores/kept-aside-store'
import { HistoryLoadStore } from './stores/history-load-store'
import { AlertFactsReader } from './stores/alert-facts-reader'
import { AlertRuleStore } from './stores/alert-rule-store'
import type { CreditLedgerStore } from './stores/credit-ledger-store'
import { LookupCacheStore } from './stores/lookup-cache-store'
import { HoldingsStore } from './stores/holdings-store'
import { MintStore } from './stores/mint-store'
import { NamesStore } from './stores/names-store'
import { NotifyChannelStore } from './stores/notify-channel-store'
import { ReviewReader } from './stores/review-reader'
import { SearchStore } from './stores/search-store'
import { SettingsStore } from './stores/settings-store'
import { SyncLeaseStore } from './stores/sync-lease-store'
import { SyncStateStore } from './stores/sync-state-store'
import { TagStore } from './stores/tag-store'
import { FeedStore } from './stores/feed-store'
import { TeamAccountStore } from './stores/team-account-store'
import { WatchScheduleStore } from './stores/watch-schedule-store'
import { WatchStateStore } from './stores/watch-state-store'
import { WatchlistStore } from './stores/watchlist-store'
import { WebhookDeliveryStore } from './stores/webhook-delivery-store'
import { WebhookStore } from './stores/webhook-store'

/** The stores the views read through, which an engine may run on threads of their own. */
export type ViewReadStores = Pick<Mirror, 'review' | 'feed' | 'search'>

/**
 * What every engine's mirror shares: the stores written in Kysely alone, built on the
 * engine's Kysely handle. An engine adds what it does its own way: the page writer, the
 * ledger's writes, the export reader, deleting everything and closing.
 */
export abstract class KyselyMirror implements Mirror {
  abstract readonly isShared: boolean
  abstract readonly location: string
  abstract readonly writer: MirrorWriter
  abstract readonly ledger: CreditLedgerStore
  abstract readonly exports: ExportReader
  readonly watchlist: WatchlistStore
  readonly tags: TagStore
  readonly feed: FeedStore
  readonly review: ReviewReader
  readonly syncState: SyncStateStore
  readonly historyLoads: HistoryLoadStore
  readonly schedule: WatchScheduleStore
  readonly watchState: WatchStateStore
  readonly mints: MintStore
  readonly holdings: HoldingsStore
  readonly names: NamesStore
  readonly settings: SettingsStore
  readonly activity: ActivityStore
  readonly alerts: AlertStore
  readonly health: HealthStore
  readonly keptAside: KeptAsideStore
  readonly alertRules: AlertRuleStore
  readonly alertFacts: AlertFactsReader
  readonly lookups: LookupCacheStore
  readonly search: SearchStore
  readonly webhooks: WebhookStore
  readonly leases: SyncLeaseStore
  readonly webhookDeliveries: WebhookDeliveryStore
  readonly team: TeamAccountStore
  readonly notifyChannels: NotifyChannelStore

  /**
   * `reads`: where the views' reads run (History, transfers, balances, the feed, the header
   * search), else `db` itself; `onThreads`: those stores as the engine runs them elsewhere
   * (SQLite's reader threads), given the ones built here.
   */
  constructor(
    db: Kysely<Database>,
    options: {
      reads?: Kysely<Database>
      onThreads?: (local: ViewReadStores) => ViewReadStores
    } = {},
  ) {
    const reads = options.reads ?? db
    const local: ViewReadStores = {
      review: new ReviewReader(db, reads),
      feed: new FeedStore(db, reads),
      search: new SearchStore(reads),
    }
    const views = options.onThreads ? options.onThreads(local) : local
    this.watchlist = new WatchlistStore(db)
    this.tags = new TagStore(db)
    this.feed = views.feed
    this.review = views.review
    this.search = views.search
    this.syncState = new SyncStateStore(db)
    this.historyLoads = new HistoryLoadStore(db)
    this.schedule = new WatchScheduleStore(db)
    this.watchState = new WatchStateStore(db)
    this.mints = new MintStore(db)
    this.holdings = new HoldingsStore(db)
    this.names = new NamesStore(db)
    this.settings = new SettingsStore(db)
    this.activity = new ActivityStore(db)
    this.alerts = new AlertStore(db)
    this.health = new HealthStore(db, this.alerts)
    this.keptAside = new KeptAsideStore(db)
    this.alertRules = new AlertRuleStore(db)
    this.alertFacts = new AlertFactsReader(db)
    this.lookups = new LookupCacheStore(db)
    this.webhooks = new WebhookStore(db)
    this.leases = new SyncLeaseStore(db)
    this.webhookDeliveries = new WebhookDeliveryStore(db)
    this.team = new TeamAccountStore(db)
    this.notifyChannels = new NotifyChannelStore(db)
  }

  abstract deleteAllData(): Promise<void>
  abstract close(): Promise<void>
}
