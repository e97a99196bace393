import { join } from 'node:path'
import * as syncLeasesMigration from '../../src-main/db/migrations/0013-sync-leases'
import {
  openPostgresDatabase,
  type OpenPostgresDatabase,
} from '../../src-main/db/postgres/database'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import { SyncLeaseStore } from '../../src-main/db/stores/sync-lease-store'
import { createTestDatabase } from './postgres'
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
  /**
   * A fresh database on the run's PostgreSQL server with the lease migration alone, each
   * handle its own pool with the mirror's type parsers (bigint read as numbers).
   */
  postgres: async (handles) => {
    const database = await createTestDatabase()
    const opened: OpenPostgresDatabase[] = []
    for (let i = 0; i < handles; i++)
      opened.push(
        await openPostgresDatabase(database.url, {
          migrations: { '0013-sync-leases': syncLeasesMigration },
        }),
      )
    return {
      stores: opened.map(({ db }) => new SyncLeaseStore(db)),
      close: async () => {
        for (const handle of opened) await handle.close()
        await database.drop()
      },
    }
  },
}
