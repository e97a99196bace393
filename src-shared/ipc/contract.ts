import { z } from 'zod'
import { AppInfo } from './app-schemas'
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
import { WatchFootprint } from '../domain/watch-cost'
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
  DemoWalletsAdded,
  WatchAddInput,
  WatchedWallet,
  WatchRemoveInput,
  WatchRenameInput,
} from './watchlist-schemas'

/**
 * The IPC contract: every request the renderer can make, with the schema its input must
 * match and the schema its result will match. Both shells bind the same handler table to
 * it and the renderer's client is typed by it, so a new channel is one entry here, one
 * handler and one call site.
 */
export const contract = {
  'app:info': { input: z.void(), output: AppInfo },
  'watchlist:list': { input: z.void(), output: z.array(WatchedWallet) },
  'watchlist:add': { input: WatchAddInput, output: WatchedWallet },
  'watchlist:rename': { input: WatchRenameInput, output: WatchedWallet },
  'watchlist:remove': { input: WatchRemoveInput, output: z.void() },
  'watchlist:reorder': { input: WatchReorderInput, output: z.array(WatchedWallet) },
  'watchlist:summaries': { input: z.void(), output: z.array(WalletSummary) },
  'wallet:profile': { input: WalletInput, output: WalletProfile },
  'wallet:mark-viewed': { input: WalletInput, output: z.void() },
  'history:page': { input: HistoryPageInput, output: HistoryPage },
  'history:count': { input: HistoryCountInput, output: RowCount },
  'history:mints': { input: WalletInput, output: z.array(MintOption) },
  'transfers:page': { input: TransferPageInput, output: TransferPage },
  'transfers:count': { input: TransferCountInput, output: RowCount },
  'balances:current': { input: WalletInput, output: CurrentBalances },
  'nfts:list': { input: WalletInput, output: z.array(NftItem) },
  'compressed:page': { input: CompressedPageInput, output: CompressedPage },
  'export:preview': { input: ExportPreviewInput, output: ExportPreview },
  'export:run': { input: ExportRunInput, output: ExportResult },
  'export:cancel': { input: ExportCancelInput, output: ExportCancelResult },
  'export:choose-path': { input: ExportChoosePathInput, output: ExportChosenPath.nullable() },
  'sync:start': { input: SyncStartInput, output: z.void() },
  'sync:run': { input: SyncWalletInput, output: WalletSyncOutcome },
  'sync:cancel': { input: SyncStartInput, output: z.void() },
  'sync:pause': { input: SyncWalletInput, output: z.void() },
  'sync:resume': { input: SyncWalletInput, output: z.void() },
  'sync:retry': {
    input: SyncWalletInput.extend({ stream: StreamName.optional() }),
    output: z.void(),
  },
  'sync:status': { input: z.void(), output: z.array(WalletSyncStatus) },
  'sync:estimate': { input: SyncWalletInput, output: SyncEstimate },
  'sync:set-depth': { input: SyncDepthInput, output: z.void() },
  'sync:name-counterparties': { input: z.void(), output: NamesPass },
  'credits:overview': { input: z.void(), output: CreditsOverview },
  'watch:footprint': { input: z.void(), output: WatchFootprint },
  'settings:get': { input: z.void(), output: AppSettings },
  'settings:update': { input: SettingsUpdate, output: AppSettings },
  'settings:set-api-key': { input: SetApiKeyInput, output: AppSettings },
  'settings:clear-api-key': { input: z.void(), output: AppSettings },
  'settings:set-data-source': { input: SetDataSourceInput, output: AppSettings },
  'data:delete-all': { input: DeleteAllInput, output: z.void() },
  'demo:add-wallets': { input: z.void(), output: DemoWalletsAdded },
  'wallet:whole': { input: WalletInput, output: WholeWallet },
  'balances:at-plan': { input: BalanceAtPlanInput, output: BalanceAtPlan },
  'balances:at': { input: BalanceAtInput, output: BalanceAtResult },
  'watchlist:totals': { input: z.void(), output: WatchlistTotals },
  'wallet:value-series': { input: WalletInput, output: ValueSeries },
  'wallet:amount-series': { input: WalletAmountSeriesInput, output: AmountSeries },
  'watchlist:value-series': { input: z.void(), output: ValueSeries },
  'watchlist:amount-series': { input: WatchlistAmountSeriesInput, output: AmountSeries },
  'activity:latest': { input: LatestActivityInput, output: z.array(LatestTransfer) },
  'demo:wallets': { input: z.void(), output: z.array(z.string()) },
  'lookup:recognise': { input: RecogniseInput, output: Recognised },
  'lookup:plan': { input: LookupRequest, output: LookupPlan },
  'lookup:run': { input: LookupRunInput, output: LookupAnswer },
  /** The cached answer only: offline and free. */
  'lookup:cached': { input: LookupRequest, output: LookupAnswer.nullable() },
  'lookup:recent': { input: z.void(), output: z.array(LookupCacheEntry) },
  'lookup:watch': { input: LookupWatchInput, output: WatchedWallet },
  'webhooks:plan': { input: WebhookPlanInput, output: WebhookPlan },
  'webhooks:cached': { input: z.void(), output: WebhookListing },
  'webhooks:list': { input: z.void(), output: WebhookListing },
  'webhooks:get': { input: WebhookIdInput, output: WebhookView },
  'webhooks:create': { input: WebhookCreateInput, output: WebhookView },
  'webhooks:create-from-watchlist': { input: WebhookFromWatchlistInput, output: WebhookView },
  'webhooks:update': { input: WebhookUpdateInput, output: WebhookView },
  'webhooks:toggle': { input: WebhookToggleInput, output: WebhookView },
  'webhooks:delete': { input: WebhookDeleteInput, output: z.void() },
  /** Webhook mode (a team server with a public URL): its state and its log. Reads only. */
  'webhooks:mode': { input: z.void(), output: WebhookModeStatus },
} as const

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
  /** The data source was switched: every view reads another mirror now, so the page reloads. */
  'app:data-source': z.object({ source: DataSource }),
} as const

/** Every event name. */
export type EventName = keyof typeof events

/** The payload of an event. */
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

/** Tells whether a string names a push event. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name)
}
