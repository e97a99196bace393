import type { OnMigration } from './migration-progress'
import type { Mirror } from './mirror'

export { displayDatabaseUrl, isDatabaseUrl } from './database-url'

/** Where a mirror lives and how it is opened. */
export interface OpenMirrorOptions {
  /** The SQLite file in the data folder, used when there is no `databaseUrl`. */
  file: string
  /** A database server's URL (postgres://…): the mirror lives there instead of in `file`. */
  databaseUrl?: string | undefined
  /**
   * Read beside the process that writes: the mirror must exist and be migrated already,
   * and nothing is written to it.
   */
  isReadOnly?: boolean
  /**
   * Where a file mirror's page writes run: on this thread (the default) or on a worker
   * thread with its own connection, so that this thread stays free to answer the views
   * during a backfill (what the app does). A database server needs no such thread.
   */
  writeIn?: 'this-thread' | 'worker'
  /**
   * Where a file mirror's view reads run: on this thread (the default) or on reader
   * threads with connections of their own, so that no read holds up another or this
   * thread (what the app does). A database server has its own pool of connections.
   */
  readIn?: 'this-thread' | 'workers'
  /** Told before each migration the mirror needs runs (see MigrationProgress). */
  onMigration?: OnMigration | undefined
}

/**
 * Opens (creating and migrating if needed) the mirror the options name: on the PostgreSQL
 * server of `databaseUrl`, else in the SQLite `file`. The one way code outside db gets a
 * mirror; what differs between engines is asked of the mirror (`isShared`), not of this.
 *
 * @example
 * const mirror = await openMirror({ file: databasePath(dataDir), databaseUrl: process.env.HELIOGRAPH_DATABASE_URL })
 * await mirror.watchlist.list()
 * await mirror.close()
 */
export async function openMirror(options: OpenMirrorOptions): Promise<Mirror> {
  const isReadOnly = options.isReadOnly === true
  // Each engine is loaded when first used: a command that opens none starts without either.
  if (options.databaseUrl) {
    const { openPostgresMirror } = await import('./postgres/mirror')
    return openPostgresMirror(options.databaseUrl, {
      isReadOnly,
      onMigration: options.onMigration,
    })
  }
  const { openSqliteMirror } = await import('./sqlite/mirror')
  return openSqliteMirror(options.file, {
    isReadOnly,
    onMigration: options.onMigration,
    ...(options.writeIn ? { writeIn: options.writeIn } : {}),
    ...(options.readIn ? { readIn: options.readIn } : {}),
  })
}
