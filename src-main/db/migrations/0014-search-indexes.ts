import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. The header search matches names without regard to case: an index on each
// lowered name makes an exact or prefix match one range read instead of a scan (the
// mirror names every counterparty it meets, tens of thousands in a busy one). Domains are
// kept as a JSON array; its lowered text puts the first domain at the start of the key.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await sql`create index address_names_name_lower on address_names (lower(name))`.execute(db)
  await sql`create index address_names_domains_lower on address_names (lower(domain_names_json))`.execute(
    db,
  )
  await sql`create index mints_symbol_lower on mints (lower(symbol))`.execute(db)
  await sql`create index mints_name_lower on mints (lower(name))`.execute(db)
}
