import { join } from 'node:path'
import { Migrator, type Migration } from 'kysely/migration'
import type { Kysely } from 'kysely'
import * as syncLeasesMigration from '../../src-main/db/migrations/0013-sync-leases'
import type { Database } from '../../src-main/db/schema'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite-mirror'
import { SyncLeaseStore } from '../../src-main/db/stores/sync-lease-store'
import { createTestDatabase, openPostgresKysely } from './postgres'
import { makeTempDir } from './temp-dir'

/**
 * Lease stores over one database from several independent connections, as separate
 * sync workers would have; `close()` closes them all and removes the database.
 */
export interface LeaseDatabase {
  stores: SyncLeaseStore[]
  close(): Promise<void>
}

/** The engines the lease store must behave the same on, by name. */
export const LEASE_ENGINES: Record<
  'sqlite' | 'postgres',
  (handles: number) => Promise<LeaseDatabase>
> = {
  /** A migrated SQLite mirror file, opened once per handle. */
  sqlite: async (handles) => {
    const temp = makeTempDir()
    const path = join(temp.dir, 'heliograph.sqlite')
    const mirrors: SqliteMirror[] = []
    for (let i = 0; i < handles; i++) mirrors.push(await openSqliteMirror(path))
    return {
      stores: mirrors.map((mirror) => mirror.leases),
      close: async () => {
        for (const mirror of mirrors) await mirror.close()
        temp.remove()
      },
    }
  },
  /** A fresh database on the run's PostgreSQL server, with the lease migration alone. */
  postgres: async (handles) => {
    const database = await createTestDatabase()
    const handlesOpen: Kysely<Database>[] = []
    for (let i = 0; i < handles; i++) handlesOpen.push(openPostgresKysely<Database>(database.url))
    await migrateAlone(handlesOpen[0] as Kysely<Database>, {
      '0013-sync-leases': syncLeasesMigration,
    })
    return {
      stores: handlesOpen.map((db) => new SyncLeaseStore(db)),
      close: async () => {
        for (const db of handlesOpen) await db.destroy()
        await database.drop()
      },
    }
  },
}

async function migrateAlone(db: Kysely<Database>, migrations: Record<string, Migration>) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  const failed = results?.find((r) => r.status === 'Error')
  if (failed) throw new Error(`migration ${failed.migrationName} failed`)
}
