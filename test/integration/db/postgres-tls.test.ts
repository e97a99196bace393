import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import pg from 'pg'
import { openMirror } from '../../../src-main/db/open-mirror'
import { createPasswordDatabase, type TestDatabase } from '../../helpers/postgres'
import { startTlsPostgresProxy, type TlsPostgresProxy } from '../../helpers/postgres-tls-proxy'

// A database URL that asks for TLS gets TLS or no connection: never plain text, never an
// unverified certificate (pg 8 treats sslmode=require as verify-full), and a refusal says
// what to change. docs/postgres.md says what the app supports.

const PASSWORD = 's3cr3t-Pa55'

describe('PostgreSQL over TLS', () => {
  let database: TestDatabase
  let proxy: TlsPostgresProxy
  let serverPort: number
  beforeAll(async () => {
    database = await createPasswordDatabase(PASSWORD)
    serverPort = Number(new URL(inject('postgresServerUrl')).port)
    proxy = await startTlsPostgresProxy(serverPort, 'localhost')
  })
  afterAll(async () => {
    await proxy.stop()
    await database.drop()
  })

  /** The test database's URL on `host:port`, with `query`. */
  const urlAt = (host: string, port: number, query: string): string => {
    const url = new URL(database.url)
    url.host = `${host}:${port}`
    url.search = query
    return url.toString()
  }

  /** Whether the database holds any table (a connection that got through would migrate). */
  const hasTables = async (): Promise<boolean> => {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const result = await client.query(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
      )
      return (result.rows[0] as { n: number }).n > 0
    } finally {
      await client.end()
    }
  }

  it('sslmode=require against a server without TLS fails, saying so, and nothing is written', async () => {
    const url = urlAt('127.0.0.1', serverPort, '?sslmode=require')
    const opening = openMirror({ file: '/nonexistent/heliograph.sqlite', databaseUrl: url })
    await expect(opening).rejects.toThrow(
      /asks for TLS \(sslmode\) and the server does not offer it; nothing was sent in plain text/,
    )
    await expect(opening).rejects.not.toThrow(PASSWORD)
    expect(await hasTables()).toBe(false)
  })

  it('sslmode=verify-full with the server CA as sslrootcert connects over TLS', async () => {
    const url = urlAt('localhost', proxy.port, `?sslmode=verify-full&sslrootcert=${proxy.caFile}`)
    const mirror = await openMirror({ file: '/nonexistent/heliograph.sqlite', databaseUrl: url })
    try {
      expect(await mirror.watchlist.list()).toEqual([])
      expect(mirror.location).not.toContain(PASSWORD)
    } finally {
      await mirror.close()
    }
    expect(proxy.counts.tls).toBeGreaterThan(0)
    expect(proxy.counts.plain).toBe(0)
  })

  it.each(['require', 'verify-full'])(
    'sslmode=%s against a certificate no trusted authority signed is refused before the password is sent',
    async (sslmode) => {
      const url = urlAt('localhost', proxy.port, `?sslmode=${sslmode}`)
      const opening = openMirror({ file: '/nonexistent/heliograph.sqlite', databaseUrl: url })
      await expect(opening).rejects.toThrow(
        /the server's TLS certificate could not be verified \(.+\); give the certificate of the authority that signed it with sslrootcert=/,
      )
      await expect(opening).rejects.not.toThrow(PASSWORD)
    },
  )

  it('a certificate for another host name is refused, naming the mismatch', async () => {
    const url = urlAt('127.0.0.1', proxy.port, `?sslmode=verify-full&sslrootcert=${proxy.caFile}`)
    await expect(
      openMirror({ file: '/nonexistent/heliograph.sqlite', databaseUrl: url }),
    ).rejects.toThrow(
      /the server's TLS certificate is not for the host in the URL \(.*127\.0\.0\.1.*\)/,
    )
  })
})
