import { sql, type Kysely } from 'kysely'
import { isPostgres, withEngineColumnTypes } from './engine-column-types'

// Frozen. What the real service sends, kept as it is (the service's answers vary more than
// its interface text says):
// - balance_snapshot_items.price_usd / usd_value: null for a token the service does not
//   price ("unpriced"), never 0. SQLite cannot drop a NOT NULL, so its table is rebuilt
//   with the same columns, key and rows; PostgreSQL drops the constraint.
// - kept_aside: an item of a page the app could not read (one history entry, one transfer,
//   one holding), kept with its raw JSON and the reason while the rest of the page was
//   written. One row per wallet, stream and item (its signature or mint, else a hash of
//   its JSON); `written_at_sec` is set once a later version read it and wrote it.
// - transactions.source / description / nft_event_json: what an enhanced transaction (a
//   webhook delivery) says of itself: the program or marketplace, the service's sentence,
//   and its NFT sale event (price, buyer, seller, marketplace) as JSON.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await unpricedHoldings(migrationDb)

  await db.schema
    .createTable('kept_aside')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    // history | transfers | balances
    .addColumn('stream', 'text', (c) => c.notNull())
    // The operation that sent it: wallet.history, wallet.transfers, das.getAssetsByOwner, …
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('raw_json', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('first_seen_sec', 'integer', (c) => c.notNull())
    .addColumn('last_seen_sec', 'integer', (c) => c.notNull())
    .addColumn('seen_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('written_at_sec', 'integer')
    .addUniqueConstraint('kept_aside_item', ['wallet_id', 'stream', 'item_key'])
    .execute()
  await sql`create index kept_aside_unwritten on kept_aside (wallet_id, stream) where written_at_sec is null`.execute(
    db,
  )

  for (const column of ['source', 'description', 'nft_event_json'])
    await db.schema.alterTable('transactions').addColumn(column, 'text').execute()
}

/** Lets a holding's price and value be null. */
async function unpricedHoldings(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table balance_snapshot_items alter column price_usd drop not null, alter column usd_value drop not null`.execute(
      db,
    )
    return
  }
  // SQLite's documented way to change a column's constraint: a new table, the rows
  // copied, the old one dropped, the new one renamed (no index or view names it).
  await sql`
    create table balance_snapshot_items_new (
      snapshot_id integer not null references balance_snapshots (id) on delete cascade,
      mint text not null,
      balance real not null,
      balance_text text not null,
      decimals integer not null,
      price_usd real,
      usd_value real,
      token_program text not null,
      constraint balance_snapshot_items_pk primary key (snapshot_id, mint)
    )`.execute(db)
  await sql`insert into balance_snapshot_items_new select snapshot_id, mint, balance, balance_text, decimals, price_usd, usd_value, token_program from balance_snapshot_items`.execute(
    db,
  )
  await sql`drop table balance_snapshot_items`.execute(db)
  await sql`alter table balance_snapshot_items_new rename to balance_snapshot_items`.execute(db)
}
