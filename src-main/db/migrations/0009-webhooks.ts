import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. The webhooks on the person's account as last listed or changed, so the Webhooks
// page opens offline with when they were fetched. The auth header is a secret and is not
// kept, only whether one is set. The service reports only `active`: whether this app
// disabled a webhook, and when it re-enabled one, tell an automatic disable apart.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('webhooks')
    .addColumn('webhook_id', 'text', (c) => c.primaryKey())
    // Order of the service's list.
    .addColumn('position', 'integer', (c) => c.notNull())
    // The service's webhook without its auth header, as JSON.
    .addColumn('webhook_json', 'text', (c) => c.notNull())
    .addColumn('is_auth_header_set', 'integer', (c) =>
      c.notNull().check(sql`is_auth_header_set in (0, 1)`),
    )
    .addColumn('fetched_at_sec', 'integer', (c) => c.notNull())
    .addColumn('disabled_here_at_sec', 'integer')
    .addColumn('reenabled_at_sec', 'integer')
    .execute()
  await db.schema
    .createTable('webhook_listing')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('listed_at_sec', 'integer', (c) => c.notNull())
    .execute()
}
