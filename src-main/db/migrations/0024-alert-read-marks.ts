import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Read state per reader, and alerts that wait for their rule's cool-down.
// - alert_read_marks: what each account of the team server (and the person at this
//   machine, reader '') has seen of the alerts, as a mark in the alerts' order (fired time,
//   then id), as the feed keeps its last-viewed mark. An alert above a reader's mark is
//   unread for that reader alone; `alerts.is_read` (0016), one flag for everyone, is no
//   longer read. The person at this machine keeps what they had read: the mark starts at
//   the newest alert they had marked read.
// - alerts.waits_for_cooldown: 1 for an alert written to be sent when its rule's cool-down
//   ends (gathering the matches until then); it fires, and is listed, from that time.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('alert_read_marks')
    // A team account's name, or '' for the person at this machine (no account).
    .addColumn('reader', 'text', (c) => c.primaryKey())
    .addColumn('fired_at_sec', 'integer', (c) => c.notNull())
    .addColumn('alert_id', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .alterTable('alerts')
    .addColumn('waits_for_cooldown', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await sql`
    insert into alert_read_marks (reader, fired_at_sec, alert_id)
    select '', fired_at_sec, id from alerts where is_read = 1
    order by fired_at_sec desc, id desc
    limit 1
  `.execute(db)
}
