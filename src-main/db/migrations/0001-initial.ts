import { sql, type Kysely } from 'kysely'
import { isPostgres, withEngineColumnTypes } from './engine-column-types'

// Frozen: this migration describes the schema as it was when it was written. It never
// imports app code or the typed Database interface, so later changes cannot rewrite it.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  const nowSec = isPostgres(db) ? sql`(extract(epoch from now())::bigint)` : sql`(unixepoch())`
  await db.schema
    .createTable('wallets')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at_sec', 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('wallets_position').on('wallets').column('position').execute()

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value_json', 'text', (c) => c.notNull())
    .addColumn('updated_at_sec', 'integer', (c) => c.notNull().defaultTo(nowSec))
    .execute()
}
