import type { KyselyPlugin } from 'kysely'
import type { Migration } from 'kysely/migration'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { migrations } from '../../../src-main/db/migrations'

// The child of migrations.postgres-crash-mid-migration.process.test.ts: migrates the
// PostgreSQL database at argv[2] with every migration, but inside migration argv[3], after
// its first statement, it prints "paused" and never goes on, so the test can SIGKILL it at
// exactly that point.

const [url, pausedMigration] = process.argv.slice(2)
if (!url || !pausedMigration)
  throw new Error('usage: migrate-postgres-until-paused <url> <migration>')
const original = migrations[pausedMigration]
if (!original) throw new Error(`no migration named ${pausedMigration}`)

const pauseAfterFirstStatement: KyselyPlugin = {
  transformQuery: (args) => args.node,
  async transformResult() {
    process.stdout.write('paused\n')
    setInterval(() => {}, 60_000) // keeps the process alive until it is killed
    return new Promise(() => {})
  },
}

const paused: Migration = { up: (db) => original.up(db.withPlugin(pauseAfterFirstStatement)) }
await openPostgresDatabase(url, {
  migrations: { ...migrations, [pausedMigration]: paused },
  maxConnections: 1,
})
throw new Error(`${pausedMigration} finished without pausing`)
