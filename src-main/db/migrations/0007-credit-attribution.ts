import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Each ledger row also names the stream whose page it paid for, so per-wallet and
// per-stream credits are read from the ledger, the one record of what was spent. The
// per-stream counter in sync_streams was never written and goes.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  // Null: a call of no single stream (a wallet's mint look-up, a look over many wallets).
  await db.schema.alterTable('credit_ledger').addColumn('stream', 'text').execute()
  await sql`create index credit_ledger_wallet on credit_ledger (wallet_address, stream)`.execute(db)
  await db.schema.alterTable('sync_streams').dropColumn('credits_spent').execute()
}
