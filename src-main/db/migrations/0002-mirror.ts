import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen: the mirror's tables as first designed. Never imports app code or the typed
// Database interface. Amounts keep the service's exact text beside the number (ARCHITECTURE,
// "Data rules"); times are UTC seconds.

// `up` runs the groups below in order; each group's statements are those of the first
// design, in their first order.
export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await createSyncStreams(db)
  await createHistory(db)
  await createTransfers(db)
  await createHoldings(db)
  await createMintsAndCompressed(db)
  await createLedgerAndWatching(db)
}

/** Each stream's cursor row. */
async function createSyncStreams(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sync_streams')
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('idle'))
    // Newest item stored (a signature, or a transfer/compression cursor key).
    .addColumn('newest_key', 'text')
    // Where the newest→oldest backfill continues (the service's `before`/cursor value).
    .addColumn('backfill_cursor', 'text')
    .addColumn('is_backfill_complete', 'integer', (c) => c.notNull().defaultTo(0))
    // Newest-first streams walk down from the top to the first known item; if a walk is
    // cut short, this is where it resumes, so no gap is left between new and old items.
    .addColumn('gap_cursor', 'text')
    .addColumn('depth_limit_count', 'integer')
    .addColumn('depth_limit_since_sec', 'integer')
    .addColumn('items_stored', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_fetched', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_spent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_success_sec', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at_sec', 'integer')
    .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('sync_streams_pk', ['wallet_id', 'stream'])
    .execute()
}

/** History: transactions and their balance changes. */
async function createHistory(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transactions')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    // Null when the service does not know the block time (history `timestamp` may be null).
    .addColumn('block_time_sec', 'integer')
    .addColumn('fee', 'real', (c) => c.notNull())
    .addColumn('fee_text', 'text', (c) => c.notNull())
    .addColumn('fee_payer', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('is_failed', 'integer', (c) => c.notNull())
    .addColumn('change_count', 'integer', (c) => c.notNull())
    .execute()
  await sql`create unique index transactions_wallet_signature on transactions (wallet_id, signature)`.execute(
    db,
  )
  // Keyset pagination of the History view, newest first and oldest first.
  await sql`create index transactions_wallet_time on transactions (wallet_id, block_time_sec, slot, signature)`.execute(
    db,
  )
  await sql`create index transactions_signature on transactions (signature)`.execute(db)

  await db.schema
    .createTable('balance_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('transaction_id', 'integer', (c) =>
      c.notNull().references('transactions.id').onDelete('cascade'),
    )
    .addColumn('wallet_id', 'integer', (c) => c.notNull())
    // Position in the entry's balanceChanges array: the natural key with the transaction.
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('amount', 'real', (c) => c.notNull())
    .addColumn('amount_text', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'text')
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('block_time_sec', 'integer')
    .addColumn('slot', 'integer', (c) => c.notNull())
    .execute()
  await sql`create unique index balance_changes_tx_ordinal on balance_changes (transaction_id, ordinal)`.execute(
    db,
  )
  await sql`create index balance_changes_wallet_mint_time on balance_changes (wallet_id, mint, block_time_sec, slot)`.execute(
    db,
  )
  await sql`create index balance_changes_wallet_time on balance_changes (wallet_id, block_time_sec, slot)`.execute(
    db,
  )
}

/** Transfers. */
async function createTransfers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('block_time_sec', 'integer', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text', (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('amount', 'real', (c) => c.notNull())
    .addColumn('amount_text', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('symbol', 'text')
    .execute()
  // Transfers carry no id of their own: this natural key makes a refetched page a no-op.
  await sql`create unique index transfers_natural_key on transfers (wallet_id, signature, mint, direction, counterparty, amount_raw)`.execute(
    db,
  )
  await sql`create index transfers_wallet_time on transfers (wallet_id, block_time_sec, signature)`.execute(
    db,
  )
  await sql`create index transfers_wallet_mint on transfers (wallet_id, mint, block_time_sec)`.execute(
    db,
  )
  await sql`create index transfers_counterparty on transfers (counterparty)`.execute(db)
}

/** Balance snapshots: fungible holdings and NFTs. */
async function createHoldings(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_snapshots')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('taken_at_sec', 'integer', (c) => c.notNull())
    .addColumn('total_usd', 'real', (c) => c.notNull())
    .addColumn('token_count', 'integer', (c) => c.notNull())
    .addColumn('nft_count', 'integer', (c) => c.notNull())
    .execute()
  await sql`create index balance_snapshots_wallet_time on balance_snapshots (wallet_id, taken_at_sec)`.execute(
    db,
  )

  await db.schema
    .createTable('balance_snapshot_items')
    .addColumn('snapshot_id', 'integer', (c) =>
      c.notNull().references('balance_snapshots.id').onDelete('cascade'),
    )
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('balance', 'real', (c) => c.notNull())
    .addColumn('balance_text', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('price_usd', 'real', (c) => c.notNull())
    .addColumn('usd_value', 'real', (c) => c.notNull())
    .addColumn('token_program', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('balance_snapshot_items_pk', ['snapshot_id', 'mint'])
    .execute()

  await db.schema
    .createTable('balance_snapshot_nfts')
    .addColumn('snapshot_id', 'integer', (c) =>
      c.notNull().references('balance_snapshots.id').onDelete('cascade'),
    )
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image_uri', 'text', (c) => c.notNull())
    .addColumn('collection_name', 'text', (c) => c.notNull())
    .addColumn('collection_address', 'text', (c) => c.notNull())
    .addColumn('is_compressed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('balance_snapshot_nfts_pk', ['snapshot_id', 'mint'])
    .execute()
}

/** Mint metadata and compressed-account signatures. */
async function createMintsAndCompressed(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mints')
    .addColumn('mint', 'text', (c) => c.primaryKey())
    .addColumn('symbol', 'text')
    .addColumn('name', 'text')
    .addColumn('decimals', 'integer')
    .addColumn('logo_uri', 'text')
    .addColumn('token_program', 'text')
    .addColumn('price_usd', 'real')
    .addColumn('updated_at_sec', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('compressed_signatures')
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    // 'owner' or 'token-owner': the two compression signature methods.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('block_time_sec', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('compressed_signatures_pk', ['wallet_id', 'kind', 'signature'])
    .execute()
  await sql`create index compressed_signatures_wallet_slot on compressed_signatures (wallet_id, kind, slot)`.execute(
    db,
  )
}

/** The credit ledger, the watch schedule, token accounts and the balance probe. */
async function createLedgerAndWatching(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at_ms', 'integer', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('endpoint_class', 'text', (c) => c.notNull())
    // Plain address, not a foreign key: the ledger outlives removed wallets.
    .addColumn('wallet_address', 'text')
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_name', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .execute()
  await sql`create index credit_ledger_time on credit_ledger (at_ms)`.execute(db)

  await db.schema
    .createTable('watch_schedule')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('next_check_sec', 'integer', (c) => c.notNull())
    .addColumn('interval_sec', 'integer', (c) => c.notNull())
    .addColumn('last_checked_sec', 'integer')
    .addColumn('last_activity_sec', 'integer')
    // Paused by the person: the scheduler skips the wallet until resumed.
    .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('token_accounts')
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('mint', 'text', (c) => c.notNull())
    // Newest signature seen by the change probe on this account.
    .addColumn('newest_signature', 'text')
    .addColumn('updated_at_sec', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('token_accounts_pk', ['wallet_id', 'address'])
    .execute()

  await db.schema
    .createTable('wallet_probe')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('newest_signature', 'text')
    .addColumn('token_accounts_checked_sec', 'integer')
    .execute()
}
