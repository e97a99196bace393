import type { Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Which sync worker holds which wallet, until when: workers sharing one mirror
// split the watched wallets by taking leases here, and a worker that dies loses its
// leases once they expire. Keyed by address rather than a wallets row, so that the
// table stands alone. Times are milliseconds since the epoch (bigint on PostgreSQL).

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('sync_leases')
    .addColumn('wallet_address', 'text', (c) => c.primaryKey())
    // host:pid:random of the worker holding it.
    .addColumn('holder', 'text', (c) => c.notNull())
    // When this holder took it; renewing keeps it.
    .addColumn('acquired_at_ms', 'integer', (c) => c.notNull())
    .addColumn('expires_at_ms', 'integer', (c) => c.notNull())
    .execute()
  // Each worker renews, lists and releases its own leases.
  await db.schema.createIndex('sync_leases_holder').on('sync_leases').column('holder').execute()
}
