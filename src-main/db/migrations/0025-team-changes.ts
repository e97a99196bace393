import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. One counter that every change to who may do what moves (an account removed, a
// role or password changed, a session ended): a team server keeps its sessions in memory
// and reads this one row to know when to look at the accounts again.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('team_changes')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute()
  await db
    .insertInto('team_changes' as never)
    .values({ id: 1, revision: 0 } as never)
    .execute()
}
