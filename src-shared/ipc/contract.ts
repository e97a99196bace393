import { z } from 'zod'
import {
  AlertHistoryInput,
  AlertHistoryPage,
  AlertMarkReadInput,
  AlertMuteInput,
  AlertRuleIdInput,
  AlertRuleInput,
  AlertRuleView,
  AlertTrial,
  AlertTryInput,
  AlertView,
} from './alert-schemas'
import { AppInfo } from './app-schemas'
import { HealthStatus, KeptAsideInput, KeptAsideReport } from './health-schemas'
import {
  ExportCancelInput,
  ExportCancelResult,
  ExportChoosePathInput,
  ExportChosenPath,
  ExportPreview,
  ExportPreviewInput,
  ExportProgress,
  ExportResult,
  ExportRunInput,
} from './export-schemas'
import {
  CompressedPage,
  CompressedPageInput,
  CurrentBalances,
  HistoryCountInput,
  HistoryPage,
  HistoryPageInput,
  LatestActivityInput,
  LatestTransfer,
  MintOption,
  NftItem,
  RowCount,
  TransferPage,
  TransferCountInput,
  TransferPageInput,
  WalletInput,
  WalletProfile,
  WalletSummary,
  WatchReorderInput,
} from './review-schemas'
import {
  AppSettings,
  DataSource,
  DeleteAllInput,
  SetApiKeyInput,
  SetDataSourceInput,
  SettingsUpdate,
} from './settings-schemas'
import {
  ActivityNotice,
  WatchChange,
  CreditsOverview,
  NamesPass,
  StreamName,
  SyncDepthInput,
  SyncEstimate,
  SyncProgress,
  SyncStartInput,
  SyncWalletInput,
  WalletSyncOutcome,
  WalletSyncStatus,
} from './sync-schemas'
import type { TeamRole } from '../domain/team-roles'
import { WatchFootprint } from '../domain/watch-cost'
import { WatchCadenceChange, WatchCadenceView } from './watch-cadence-schemas'
import { DemoKept } from '../domain/first-own-wallet'
import { BudgetStatus } from '../domain/budget-status'
import {
  LookupAnswer,
  LookupCacheEntry,
  LookupPlan,
  LookupRequest,
  LookupRunInput,
  LookupWatchInput,
  RecogniseInput,
  Recognised,
} from './lookup-schemas'
import { MirrorSearchInput, MirrorSearchResult } from './search-schemas'
import {
  FirstSyncEstimate,
  FirstSyncEstimateInput,
  HistoryDepthView,
  OlderHistoryOutcome,
  OlderHistoryPlan,
  OlderHistoryPlanInput,
  OlderHistoryRunInput,
  SyncApproveInput,
} from './history-load-schemas'
import { FeedMarkViewedInput, FeedPage, FeedPageInput } from './feed-schemas'
import {
  BalanceAtInput,
  BalanceAtPlan,
  BalanceAtPlanInput,
  BalanceAtResult,
  AmountSeries,
  ValueSeries,
  WalletAmountSeriesInput,
  WatchlistAmountSeriesInput,
  WatchlistTotals,
  WholeWallet,
} from './wallet-schemas'
import {
  WebhookCreateInput,
  WebhookDeleteInput,
  WebhookFromWatchlistInput,
  WebhookIdInput,
  WebhookListing,
  WebhookModeStatus,
  WebhookPlan,
  WebhookPlanInput,
  WebhookToggleInput,
  WebhookUpdateInput,
  WebhookView,
} from './webhook-schemas'
import {
  DesktopAlert,
  NotifyAddInput,
  NotifyChannelView,
  NotifyNameInput,
  NotifyTestResult,
} from './notify-schemas'
import {
  DemoWalletsAdded,
  WatchAddInput,
  WatchedWallet,
  WatchRemoveInput,
  WatchRenameInput,
  WatchTagInput,
} from './watchlist-schemas'

/** What the contract says of one channel. */
export interface ChannelSpec {
  /** The schema its input must match (parsed in main before the handler runs). */
  input: z.ZodType
  /** The schema its result will match (checked in main before it is sent). */
  output: z.ZodType
  /**
   * The least role that may use it on the team server. Viewers read everything stored
   * (review, history, exports, credits, cached look-ups and webhooks) and spend no credits;
   * editors also change the watchlist, sync, settings and webhooks and run paid look-ups;
   * the API key, the data source and deleting all data are an admin's.
   */
  role: TeamRole
  /**
   * What a refused role cannot do, in the refusal's words ("manage the API key"), where
   * the channel's area says it wrongly (see refusalMessage in channel-roles.ts).
   */
  refusal?: string
}

/**
 * The IPC contract: every request the renderer can make, declared once, with the schema
 * its input must match, the schema its result will match and the least role that may make
 * it. Both shells bind the same handler table to it, the Electron preload and the web
 * shell's socket accept exactly its channels, the team server checks its roles, and the
 * renderer's client is typed by it: a new channel is one entry here, one handler and its
 * call sites. An entry without a role, or without a handler, does not compile.
 */
export const contract = {
  'app:info': { input: z.void(), output: AppInfo, role: 'viewer' },
  'watchlist:list': { input: z.void(), output: z.array(WatchedWallet), role: 'viewer' },
  'watchlist:add': { input: WatchAddInput, output: WatchedWallet, role: 'editor' },
  'watchlist:rename': { input: WatchRenameInput, output: WatchedWallet, role: 'editor' },
  'watchlist:remove': { input: WatchRemoveInput, output: z.void(), role: 'editor' },
  'watchlist:reorder': { input: WatchReorderInput, output: z.array(WatchedWallet), role: 'editor' },
  'watchlist:summaries': { input: z.void(), output: z.array(WalletSummary), role: 'viewer' },
  'wallet:profile': { input: WalletInput, output: WalletProfile, role: 'viewer' },
  // Marks what was seen (the "new" badges): bookkeeping of reading, not a change of data.
  'wallet:mark-viewed': { input: WalletInput, output: z.void(), role: 'viewer' },
  'history:page': { input: HistoryPageInput, output: HistoryPage, role: 'viewer' },
  'history:count': { input: HistoryCountInput, output: RowCount, role: 'viewer' },
  'history:mints': { input: WalletInput, output: z.array(MintOption), role: 'viewer' },
  'transfers:page': { input: TransferPageInput, output: TransferPage, role: 'viewer' },
  'transfers:count': { input: TransferCountInput, output: RowCount, role: 'viewer' },
  'balances:current': { input: WalletInput, output: CurrentBalances, role: 'viewer' },
  'nfts:list': { input: WalletInput, output: z.array(NftItem), role: 'viewer' },
  'compressed:page': { input: CompressedPageInput, output: CompressedPage, role: 'viewer' },
  'export:preview': { input: ExportPreviewInput, output: ExportPreview, role: 'viewer' },
  'export:run': { input: ExportRunInput, output: ExportResult, role: 'viewer' },
  'export:cancel': { input: ExportCancelInput, output: ExportCancelResult, role: 'viewer' },
  'export:choose-path': {
    input: ExportChoosePathInput,
    output: ExportChosenPath.nullable(),
    role: 'viewer',
  },
  'sync:start': { input: SyncStartInput, output: z.void(), role: 'editor' },
  'sync:run': { input: SyncWalletInput, output: WalletSyncOutcome, role: 'editor' },
  'sync:cancel': { input: SyncStartInput, output: z.void(), role: 'editor' },
  'sync:pause': { input: SyncWalletInput, output: z.void(), role: 'editor' },
  'sync:resume': { input: SyncWalletInput, output: z.void(), role: 'editor' },
  'sync:retry': {
    input: SyncWalletInput.extend({ stream: StreamName.optional() }),
    output: z.void(),
    role: 'editor',
  },
  'sync:status': { input: z.void(), output: z.array(WalletSyncStatus), role: 'viewer' },
  'sync:estimate': { input: SyncWalletInput, output: SyncEstimate, role: 'viewer' },
  'sync:set-depth': { input: SyncDepthInput, output: z.void(), role: 'editor' },
  'sync:name-counterparties': {
    input: z.void(),
    output: NamesPass,
    role: 'editor',
    refusal: 'spend credits naming counterparties',
  },
  'credits:overview': { input: z.void(), output: CreditsOverview, role: 'viewer' },
  /** The budgets, what is spent against them, and the month's projection at the cadence. */
  'credits:budget': { input: z.void(), output: BudgetStatus, role: 'viewer' },
  'watch:footprint': { input: z.void(), output: WatchFootprint, role: 'viewer' },
  /** The watching cadence with each clock's cost and how soon each change is seen (CLI `watch cadence`). */
  'watch:cadence': { input: z.void(), output: WatchCadenceView, role: 'viewer' },
  'watch:set-cadence': { input: WatchCadenceChange, output: WatchCadenceView, role: 'editor' },
  'settings:get': { input: z.void(), output: AppSettings, role: 'viewer' },
  'settings:update': { input: SettingsUpdate, output: AppSettings, role: 'editor' },
  'settings:set-api-key': {
    input: SetApiKeyInput,
    output: AppSettings,
    role: 'admin',
    refusal: 'manage the API key',
  },
  'settings:clear-api-key': {
    input: z.void(),
    output: AppSettings,
    role: 'admin',
    refusal: 'manage the API key',
  },
  'settings:set-data-source': {
    input: SetDataSourceInput,
    output: AppSettings,
    role: 'admin',
    refusal: 'switch the data source',
  },
  'data:delete-all': { input: DeleteAllInput, output: z.void(), role: 'admin' },
  'demo:add-wallets': { input: z.void(), output: DemoWalletsAdded, role: 'editor' },
  'wallet:whole': { input: WalletInput, output: WholeWallet, role: 'viewer' },
  'balances:at-plan': { input: BalanceAtPlanInput, output: BalanceAtPlan, role: 'viewer' },
  // Asks the service: spends credits.
  'balances:at': { input: BalanceAtInput, output: BalanceAtResult, role: 'editor' },
  'watchlist:totals': { input: z.void(), output: WatchlistTotals, role: 'viewer' },
  'wallet:value-series': { input: WalletInput, output: ValueSeries, role: 'viewer' },
  'wallet:amount-series': { input: WalletAmountSeriesInput, output: AmountSeries, role: 'viewer' },
  'watchlist:value-series': { input: z.void(), output: ValueSeries, role: 'viewer' },
  'watchlist:amount-series': {
    input: WatchlistAmountSeriesInput,
    output: AmountSeries,
    role: 'viewer',
  },
  'activity:latest': {
    input: LatestActivityInput,
    output: z.array(LatestTransfer),
    role: 'viewer',
  },
  'demo:wallets': { input: z.void(), output: z.array(z.string()), role: 'viewer' },
  /** Makes the demo data where it was never made (a command asked for the demo): no credits. */
  'demo:make': {
    input: z.void(),
    output: z.object({ wallets: z.number().int(), synced: z.number().int() }),
    role: 'editor',
  },
  'lookup:recognise': { input: RecogniseInput, output: Recognised, role: 'viewer' },
  /** The header search over the mirror: labels, names, tokens, id prefixes. Free, offline. */
  'lookup:search': { input: MirrorSearchInput, output: MirrorSearchResult, role: 'viewer' },
  'lookup:plan': { input: LookupRequest, output: LookupPlan, role: 'viewer' },
  'lookup:run': { input: LookupRunInput, output: LookupAnswer, role: 'editor' },
  /** The cached answer only: offline and free. */
  'lookup:cached': { input: LookupRequest, output: LookupAnswer.nullable(), role: 'viewer' },
  'lookup:recent': { input: z.void(), output: z.array(LookupCacheEntry), role: 'viewer' },
  'lookup:watch': { input: LookupWatchInput, output: WatchedWallet, role: 'editor' },
  'webhooks:plan': { input: WebhookPlanInput, output: WebhookPlan, role: 'viewer' },
  'webhooks:cached': { input: z.void(), output: WebhookListing, role: 'viewer' },
  // Listing and reading a webhook are service calls: they spend credits.
  'webhooks:list': {
    input: z.void(),
    output: WebhookListing,
    role: 'editor',
    refusal: 'fetch webhooks from the service (it spends credits)',
  },
  'webhooks:get': {
    input: WebhookIdInput,
    output: WebhookView,
    role: 'editor',
    refusal: 'fetch webhooks from the service (it spends credits)',
  },
  'webhooks:create': { input: WebhookCreateInput, output: WebhookView, role: 'editor' },
  'webhooks:create-from-watchlist': {
    input: WebhookFromWatchlistInput,
    output: WebhookView,
    role: 'editor',
  },
  'webhooks:update': { input: WebhookUpdateInput, output: WebhookView, role: 'editor' },
  'webhooks:toggle': { input: WebhookToggleInput, output: WebhookView, role: 'editor' },
  'webhooks:delete': { input: WebhookDeleteInput, output: z.void(), role: 'editor' },
  /** Webhook mode (a team server with a public URL): its state and its log. Reads only. */
  'webhooks:mode': { input: z.void(), output: WebhookModeStatus, role: 'viewer' },
  /** What stops or slows syncing now (the banner on every page, `status`'s first line). */
  'health:status': { input: z.void(), output: HealthStatus, role: 'viewer' },
  // What the edge kept aside of the service's answers (`heliograph doctor`).
  'health:kept-aside': { input: KeptAsideInput, output: KeptAsideReport, role: 'viewer' },
  'watchlist:tag': { input: WatchTagInput, output: WatchedWallet, role: 'editor' },
  'watchlist:untag': { input: WatchTagInput, output: WatchedWallet, role: 'editor' },
  /** Every watched wallet's transactions newest first, filtered, keyset-paged. Reads only. */
  'feed:page': { input: FeedPageInput, output: FeedPage, role: 'viewer' },
  /** Moves the viewer's "last viewed" mark: a note about reading, open to viewers. */
  'feed:mark-viewed': { input: FeedMarkViewedInput, output: z.void(), role: 'viewer' },
  'alerts:rules': { input: z.void(), output: z.array(AlertRuleView), role: 'viewer' },
  'alerts:add-rule': {
    input: AlertRuleInput,
    output: AlertRuleView,
    role: 'editor',
    refusal: 'manage alert rules',
  },
  'alerts:remove-rule': {
    input: AlertRuleIdInput,
    output: z.void(),
    role: 'editor',
    refusal: 'manage alert rules',
  },
  'alerts:mute-rule': {
    input: AlertMuteInput,
    output: AlertRuleView,
    role: 'editor',
    refusal: 'manage alert rules',
  },
  'alerts:history': { input: AlertHistoryInput, output: AlertHistoryPage, role: 'viewer' },
  'alerts:mark-read': {
    input: AlertMarkReadInput,
    output: z.object({ unread: z.number().int() }),
    role: 'viewer',
  },
  /** Whether a rule fits the mirror (its wallets, token, types and channels): the editor asks as the person types. */
  'alerts:check-rule': { input: AlertRuleInput, output: z.void(), role: 'viewer' },
  /** Tries a rule on the mirror's past: reads only, no credits. */
  'alerts:try': { input: AlertTryInput, output: AlertTrial, role: 'viewer' },
  /** Outbound alert channels, without their secrets. */
  'notify:list': { input: z.void(), output: z.array(NotifyChannelView), role: 'viewer' },
  // Channels send the team's alerts outside (and may reach its network): an admin's.
  'notify:add': {
    input: NotifyAddInput,
    output: NotifyChannelView,
    role: 'admin',
    refusal: 'manage alert channels',
  },
  'notify:remove': {
    input: NotifyNameInput,
    output: z.void(),
    role: 'admin',
    refusal: 'manage alert channels',
  },
  'notify:test': {
    input: NotifyNameInput,
    output: NotifyTestResult,
    role: 'admin',
    refusal: 'manage alert channels',
  },
  // Loading history: estimates before every spend, older history on request (issue 48).
  /** A first sync's estimate; looks at the wallet's size first (about 22 credits) unless it did lately. */
  'sync:first-sync-estimate': {
    input: FirstSyncEstimateInput,
    output: FirstSyncEstimate,
    role: 'editor',
    refusal: 'spend credits estimating a first sync',
  },
  /** The person agrees a wallet's pending load (first sync or older history) may take that many credits. */
  'sync:approve': {
    input: SyncApproveInput,
    output: z.void(),
    role: 'editor',
    refusal: 'agree to spend credits',
  },
  /** What a load of older history would do and cost: reads only. */
  'sync:older-plan': { input: OlderHistoryPlanInput, output: OlderHistoryPlan, role: 'viewer' },
  /** Loads older history (progress as `sync:progress`, cancelled by `sync:cancel`). */
  'sync:older': {
    input: OlderHistoryRunInput,
    output: OlderHistoryOutcome,
    role: 'editor',
    refusal: 'spend credits loading older history',
  },
  /** How much of a wallet's history the mirror holds, and the next load of older history. */
  'sync:history-depth': { input: WalletInput, output: HistoryDepthView, role: 'viewer' },
} as const satisfies Record<string, ChannelSpec>

/** Every channel name, e.g. `'watchlist:add'`. */
export type Channel = keyof typeof contract

/** What a caller passes to a channel (before parsing: trimming etc. happen in main). */
export type ChannelInput<C extends Channel> = z.input<(typeof contract)[C]['input']>

/** What a channel answers (after parsing). */
export type ChannelOutput<C extends Channel> = z.output<(typeof contract)[C]['output']>

/** Channel names as a list, for allow-lists in the preload and the web shell. */
export const CHANNELS = Object.keys(contract) as Channel[]

/** Tells whether a string names a channel of the contract. */
export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name)
}

/**
 * Push events from main to the renderer: name → payload schema. The renderer subscribes;
 * it never sends these.
 */
export const events = {
  'watchlist:changed': z.array(WatchedWallet),
  'watchlist:summaries': z.array(WalletSummary),
  'export:progress': ExportProgress,
  'sync:progress': SyncProgress,
  'sync:wallet-state': WalletSyncStatus,
  'sync:activity': ActivityNotice,
  /** Watching found a change in a wallet and synced it. */
  'watch:change': WatchChange,
  'app:network': z.object({ state: z.enum(['online', 'offline']) }),
  /** These alerts fired (each told once; each page then reads its own reader's unread count). */
  'alerts:fired': z.object({ alerts: z.array(AlertView) }),
  /** The data source was switched: every view reads another mirror now, so the page reloads. */
  'app:data-source': z.object({
    source: DataSource,
    /** Set when the person's first own wallet made the switch: what the demo keeps. */
    demoKept: DemoKept.optional(),
  }),
  /** A health condition was raised or resolved, or watching was fitted to the budget. */
  'health:changed': HealthStatus,
  /** An alert for the desktop: the web shell's page shows it as a browser notification. */
  'alerts:desktop': DesktopAlert,
} as const

/** Every event name. */
export type EventName = keyof typeof events

/** The payload of an event. */
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

/** Tells whether a string names a push event. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}
