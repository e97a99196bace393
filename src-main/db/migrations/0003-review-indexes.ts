import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen: what the review views need beyond 0002. Never imports app code or the typed
// Database interface.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  // Newest block time the person has seen for the wallet: the sidebar's new-activity
  // badge counts transactions after it. Block time, not wall time, so it also holds for
  // a simulator whose chain clock differs from the machine's.
  await db.schema
    .createTable('wallet_views')
    .addColumn('wallet_id', 'integer', (c) =>
      c.primaryKey().references('wallets.id').onDelete('cascade'),
    )
    .addColumn('seen_through_sec', 'integer', (c) => c.notNull())
    .addColumn('viewed_at_sec', 'integer', (c) => c.notNull())
    .execute()

  // "Failed only" in History: a small partial index walked in keyset order, instead of
  // scanning every transaction of the wallet for the few that failed.
  await sql`create index transactions_wallet_failed_time on transactions (wallet_id, block_time_sec, slot, signature) where is_failed = 1`.execute(
    db,
  )

  // The Compressed tab lists both kinds together by slot, newest first.
  await sql`create index compressed_signatures_wallet_slot_all on compressed_signatures (wallet_id, slot, signature, kind)`.execute(
    db,
  )
}
