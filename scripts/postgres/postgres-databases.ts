import pg from 'pg'

/**
 * The URL of database `name` on the server that `serverUrl` reaches (same user, host and
 * port).
 */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${encodeURIComponent(name)}`
  return url.toString()
}

/**
 * Creates database `name` on the server that `serverUrl` reaches (as a user allowed to
 * create databases) and returns its URL; with `isExistingOk`, an existing one is kept.
 *
 * @example
 * const url = await createDatabase('postgres://heliograph:…@127.0.0.1:54320/postgres', 'heliograph')
 */
export async function createDatabase(
  serverUrl: string,
  name: string,
  { isExistingOk = false }: { isExistingOk?: boolean } = {},
): Promise<string> {
  await withClient(serverUrl, async (client) => {
    if (isExistingOk) {
      const existing = await client.query('select 1 from pg_database where datname = $1', [name])
      if (existing.rowCount) return
    }
    // Identifiers cannot be bound as parameters; escapeIdentifier quotes any name safely.
    await client.query(`create database ${client.escapeIdentifier(name)}`)
  })
  return databaseUrl(serverUrl, name)
}

/** Drops database `name` if it exists, closing any connections still open to it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`),
  )
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}
