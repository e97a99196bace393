import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Alerts: what the watchtower says and where.
// - wallet_tags: free-form tags on watched wallets, for filters, the feed, export and rule
//   scopes.
// - transactions.kind: the transaction's type (SWAP, TRANSFER, NFT_SALE, …) as the writer
//   derived it from the wallet's balance changes, or as a webhook delivery named it; null
//   for rows written before this migration (read as unknown).
// - transactions_feed: the feed pages every watched wallet's transactions newest first.
// - alert_rules: what to watch for (a trigger with its options, a scope, channels).
// - alert_inbox: what sync wrote that the rules have not yet seen, written in the same
//   transaction as the rows themselves, and consumed in the one that writes their alerts:
//   a crash between the two leaves it to be evaluated at the next start.
// - alerts: the outbox. One row per alert, written with what caused it; a burst within a
//   rule's cool-down gathers into the pending row until deliver_after_sec.
// - alert_deliveries: each alert's state per channel (the delivery log).
// - notify_channels: outbound channels; their secrets live in the secret store, not here.
// - health_conditions: why syncing stops or slows, while it lasts.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('wallet_tags')
    .addColumn('wallet_id', 'integer', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('wallet_tags_pk', ['wallet_id', 'tag'])
    .execute()
  await db.schema.createIndex('wallet_tags_tag').on('wallet_tags').columns(['tag']).execute()

  await db.schema.alterTable('transactions').addColumn('kind', 'text').execute()
  await sql`create index transactions_feed on transactions (slot, id)`.execute(db)

  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    // activity | incoming | outgoing | balance-below | balance-above | new-token | nft-in |
    // nft-out | type | failed | wakes | new-counterparty | cluster
    .addColumn('trigger', 'text', (c) => c.notNull())
    // The trigger's options as JSON (token, min, max, minUsd, maxUsd, types, idleDays, …).
    .addColumn('options_json', 'text', (c) => c.notNull())
    // {"wallets": [addresses], "tags": [tags]}; both empty = every watched wallet.
    .addColumn('scope_json', 'text', (c) => c.notNull())
    // Outbound channel names; the app itself (and the desktop) always hears.
    .addColumn('channels_json', 'text', (c) => c.notNull())
    .addColumn('cooldown_sec', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_muted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at_sec', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('alert_inbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) => c.notNull())
    // A new transaction (transaction_id) or a new balances snapshot (snapshot_id).
    .addColumn('transaction_id', 'integer')
    .addColumn('snapshot_id', 'integer')
    .addColumn('written_at_ms', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    // null for a health alert.
    .addColumn('rule_id', 'integer')
    // The rule's name when it fired, kept should the rule be removed.
    .addColumn('rule_name', 'text')
    // 'rule' or 'health'
    .addColumn('kind', 'text', (c) => c.notNull())
    // For a health alert: budget-80 | budget-100 | key-rejected | rate-limited | unreachable
    // | disk-full | database-locked | postgres-unreachable | … (and '-resolved' when it ends).
    .addColumn('health_kind', 'text')
    .addColumn('wallet_address', 'text')
    // The first transaction that caused it; null for a balance, cluster or health alert.
    .addColumn('signature', 'text')
    .addColumn('fired_at_sec', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // What caused it, for channels and the history: amounts, symbols, signatures, counts.
    .addColumn('detail_json', 'text', (c) => c.notNull())
    // Matches gathered into it during the cool-down.
    .addColumn('match_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('deliver_after_sec', 'integer', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    // Keeps one alert per rule and cause: `${rule}:${signature}` and the like.
    .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
    .execute()
  await db.schema.createIndex('alerts_fired').on('alerts').columns(['fired_at_sec', 'id']).execute()
  await db.schema.createIndex('alerts_rule').on('alerts').columns(['rule_id', 'id']).execute()

  await db.schema
    .createTable('alert_deliveries')
    .addColumn('alert_id', 'integer', (c) => c.notNull())
    // A notify channel's name, or 'desktop'.
    .addColumn('channel', 'text', (c) => c.notNull())
    // pending | delivered | failed (will retry) | gave-up
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at_sec', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('delivered_at_sec', 'integer')
    .addPrimaryKeyConstraint('alert_deliveries_pk', ['alert_id', 'channel'])
    .execute()
  await db.schema
    .createIndex('alert_deliveries_due')
    .on('alert_deliveries')
    .columns(['state', 'next_attempt_at_sec'])
    .execute()

  await db.schema
    .createTable('notify_channels')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // json | slack | discord | telegram
    .addColumn('format', 'text', (c) => c.notNull())
    // The URL with any secret part removed, for showing; the full URL is in the secret store.
    .addColumn('url_shown', 'text', (c) => c.notNull())
    // Telegram's chat id; null for the others.
    .addColumn('chat_id', 'text')
    // 1 when an admin chose to allow a private-network address.
    .addColumn('is_private_network_allowed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at_sec', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('health_conditions')
    .addColumn('kind', 'text', (c) => c.primaryKey())
    .addColumn('since_sec', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('resolved_at_sec', 'integer')
    .execute()
}
