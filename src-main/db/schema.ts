import type { Generated } from 'kysely'

/** The mirror's tables as Kysely sees them. Migrations define them; this only types them. */
export interface Database {
  wallets: WalletsTable
  settings: SettingsTable
  sync_streams: SyncStreamsTable
  transactions: TransactionsTable
  balance_changes: BalanceChangesTable
  transfers: TransfersTable
  balance_snapshots: BalanceSnapshotsTable
  balance_snapshot_items: BalanceSnapshotItemsTable
  balance_snapshot_nfts: BalanceSnapshotNftsTable
  mints: MintsTable
  compressed_signatures: CompressedSignaturesTable
  credit_ledger: CreditLedgerTable
  watch_schedule: WatchScheduleTable
  watched_accounts: WatchedAccountsTable
  wallet_watch: WalletWatchTable
  watch_changes: WatchChangesTable
  wallet_views: WalletViewsTable
  compressed_snapshots: CompressedSnapshotsTable
  compressed_snapshot_tokens: CompressedSnapshotTokensTable
  compressed_snapshot_accounts: CompressedSnapshotAccountsTable
  address_names: AddressNamesTable
  wallet_funding: WalletFundingTable
  lookup_cache: LookupCacheTable
  webhooks: WebhooksTable
  webhook_listing: WebhookListingTable
  sync_leases: SyncLeasesTable
  wallet_size_probes: WalletSizeProbesTable
  history_loads: HistoryLoadsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_mode_log: WebhookModeLogTable
  team_users: TeamUsersTable
  team_sessions: TeamSessionsTable
  team_changes: TeamChangesTable
  wallet_tags: WalletTagsTable
  alert_rules: AlertRulesTable
  alert_inbox: AlertInboxTable
  alerts: AlertsTable
  alert_deliveries: AlertDeliveriesTable
  alert_read_marks: AlertReadMarksTable
  notify_channels: NotifyChannelsTable
  health_conditions: HealthConditionsTable
  kept_aside: KeptAsideTable
}

export interface WalletsTable {
  id: Generated<number>
  address: string
  label: string | null
  /** Order in the sidebar, lowest first. */
  position: number
  added_at_sec: number
}

export interface SettingsTable {
  key: string
  value_json: string
  updated_at_sec: Generated<number>
}

/** 0/1 flags: SQLite has no boolean type. */
type Flag = number

export interface SyncStreamsTable {
  wallet_id: number
  stream: string
  state: Generated<string>
  newest_key: string | null
  backfill_cursor: string | null
  is_backfill_complete: Generated<Flag>
  gap_cursor: string | null
  depth_limit_count: number | null
  depth_limit_since_sec: number | null
  items_stored: Generated<number>
  pages_fetched: Generated<number>
  last_success_sec: number | null
  last_error: string | null
  last_error_at_sec: number | null
  is_paused: Generated<Flag>
  /** When a look-up read the top page "watch this wallet" wrote here (0010); null after a sync. */
  top_read_at_sec: number | null
}

export interface TransactionsTable {
  id: Generated<number>
  wallet_id: number
  signature: string
  slot: number
  block_time_sec: number | null
  fee: number
  fee_text: string
  fee_payer: string
  error: string | null
  is_failed: Flag
  change_count: number
  /** SWAP, TRANSFER, NFT_SALE, … as derived on writing or named by a delivery (0016); null before. */
  kind: string | null
  /**
   * A balance change with an amount above / below zero: History's direction filter (0019).
   * Derived on writing (transactionDirections); 0 by default.
   */
  has_change_in: Generated<Flag>
  has_change_out: Generated<Flag>
  /** A leg (a mint's change, the fee the wallet paid left out) in / out: the feed's (0019). */
  has_leg_in: Generated<Flag>
  has_leg_out: Generated<Flag>
  /**
   * What an enhanced transaction (a webhook delivery) says of itself (0022): its source
   * (program or marketplace), the service's sentence, and its NFT sale event as JSON; null
   * for transactions the history endpoint listed.
   */
  source: string | null
  description: string | null
  nft_event_json: string | null
}

export interface BalanceChangesTable {
  id: Generated<number>
  transaction_id: number
  wallet_id: number
  ordinal: number
  mint: string
  amount: number
  amount_text: string
  amount_raw: string | null
  decimals: number
  block_time_sec: number | null
  slot: number
}

export interface TransfersTable {
  id: Generated<number>
  wallet_id: number
  signature: string
  block_time_sec: number
  direction: string
  counterparty: string
  mint: string
  amount: number
  amount_text: string
  amount_raw: string
  decimals: number
  symbol: string | null
}

export interface BalanceSnapshotsTable {
  id: Generated<number>
  wallet_id: number
  taken_at_sec: number
  total_usd: number
  token_count: number
  nft_count: number
}

export interface BalanceSnapshotItemsTable {
  snapshot_id: number
  mint: string
  balance: number
  balance_text: string
  decimals: number
  /** Null for a token the service does not price (0022). */
  price_usd: number | null
  usd_value: number | null
  token_program: string
}

export interface BalanceSnapshotNftsTable {
  snapshot_id: number
  mint: string
  name: string
  image_uri: string
  collection_name: string
  collection_address: string
  is_compressed: Flag
}

export interface MintsTable {
  mint: string
  symbol: string | null
  name: string | null
  decimals: number | null
  logo_uri: string | null
  token_program: string | null
  price_usd: number | null
  updated_at_sec: number
}

export interface CompressedSignaturesTable {
  wallet_id: number
  kind: string
  signature: string
  slot: number
  block_time_sec: number
  error: string | null
}

export interface CreditLedgerTable {
  id: Generated<number>
  at_ms: number
  operation: string
  endpoint_class: string
  wallet_address: string | null
  stream: string | null
  credits: number
  status: string
  error_name: string | null
  duration_ms: number
  http_status: number | null
}

export interface WatchScheduleTable {
  wallet_id: number
  next_check_sec: number
  interval_sec: number
  last_checked_sec: number | null
  last_activity_sec: number | null
  is_paused: Generated<Flag>
}

/** An account watched for balance changes: the wallet itself or one of its token accounts (0005). */
export interface WatchedAccountsTable {
  wallet_id: number
  address: string
  kind: 'wallet' | 'token'
  mint: string | null
  program: string | null
  /** Lamports or raw token amount (decimal), 'closed', or null before the first observation. */
  observed: string | null
}

/** When a wallet's token accounts were listed, compressed balances checked, backstop run (0005). */
export interface WalletWatchTable {
  wallet_id: number
  watched_since_sec: number
  token_accounts_listed_sec: number | null
  compressed_fingerprint: string | null
  compressed_checked_sec: number | null
  backstop_checked_sec: number | null
}

/** A change watching detected, and what syncing it cost (0005). */
export interface WatchChangesTable {
  id: Generated<number>
  wallet_id: number
  detected_sec: number
  reasons: string
  sync_credits: Generated<number>
}

/** When the person last looked at a wallet page, and the newest block time they saw (0003). */
export interface WalletViewsTable {
  wallet_id: number
  seen_through_sec: number
  viewed_at_sec: number
}

/** A wallet's compressed state at one time (0006). */
export interface CompressedSnapshotsTable {
  id: Generated<number>
  wallet_id: number
  taken_at_sec: number
  lamports_raw: string
  account_count: number
  token_count: number
}

export interface CompressedSnapshotTokensTable {
  snapshot_id: number
  mint: string
  amount_raw: string
}

export interface CompressedSnapshotAccountsTable {
  snapshot_id: number
  hash: string
  address: string | null
  lamports_raw: string
  tree: string
  leaf_index: number
  slot_created: number
}

/** What the service calls an address, and when it was asked (0006). */
export interface AddressNamesTable {
  address: string
  status: 'named' | 'none' | 'unavailable'
  name: string | null
  type: string | null
  category: string | null
  tags_json: Generated<string>
  domain_names_json: Generated<string>
  fetched_at_sec: number
}

/** Who funded a wallet, fetched once (0006). */
export interface WalletFundingTable {
  wallet_id: number
  status: 'found' | 'none' | 'unavailable'
  funder: string | null
  funder_name: string | null
  funder_type: string | null
  mint: string | null
  symbol: string | null
  amount_raw: string | null
  decimals: number | null
  signature: string | null
  funded_at_sec: number | null
  fetched_at_sec: number
}

/** The look-up desk's answers, one per request key (0008). */
export interface LookupCacheTable {
  request_key: string
  view: string
  request_json: string
  answer_json: string
  calls_json: Generated<string>
  title: string
  fetched_at_sec: number
  credits: number
}

/** A webhook on the person's account as last fetched or changed (0009). */
export interface WebhooksTable {
  webhook_id: string
  position: number
  /** The service's webhook without its auth header, as JSON. */
  webhook_json: string
  is_auth_header_set: Flag
  fetched_at_sec: number
  /** When this app disabled it; null when it did not (an inactive one was auto-disabled). */
  disabled_here_at_sec: number | null
  reenabled_at_sec: number | null
}

/** When the webhooks were last listed (0009): one row. */
export interface WebhookListingTable {
  id: number
  listed_at_sec: number
}

/** Which sync worker holds which wallet, until when (0013). */
export interface SyncLeasesTable {
  wallet_address: string
  /** host:pid:random of the worker holding it. */
  holder: string
  acquired_at_ms: number
  expires_at_ms: number
}

/** The cheap look at a wallet before its first sync (0023), keyed by address. */
export interface WalletSizeProbesTable {
  address: string
  probed_at_sec: number
  signatures: number
  has_more_signatures: number
  oldest_signature_sec: number | null
  newest_signature_sec: number | null
  fungible_tokens: number | null
  nfts: number | null
  funded_at_sec: number | null
  /** The funded-by answer as the names store keeps it (WalletFunding), for the first sync. */
  funding_json: string | null
  credits: number
}

/** A wallet's load of history under way and what the person agreed to spend on it (0023). */
export interface HistoryLoadsTable {
  wallet_id: number
  /** 'first-sync' | 'older' */
  kind: string
  target_count: number | null
  target_since_sec: number | null
  approved_credits: number | null
  asked_at_sec: number
}

/** A transaction signature a webhook delivery carried, kept so a repeat syncs nothing (0012). */
export interface WebhookDeliveriesTable {
  signature: string
  received_at_sec: number
  /** The watched wallets it named, space-separated. */
  wallet_addresses: string
}

/** What webhook mode did and which mode it left watching in, for the Activity page (0012). */
export interface WebhookModeLogTable {
  id: Generated<number>
  at_sec: number
  mode: 'webhook' | 'polling'
  line: string
}

/** A team server account (0011): the password only as its Argon2id hash. */
export interface TeamUsersTable {
  name: string
  role: 'viewer' | 'editor' | 'admin'
  password_hash: string
  created_at_sec: number
  /** 1 while the password is one-time (0015): its sessions may only choose a new one. */
  is_password_one_time: Generated<Flag>
}

/** A signed-in session of the team server (0011): the SHA-256 of its token, never the token. */
export interface TeamSessionsTable {
  token_hash: string
  user_name: string
  created_at_sec: number
  last_seen_at_sec: number
}

/** The one row whose revision moves with every change to accounts and sessions (0025). */
export interface TeamChangesTable {
  id: number
  revision: number
}

/** A free-form tag on a watched wallet (0016). */
export interface WalletTagsTable {
  wallet_id: number
  tag: string
}

/** What to watch for (0016): a trigger with its options, a scope and channels. */
export interface AlertRulesTable {
  id: Generated<number>
  name: string
  trigger: string
  /** The trigger's options as JSON (src-shared/domain/alert-rules.ts). */
  options_json: string
  /** {"wallets": [...], "tags": [...]}; both empty = every watched wallet. */
  scope_json: string
  /** Outbound channel names, as a JSON array. */
  channels_json: string
  cooldown_sec: Generated<number>
  is_muted: Generated<Flag>
  created_at_sec: number
}

/** What sync wrote that the rules have not seen yet, written with the rows (0016). */
export interface AlertInboxTable {
  id: Generated<number>
  wallet_id: number
  transaction_id: number | null
  snapshot_id: number | null
  written_at_ms: number
}

/** The outbox: one row per alert, written with what caused it (0016). */
export interface AlertsTable {
  id: Generated<number>
  rule_id: number | null
  /** The rule's name when it fired, kept should the rule be removed. */
  rule_name: string | null
  kind: 'rule' | 'health'
  health_kind: string | null
  wallet_address: string | null
  signature: string | null
  fired_at_sec: number
  text: string
  detail_json: string
  match_count: Generated<number>
  /** A burst within the rule's cool-down gathers into the row until this time. */
  deliver_after_sec: number
  /** 0016's one read flag for everyone; read state is per reader since 0024 (alert_read_marks). */
  is_read: Generated<Flag>
  dedupe_key: string
  /** 1: written to be sent when its rule's cool-down ends; it fires (and is listed) then (0024). */
  waits_for_cooldown: Generated<Flag>
}

/** An alert's delivery state on one channel (0016): the delivery log. */
export interface AlertDeliveriesTable {
  alert_id: number
  /** A notify channel's name, or 'desktop'. */
  channel: string
  state: 'pending' | 'delivered' | 'failed' | 'gave-up'
  attempts: Generated<number>
  next_attempt_at_sec: number
  last_error: string | null
  delivered_at_sec: number | null
}

/** How far each reader has seen the alerts (0024): a mark in their order (fired time, id). */
export interface AlertReadMarksTable {
  /** A team account's name, or '' for the person at this machine. */
  reader: string
  fired_at_sec: number
  alert_id: number
}

/** An outbound alert channel (0016); its URL and secret live in the secret store. */
export interface NotifyChannelsTable {
  name: string
  format: 'json' | 'slack' | 'discord' | 'telegram'
  /** The URL with its secret parts removed, for showing. */
  url_shown: string
  chat_id: string | null
  is_private_network_allowed: Generated<Flag>
  created_at_sec: number
}

/** Why syncing stops or slows, while it lasts (0016). */
export interface HealthConditionsTable {
  kind: string
  since_sec: number
  detail: string
  resolved_at_sec: number | null
}

/**
 * An item of a page the app could not read, kept with its raw JSON and the reason while
 * the rest of its page was written (0022); written_at_sec is set once a later read wrote it.
 */
export interface KeptAsideTable {
  id: Generated<number>
  wallet_id: number
  stream: string
  operation: string
  /** Its signature or mint, else `json:` and a hash of its JSON. */
  item_key: string
  raw_json: string
  reason: string
  first_seen_sec: number
  last_seen_sec: number
  seen_count: Generated<number>
  written_at_sec: number | null
}
