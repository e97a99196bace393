import type { KyselyPlugin } from 'kysely'
import type { Migration } from 'kysely/migration'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { migrations } from '../../../src-main/db/migrations'

// The child of the crash-mid-migration process tests: opens the database at argv[2] (a
// SQLite file, or a postgres:// URL) with every migration, but inside migration argv[3],
// after argv[4] of its statements, it prints "paused" and never goes on, so the test can
// SIGKILL it at exactly that point.

const [path, pausedMigration, statementsBeforePause] = process.argv.slice(2)
if (!path || !pausedMigration || !statementsBeforePause)
  throw new Error('usage: migrate-until-paused <database> <migration> <statements>')
const original = migrations[pausedMigration]
if (!original) throw new Error(`no migration named ${pausedMigration}`)

let statements = 0
const pauseAfterStatements: KyselyPlugin = {
  transformQuery: (args) => args.node,
  async transformResult(args) {
    statements += 1
    if (statements < Number(statementsBeforePause)) return args.result
    process.stdout.write('paused\n')
    setInterval(() => {}, 60_000) // keeps the process alive until it is killed
    return new Promise(() => {})
  },
}

const paused: Migration = { up: (db) => original.up(db.withPlugin(pauseAfterStatements)) }
const withPause = { ...migrations, [pausedMigration]: paused }
if (path.startsWith('postgres://')) await openPostgresDatabase(path, { migrations: withPause })
else await openDatabase(path, { migrations: withPause })
throw new Error(`${pausedMigration} finished without pausing`)
