import type { Kysely } from 'kysely'
import { databasePath } from '../../src-main/app/data-dir'
import { openDatabase } from '../../src-main/db/database'
import { openPostgresDatabase } from '../../src-main/db/postgres-database'
import type { Database } from '../../src-main/db/schema'

/** Where a core keeps its mirror: the data folder's SQLite file, or a PostgreSQL database. */
export interface MirrorPlace {
  dataDir: string
  databaseUrl?: string
}

/**
 * Reads a core's mirror, on whichever engine holds it, through a read-only handle of its
 * own (closed after `read`), as another process would see it.
 *
 * @example
 * const wallets = await readStoredMirror({ dataDir }, (db) => db.selectFrom('wallets').selectAll().execute())
 */
export async function readStoredMirror<T>(
  place: MirrorPlace,
  read: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const opened = place.databaseUrl
    ? await openPostgresDatabase(place.databaseUrl, { isReadOnly: true, maxConnections: 1 })
    : await openDatabase(databasePath(place.dataDir), { isReadOnly: true })
  try {
    return await read(opened.db)
  } finally {
    await opened.close()
  }
}
