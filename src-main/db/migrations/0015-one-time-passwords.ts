import type { Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. Whether an account's password is one-time (printed by `user add` or `user passwd`
// for an admin to pass on): such a session may only choose a new password. Every account
// before this migration signs in with the one-time password `user add` printed, so the
// default (1) asks each to choose its own at its next request.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .alterTable('team_users')
    .addColumn('is_password_one_time', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
}
