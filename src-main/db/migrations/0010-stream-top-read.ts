import type { Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. When a look-up read a stream's top (newest) page that "watch this wallet" then
// wrote into the stream: the first sync trusts a top read moments ago instead of buying
// the same page again. Null for every stream a look-up did not hand over, and once a
// sync has run the stream.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema.alterTable('sync_streams').addColumn('top_read_at_sec', 'integer').execute()
}
