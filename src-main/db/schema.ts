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
  token_accounts: TokenAccountsTable
  wallet_probe: WalletProbeTable
  wallet_views: WalletViewsTable
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
  credits_spent: Generated<number>
  last_success_sec: number | null
  last_error: string | null
  last_error_at_sec: number | null
  is_paused: Generated<Flag>
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
  price_usd: number
  usd_value: number
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

export interface TokenAccountsTable {
  wallet_id: number
  address: string
  mint: string
  newest_signature: string | null
  updated_at_sec: number
}

export interface WalletProbeTable {
  wallet_id: number
  newest_signature: string | null
  token_accounts_checked_sec: number | null
}

/** When the person last looked at a wallet page, and the newest block time they saw (0003). */
export interface WalletViewsTable {
  wallet_id: number
  seen_through_sec: number
  viewed_at_sec: number
}
