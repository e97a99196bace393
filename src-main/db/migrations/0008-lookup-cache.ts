import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. The look-up desk's cache: one answer per request (view + normalised parameters
// as JSON), with the calls that produced it so they can be replayed into the mirror when
// the wallet is watched, when it was fetched and what it cost (the ledger's figure).

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('lookup_cache')
    .addColumn('request_key', 'text', (c) => c.primaryKey())
    .addColumn('view', 'text', (c) => c.notNull())
    .addColumn('request_json', 'text', (c) => c.notNull())
    .addColumn('answer_json', 'text', (c) => c.notNull())
    // Each service call of the fetch: operation, input and answer (or the error's name).
    .addColumn('calls_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('fetched_at_sec', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .execute()
  await sql`create index lookup_cache_recent on lookup_cache (fetched_at_sec desc)`.execute(db)
  // A pasted id is recognised by looking it up in these: indexed, so recognising stays instant.
  await sql`create index balance_snapshot_nfts_mint on balance_snapshot_nfts (mint)`.execute(db)
  await sql`create index compressed_snapshot_accounts_hash on compressed_snapshot_accounts (hash)`.execute(
    db,
  )
}
