import pg from 'pg'
import { displayDatabaseUrl } from '../database-url'
import { describeStorageError } from '../storage-errors'

// How the app talks to PostgreSQL, connection by connection: the mirror's pool and an
// export part's thread connect alike.

/** PostgreSQL's type ids whose text the app reads as JavaScript numbers. */
const INT8_OID = 20
const NUMERIC_OID = 1700

/**
 * bigint and numeric arrive as text from `pg` (they can exceed 2^53); the mirror keeps
 * exact amounts in text columns of their own, and its bigints are ids, slots, times and
 * counts, which SQLite hands over as numbers too, so both engines answer alike.
 */
export const mirrorTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
}

/**
 * What every mirror connection starts with: its name on the server, the types above, and
 * the planner's cost of a random page read as on solid-state storage. At PostgreSQL's
 * default (4, for spinning disks) the planner scanned the 300-row wallets table once per
 * feed row instead of seeking its key, and the feed's unread count on a 10,000,000-row
 * desk took 200 ms instead of 55.
 */
export const mirrorConnection = {
  types: mirrorTypes,
  application_name: 'heliograph',
  options: '-c random_page_cost=1.1',
}

/**
 * A `pg` client that closes its socket when it fails to connect. pg-pool drops such a client
 * without ending it, and where pg gives up mid sign-in on its own side (a URL without the
 * password the server asks for) the server keeps that half-signed-in session until its
 * authentication_timeout (a minute by default): a connection slot held, and a
 * `drop database` on the server waiting for it.
 */
export class ClosingClient extends pg.Client {
  override connect(): Promise<pg.Client>
  override connect(callback: (error: Error | null, client?: pg.Client) => void): void
  override connect(
    callback?: (error: Error | null, client?: pg.Client) => void,
  ): Promise<pg.Client> | void {
    if (callback === undefined) {
      return new Promise((connected, failed) =>
        this.connect((error) => (error ? failed(error) : connected(this))),
      )
    }
    super.connect((error: Error | null) => {
      if (error) this.connection.stream.destroy()
      callback(error, this)
    })
  }
}

/**
 * One connection to the PostgreSQL database at `url`, read as the mirror's pool reads
 * (64-bit integers and numerics as numbers): for a thread of its own, which cannot share
 * the pool of the thread that opened the mirror.
 *
 * @example
 * const client = await connectPostgresClient(url)
 * try { await client.query('select 1') } finally { await client.end() }
 */
export async function connectPostgresClient(url: string): Promise<pg.Client> {
  const client = new ClosingClient({
    connectionString: url,
    ...mirrorConnection,
  })
  try {
    await client.connect()
  } catch (error) {
    throw describeStorageError(error, `connect to ${displayDatabaseUrl(url)}`)
  }
  // A connection error between queries reaches the query under way; not the process.
  client.on('error', () => {})
  return client
}
