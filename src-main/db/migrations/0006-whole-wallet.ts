import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. The whole wallet: its compressed state per snapshot (compressed SOL, compressed
// token balances, compressed accounts), the names the service knows for addresses (the
// watched wallets and the counterparties of their history), and who funded each wallet.
// Amounts are exact integer text in the smallest unit; times are UTC seconds.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('compressed_snapshots')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('taken_at_sec', 'integer', (c) => c.notNull())
    // getCompressedBalanceByOwner: lamports held in the wallet's compressed accounts.
    .addColumn('lamports_raw', 'text', (c) => c.notNull())
    .addColumn('account_count', 'integer', (c) => c.notNull())
    .addColumn('token_count', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('compressed_snapshots_by_wallet')
    .on('compressed_snapshots')
    .columns(['wallet_id', 'taken_at_sec'])
    .execute()

  await db.schema
    .createTable('compressed_snapshot_tokens')
    .addColumn('snapshot_id', 'integer', (c) =>
      c.notNull().references('compressed_snapshots.id').onDelete('cascade'),
    )
    .addColumn('mint', 'text', (c) => c.notNull())
    .addColumn('amount_raw', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('compressed_snapshot_tokens_pk', ['snapshot_id', 'mint'])
    .execute()

  await db.schema
    .createTable('compressed_snapshot_accounts')
    .addColumn('snapshot_id', 'integer', (c) =>
      c.notNull().references('compressed_snapshots.id').onDelete('cascade'),
    )
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('lamports_raw', 'text', (c) => c.notNull())
    .addColumn('tree', 'text', (c) => c.notNull())
    .addColumn('leaf_index', 'integer', (c) => c.notNull())
    .addColumn('slot_created', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('compressed_snapshot_accounts_pk', ['snapshot_id', 'hash'])
    .execute()

  // What the service calls an address (identity / batch-identity). A row is also kept when
  // it knew no name ('none') or could not say ('unavailable', e.g. a plan without the
  // endpoint), so the same address is not asked again within the refresh period.
  await db.schema
    .createTable('address_names')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('named', 'none', 'unavailable')`),
    )
    .addColumn('name', 'text')
    .addColumn('type', 'text')
    .addColumn('category', 'text')
    .addColumn('tags_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('domain_names_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('fetched_at_sec', 'integer', (c) => c.notNull())
    .execute()

  // Who funded a wallet (funded-by): its first incoming SOL transfer, which cannot change,
  // so it is fetched once. status 'none' = the service found no funder.
  await db.schema
    .createTable('wallet_funding')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('found', 'none', 'unavailable')`),
    )
    .addColumn('funder', 'text')
    .addColumn('funder_name', 'text')
    .addColumn('funder_type', 'text')
    .addColumn('mint', 'text')
    .addColumn('symbol', 'text')
    .addColumn('amount_raw', 'text')
    .addColumn('decimals', 'integer')
    .addColumn('signature', 'text')
    .addColumn('funded_at_sec', 'integer')
    .addColumn('fetched_at_sec', 'integer', (c) => c.notNull())
    .execute()
}
