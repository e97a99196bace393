import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { TLSSocket } from 'node:tls'
import { makeTempDir } from './temp-dir'

// A PostgreSQL server that speaks only TLS, for the tests of the app's sslmode handling:
// a proxy that answers PostgreSQL's TLS request with its own certificate (signed by a
// certificate authority made for the test) and forwards the decrypted stream to the run's
// plain server. Certificates come from the openssl command (Debian's openssl package).

/** PostgreSQL's SSLRequest: length 8, then the request code 1234.5679. */
const SSL_REQUEST_CODE = 80877103

/** The running proxy. */
export interface TlsPostgresProxy {
  port: number
  /** The test authority's certificate (PEM file), for sslrootcert=. */
  caFile: string
  /** How many connections asked for TLS, and how many tried plain text (and were closed). */
  readonly counts: { tls: number; plain: number }
  stop(): Promise<void>
}

/**
 * Starts a TLS-only proxy on 127.0.0.1 in front of the PostgreSQL server at `upstreamPort`,
 * whose certificate names only `certificateHost`.
 *
 * @example
 * const proxy = await startTlsPostgresProxy(5432, 'localhost')
 * // postgres://app:pw@localhost:${proxy.port}/db?sslmode=verify-full&sslrootcert=${proxy.caFile}
 */
export async function startTlsPostgresProxy(
  upstreamPort: number,
  certificateHost: string,
): Promise<TlsPostgresProxy> {
  const temp = makeTempDir('heliograph-tls-')
  const { key, cert, caFile } = makeCertificates(temp.dir, certificateHost)
  const counts = { tls: 0, plain: 0 }
  const open = new Set<Socket>()
  const server = createServer((client) => {
    open.add(client)
    client.on('close', () => open.delete(client))
    client.on('error', () => {})
    // The client waits for the answer to its 8-byte request before it sends more.
    client.once('data', (first) => {
      const isSslRequest = first.length === 8 && first.readInt32BE(4) === SSL_REQUEST_CODE
      if (!isSslRequest) {
        counts.plain += 1
        client.destroy()
        return
      }
      counts.tls += 1
      client.write('S')
      const secure = new TLSSocket(client, { isServer: true, key, cert })
      secure.on('error', () => client.destroy())
      const upstream = createConnection(upstreamPort, '127.0.0.1')
      open.add(upstream)
      upstream.on('close', () => open.delete(upstream))
      upstream.on('error', () => secure.destroy())
      secure.pipe(upstream).pipe(secure)
    })
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return {
    port: (server.address() as AddressInfo).port,
    caFile,
    counts,
    async stop() {
      for (const socket of open) socket.destroy()
      await new Promise((closed) => server.close(closed))
      temp.remove()
    },
  }
}

/** A test authority and a server certificate it signed for `host` (DNS name or IP). */
function makeCertificates(
  dir: string,
  host: string,
): { key: string; cert: string; caFile: string } {
  const file = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' })
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-days',
    '2',
    '-subj',
    '/CN=Heliograph test CA',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  )
  const altName = /^[\d.]+$/.test(host) ? `IP:${host}` : `DNS:${host}`
  openssl(
    'req',
    '-x509',
    ...ecKey,
    '-days',
    '2',
    '-subj',
    `/CN=${host}`,
    '-addext',
    `subjectAltName=${altName}`,
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-keyout',
    file('server.key'),
    '-out',
    file('server.pem'),
  )
  return {
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    caFile: file('ca.pem'),
  }
}
