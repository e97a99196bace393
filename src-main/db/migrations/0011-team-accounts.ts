import { sql, type Kysely } from 'kysely'
import { withEngineColumnTypes } from './engine-column-types'

// Frozen. The team server's accounts and sign-in sessions. A password is kept only as its
// Argon2id hash (PHC string); a session only as the SHA-256 of its cookie token, so a copy
// of the database opens no account and rides no session.

export async function up(migrationDb: Kysely<unknown>): Promise<void> {
  const db = withEngineColumnTypes(migrationDb)
  await db.schema
    .createTable('team_users')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('viewer', 'editor', 'admin')`))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at_sec', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('team_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_name', 'text', (c) =>
      c.notNull().references('team_users.name').onDelete('cascade'),
    )
    .addColumn('created_at_sec', 'integer', (c) => c.notNull())
    .addColumn('last_seen_at_sec', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('team_sessions_user')
    .on('team_sessions')
    .column('user_name')
    .execute()
}
