import type { Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Webhook mode: the signatures deliveries carried, with when they arrived, so a
// delivery the service repeats (it retries, and may send a transaction twice) syncs once;
// and the mode's own log of what it did (registered, deliveries stopped, re-enabled), for
// the Activity page. Plain integer and text columns: the same migration runs on every engine.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('signature', 'text', (c) => c.primaryKey())
    .addColumn('received_at_sec', 'integer', (c) => c.notNull())
    // The watched wallets the transaction named, space-separated (for reading back only).
    .addColumn('wallet_addresses', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_received')
    .on('webhook_deliveries')
    .column('received_at_sec')
    .execute()
  await db.schema
    .createTable('webhook_mode_log')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at_sec', 'integer', (c) => c.notNull())
    // 'webhook' (deliveries working) or 'polling' (the fallback), after this line.
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .execute()
}
