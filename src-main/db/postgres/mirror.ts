import { sql } from 'kysely'
import { KyselyMirror } from '../kysely-mirror'
import { KEPT_TABLES } from '../mirror'
import { describeStorageError } from '../storage-errors'
import { CreditLedgerStore } from '../stores/credit-ledger-store'
import type { OnMigration } from '../migration-progress'
import { openPostgresDatabase, type OpenPostgresDatabase } from './database'
import { PostgresExportReader } from './export-reader'
import { PostgresMirrorWriter } from './mirror-writer'

/**
 * A mirror in a PostgreSQL database: the same stores as SQLite's, over Kysely's PostgreSQL
 * dialect, for a desk or team that outgrows one file. Several processes may share it.
 * `database` is the open connection pool, for the db layer's own tests and benchmarks.
 */
export class PostgresMirror extends KyselyMirror {
  readonly engine = 'postgres' as const
  /** A database server: sync workers on several machines may share it, through leases. */
  readonly isShared = true
  readonly database: OpenPostgresDatabase
  readonly writer: PostgresMirrorWriter
  readonly ledger: CreditLedgerStore
  readonly exports: PostgresExportReader

  constructor(database: OpenPostgresDatabase) {
    super(database.db, { reads: database.reads })
    this.database = database
    this.writer = new PostgresMirrorWriter(database.db)
    this.ledger = new CreditLedgerStore(database.db)
    this.exports = new PostgresExportReader(database.db, database.pool)
  }

  get location(): string {
    return this.database.location
  }

  async deleteAllData(): Promise<void> {
    const { db } = this.database
    try {
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'
          and table_name not like 'kysely_%'`.execute(db)
      const emptied = tables.rows.map((t) => t.name).filter((name) => !KEPT_TABLES.has(name))
      // One statement: children and parents together, identities restarted as in a new mirror.
      if (emptied.length > 0) {
        await sql`truncate ${sql.join(emptied.map((name) => sql.table(name)))} restart identity`.execute(
          db,
        )
      }
    } catch (error) {
      throw describeStorageError(error, 'delete the local data')
    }
  }

  async close(): Promise<void> {
    await this.database.close()
  }
}

/**
 * Connects to the PostgreSQL mirror at `url`, migrated to the latest schema (the same
 * numbered migrations as SQLite).
 *
 * @example
 * const mirror = await openPostgresMirror('postgres://app:pw@127.0.0.1:5432/heliograph')
 * await mirror.watchlist.list()
 * await mirror.close()
 */
export async function openPostgresMirror(
  url: string,
  options: { isReadOnly?: boolean; onMigration?: OnMigration | undefined } = {},
): Promise<PostgresMirror> {
  return new PostgresMirror(await openPostgresDatabase(url, options))
}
