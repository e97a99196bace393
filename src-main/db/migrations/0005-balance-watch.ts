import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Watching moves from per-address signature probes (10 credits an address) to
// balance observations read 100 accounts a call (1 credit): the watched accounts of each
// wallet with the value last observed on each, and per wallet when its token accounts
// were listed, its compressed balances checked and its backstop run; and the changes found.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema.dropTable('token_accounts').execute()
  await db.schema.dropTable('wallet_probe').execute()

  await db.schema
    .createTable('watched_accounts')
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('address', 'text', (c) => c.notNull())
    // 'wallet' (its lamports are observed) or 'token' (its token amount is observed).
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('wallet', 'token')`))
    .addColumn('mint', 'text')
    .addColumn('program', 'text')
    // Lamports or raw token amount as a decimal string; 'closed' when the account is gone;
    // null before the first observation.
    .addColumn('observed', 'text')
    .addPrimaryKeyConstraint('watched_accounts_pk', ['wallet_id', 'address'])
    .execute()

  await db.schema
    .createTable('wallet_watch')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    // When watching first looked at the wallet: how long its activity rate was measured.
    .addColumn('watched_since_sec', 'integer', (c) => c.notNull())
    .addColumn('token_accounts_listed_sec', 'integer')
    .addColumn('compressed_fingerprint', 'text')
    .addColumn('compressed_checked_sec', 'integer')
    .addColumn('backstop_checked_sec', 'integer')
    .execute()

  // Each change watching detected: what the cost projection learns the activity rate from.
  await db.schema
    .createTable('watch_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('wallet_id', 'integer', (c) =>
      c.notNull().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('detected_sec', 'integer', (c) => c.notNull())
    // Comma-separated reasons: balance, new-token-account, compressed, backstop-….
    .addColumn('reasons', 'text', (c) => c.notNull())
    .addColumn('sync_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createIndex('watch_changes_by_time')
    .on('watch_changes')
    .columns(['detected_sec'])
    .execute()
}
