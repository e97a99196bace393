import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchImage, type Resolver } from '../../../src-main/app/image-fetch'
import { AddressRules } from '../../../src-main/app/public-address'
import { makeTempDir } from '../../helpers/temp-dir'

// The image fetcher against a real TLS server on this machine, its certificate for
// images.example trusted for the test alone. A resolver stands in for DNS (it is how a
// hostile name behaves that is under test): a public answer is fetched, a private or
// loopback one refused, an answer that changes between lookups cannot reach this machine,
// and the size and type limits hold over TLS.

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)])
const HOST = 'images.example'

/** Default rules less loopback: the test's "public" server is on this machine. */
const LOOPBACK_AS_PUBLIC = new AddressRules(
  new AddressRules().ranges.filter((r) => r.what !== 'this machine'),
)

describe('image fetch over TLS: the address checked is the address connected to', () => {
  const temp = makeTempDir()
  let server: Server
  let port: number
  let ca: Buffer
  const requests: string[] = []

  beforeAll(async () => {
    const key = join(temp.dir, 'key.pem')
    const cert = join(temp.dir, 'cert.pem')
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
        ...['-keyout', key, '-out', cert, '-subj', `/CN=${HOST}`],
        ...['-addext', `subjectAltName=DNS:${HOST}`],
      ],
      { stdio: 'ignore' },
    )
    ca = readFileSync(cert)
    server = createServer({ key: readFileSync(key), cert: ca }, (req, res) => {
      requests.push(req.url ?? '')
      if (req.url === '/big.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]))
      } else if (req.url === '/page.png') {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<html><body>not an image</body></html>')
      } else if (req.url === '/to-private.png') {
        res.writeHead(302, { location: 'https://10.0.0.1/x.png' })
        res.end()
      } else if (req.url === '/to-ok.png') {
        res.writeHead(302, { location: '/ok.png' })
        res.end()
      } else {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(PNG)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    temp.remove()
  })

  /** A resolver answering `answers` in turn (the last one from then on), counting calls. */
  const resolverOf = (...answers: string[][]) => {
    const calls: string[] = []
    const resolve: Resolver = async (hostname) => {
      calls.push(hostname)
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)] as string[]
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    }
    return { resolve, calls }
  }
  const url = (path: string) => `https://${HOST}:${port}${path}`

  it('a public answer is fetched over TLS, its certificate checked for the name', async () => {
    const { resolve, calls } = resolverOf(['127.0.0.1'])
    const image = await fetchImage(url('/ok.png'), { resolve, rules: LOOPBACK_AS_PUBLIC, ca })
    expect(image.mime).toBe('image/png')
    expect(image.body.equals(PNG)).toBe(true)
    expect(calls).toEqual([HOST])
    // The same server without the test's trust: the certificate is refused.
    await expect(
      fetchImage(url('/ok.png'), { resolve, rules: LOOPBACK_AS_PUBLIC }),
    ).rejects.toThrow(/self[- ]signed|certificate/i)
    // A redirect is followed, its host resolved and checked again.
    const redirected = await fetchImage(url('/to-ok.png'), {
      resolve,
      rules: LOOPBACK_AS_PUBLIC,
      ca,
    })
    expect(redirected.body.equals(PNG)).toBe(true)
  })

  it('a loopback or private answer is refused before anything is sent', async () => {
    const before = requests.length
    for (const [answer, what] of [
      ['127.0.0.1', /on this machine/],
      ['::ffff:127.0.0.1', /on this machine/],
      ['10.0.0.5', /on a private network/],
      ['169.254.169.254', /on a link-local network/],
    ] as const) {
      const { resolve } = resolverOf([answer])
      await expect(fetchImage(url('/ok.png'), { resolve, ca })).rejects.toThrow(what)
    }
    // A name answering a public address and a loopback one is refused whole.
    const mixed = resolverOf(['198.51.100.7', '127.0.0.1'])
    await expect(fetchImage(url('/ok.png'), { resolve: mixed.resolve, ca })).rejects.toThrow(
      /on this machine/,
    )
    expect(requests.length).toBe(before)
  })

  it('an answer that changes between lookups cannot reach this machine', async () => {
    // First a public address, then 127.0.0.1 to anyone who asks again.
    const rebinding = resolverOf(['198.51.100.7'], ['127.0.0.1'])
    const before = requests.length
    await expect(
      fetchImage(url('/ok.png'), { resolve: rebinding.resolve, ca, timeoutMs: 1_500 }),
    ).rejects.toThrow()
    // Resolved once; the connection went to the address checked, never to this server.
    expect(rebinding.calls).toEqual([HOST])
    expect(requests.length).toBe(before)
  })

  it('over 5 MB, a body that is not an image, plain http and a redirect to a private host are refused', async () => {
    const { resolve } = resolverOf(['127.0.0.1'])
    const options = { resolve, rules: LOOPBACK_AS_PUBLIC, ca }
    await expect(fetchImage(url('/big.png'), options)).rejects.toThrow(/larger than 5242880 bytes/)
    await expect(fetchImage(url('/page.png'), options)).rejects.toThrow(
      /not a PNG, JPEG, GIF or WebP/,
    )
    await expect(fetchImage(`http://${HOST}:${port}/ok.png`, options)).rejects.toThrow(/not https/)
    await expect(fetchImage(url('/to-private.png'), options)).rejects.toThrow(
      /10\.0\.0\.1 is on a private network/,
    )
  })
})
