import type { LookupAddress } from 'node:dns'
import { createServer, type Server } from 'node:https'
import { isIP, type AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImageCache } from '../../../src-main/app/image-cache'
import { fetchImage, MAX_IMAGE_BYTES } from '../../../src-main/app/image-fetch'
import {
  AddressPolicy,
  NON_PUBLIC_RANGES,
  type Resolver,
} from '../../../src-main/service/outbound-address'
import { makeTempDir } from '../../helpers/temp-dir'
import { makeTestCertificates } from '../../helpers/test-tls'

// Issue 28, finding 4 and the image part of 6, beside image-fetch-tls.test.ts: the image
// fetcher against a real TLS server whose certificate (for images.example) a CA made here
// signed. The resolver is injected, so a test decides what images.example answers. Two
// servers share one port: 127.0.0.2 stands for a public host, 127.0.0.1 for this machine,
// and each request is recorded with the address it reached, so a rebinding test sees where
// the connection went without waiting for an unreachable address to time out.

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2_000, 7)])
const PUBLIC_HOST = '127.0.0.2'
const THIS_MACHINE = '127.0.0.1'

const LOOPBACK_RANGES = NON_PUBLIC_RANGES.filter((r) => r.network !== '127.0.0.0')
/** The default rules without 127.0.0.0/8, so a server on this machine stands in for a real host. */
const WITHOUT_LOOPBACK = new AddressPolicy({}, LOOPBACK_RANGES)
/** The default rules with only 127.0.0.1 refused: 127.0.0.2 plays the public host. */
const THIS_MACHINE_IS_127_0_0_1 = new AddressPolicy({}, [
  ...LOOPBACK_RANGES,
  { network: THIS_MACHINE, prefix: 32, family: 'ipv4', what: 'this machine', kind: 'loopback' },
])
/** Every range the app refuses. */
const DEFAULT_RULES = new AddressPolicy()

/** A resolver answering from a table (each call's answer may differ), counting its calls. */
function resolverAnswering(answers: Record<string, (call: number) => string[]>): {
  resolve: Resolver
  calls: () => number
} {
  let calls = 0
  return {
    calls: () => calls,
    resolve: (host) => {
      calls++
      const answer = answers[host]
      if (!answer) return Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`))
      return Promise.resolve(
        answer(calls).map((address): LookupAddress => ({ address, family: isIP(address) })),
      )
    },
  }
}

describe('image fetcher over real TLS: connects only to the address it checked', () => {
  const certs = makeTestCertificates('images.example')
  const servers: Server[] = []
  /** Each request the servers saw: the address it reached and its path. */
  const seen: { at: string; path: string }[] = []
  /** Whether the endless image's response was ended by the client (true) or finished. */
  let endlessStopped: Promise<boolean> = Promise.resolve(false)
  let port = 0
  const url = (path: string, host = 'images.example'): string => `https://${host}:${port}${path}`

  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    seen.push({ at: req.socket.localAddress ?? '', path: req.url ?? '' })
    if (req.url === '/art.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG)
    } else if (req.url === '/big-declared.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': 6 * 1024 * 1024 })
      res.end(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024 - PNG.length)]))
    } else if (req.url === '/endless.png') {
      // No length: chunks until the client stops reading (64 MB at most).
      endlessStopped = new Promise((resolve) =>
        res.on('close', () => resolve(!res.writableFinished)),
      )
      res.writeHead(200, { 'content-type': 'image/png' })
      let sent = 0
      const chunk = Buffer.alloc(64 * 1024, 1)
      const pump = (): void => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length
          if (!res.write(sent === chunk.length ? Buffer.concat([PNG, chunk]) : chunk)) {
            res.once('drain', pump)
            return
          }
        }
        res.end()
      }
      pump()
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><script>1</script></html>')
    } else if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' }).end()
    } else if (req.url?.startsWith('/redirect?to=')) {
      const to = decodeURIComponent(req.url.slice('/redirect?to='.length))
      res.writeHead(302, { location: to }).end()
    } else {
      res.writeHead(404).end()
    }
  }

  beforeAll(async () => {
    const listen = (host: string, onPort: number): Promise<number> => {
      const server = createServer({ key: certs.key, cert: certs.cert }, answer)
      servers.push(server)
      return new Promise((resolve) =>
        server.listen(onPort, host, () => resolve((server.address() as AddressInfo).port)),
      )
    }
    port = await listen(THIS_MACHINE, 0)
    await listen(PUBLIC_HOST, port)
  })
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
  })

  /** The fetch under test with an injected resolver and rules, trusting the test's CA. */
  const fetcherFor = (
    answers: Record<string, (call: number) => string[]>,
    policy: AddressPolicy,
  ) => {
    const { resolve, calls } = resolverAnswering(answers)
    const options = { resolve, policy, ca: certs.ca }
    return { fetcher: { fetch: (uri: string) => fetchImage(uri, options) }, calls, options }
  }
  const reachedThisMachine = (): boolean => seen.some((r) => r.at === THIS_MACHINE)

  it('an image from a host whose answer is allowed arrives, byte for byte', async () => {
    seen.length = 0
    const { fetcher, calls } = fetcherFor(
      { 'images.example': () => [THIS_MACHINE] },
      WITHOUT_LOOPBACK,
    )
    const image = await fetcher.fetch(url('/art.png'))
    expect(image.mime).toBe('image/png')
    expect(image.body.equals(PNG)).toBe(true)
    expect(calls()).toBe(1)
    expect(seen).toEqual([{ at: THIS_MACHINE, path: '/art.png' }])
  })

  it('the certificate is still verified against the host name and the trust store', async () => {
    const { fetcher } = fetcherFor({ 'other.example': () => [THIS_MACHINE] }, WITHOUT_LOOPBACK)
    await expect(fetcher.fetch(url('/art.png', 'other.example'))).rejects.toThrow(
      /altnames|does not match/i,
    )
    const { resolve } = resolverAnswering({ 'images.example': () => [THIS_MACHINE] })
    await expect(
      fetchImage(url('/art.png'), { resolve, policy: WITHOUT_LOOPBACK }),
    ).rejects.toThrow(/certificate/i)
  })

  it('a loopback or private answer is refused before any connection', async () => {
    seen.length = 0
    for (const answerWith of [
      [THIS_MACHINE],
      ['::1'],
      ['::ffff:127.0.0.1'],
      ['10.0.0.1'],
      ['198.51.100.7', '10.0.0.1'],
      ['169.254.169.254'],
    ]) {
      const { fetcher, calls } = fetcherFor({ 'images.example': () => answerWith }, DEFAULT_RULES)
      await expect(fetcher.fetch(url('/art.png'))).rejects.toThrow(
        /images\.example resolves to \S+, which is on (this machine|a private network|a link-local network) \(.+\)/,
      )
      expect(calls()).toBe(1)
    }
    expect(seen).toEqual([])
  })

  it('a name answering a public address first and this machine next cannot reach this machine (DNS rebinding)', async () => {
    seen.length = 0
    const { fetcher, calls } = fetcherFor(
      { 'images.example': (call) => (call === 1 ? [PUBLIC_HOST] : [THIS_MACHINE]) },
      THIS_MACHINE_IS_127_0_0_1,
    )
    const image = await fetcher.fetch(url('/art.png'))
    expect(image.body.equals(PNG)).toBe(true)
    // One lookup for the one connection, and the connection went to the address checked.
    expect(calls()).toBe(1)
    expect(seen).toEqual([{ at: PUBLIC_HOST, path: '/art.png' }])

    // The next connection looks up again; its answer is checked like the first.
    await expect(fetcher.fetch(url('/art.png'))).rejects.toThrow(/is on this machine/)
    expect(calls()).toBe(2)
    expect(reachedThisMachine()).toBe(false)
  })

  it('a redirect to this machine or a private network is refused, whatever its form', async () => {
    seen.length = 0
    const { fetcher } = fetcherFor(
      {
        'images.example': () => [PUBLIC_HOST],
        'internal.example': () => ['10.0.0.1'],
        'rebound.example': () => [THIS_MACHINE],
      },
      THIS_MACHINE_IS_127_0_0_1,
    )
    const redirect = (to: string): string => url(`/redirect?to=${encodeURIComponent(to)}`)
    for (const to of [
      url('/art.png', 'internal.example'),
      url('/art.png', 'rebound.example'),
      url('/art.png', THIS_MACHINE),
      url('/art.png', '[::ffff:127.0.0.1]'),
    ])
      await expect(fetcher.fetch(redirect(to))).rejects.toThrow(
        /is on (this machine|a private network)/,
      )
    await expect(fetcher.fetch(redirect(`http://${PUBLIC_HOST}:${port}/art.png`))).rejects.toThrow(
      /http: is not https/,
    )
    expect(reachedThisMachine()).toBe(false)
    await expect(fetcher.fetch(url('/loop'))).rejects.toThrow('too many redirects')
    expect(seen.filter((r) => r.path === '/loop')).toHaveLength(4)
    // A redirect to an allowed host is followed.
    const image = await fetcher.fetch(redirect(url('/art.png')))
    expect(image.body.equals(PNG)).toBe(true)
  })

  it('more than 5 MB is refused, declared or not, and the download stops', async () => {
    const { fetcher } = fetcherFor({ 'images.example': () => [THIS_MACHINE] }, WITHOUT_LOOPBACK)
    await expect(fetcher.fetch(url('/big-declared.png'))).rejects.toThrow(
      `too large (${6 * 1024 * 1024} bytes)`,
    )
    await expect(fetcher.fetch(url('/endless.png'))).rejects.toThrow(
      `larger than ${MAX_IMAGE_BYTES} bytes`,
    )
    expect(await endlessStopped).toBe(true)
  })

  it('a body that is not an image (text/html) is refused', async () => {
    const { fetcher } = fetcherFor({ 'images.example': () => [THIS_MACHINE] }, WITHOUT_LOOPBACK)
    await expect(fetcher.fetch(url('/page.html'))).rejects.toThrow(
      'not a PNG, JPEG, GIF or WebP image',
    )
  })

  it('the cache keeps a fetched image and the reason a refused one was not kept', async () => {
    const temp = makeTempDir()
    try {
      const { options } = fetcherFor({ 'images.example': () => [THIS_MACHINE] }, WITHOUT_LOOPBACK)
      const cache = new ImageCache({ dir: temp.dir, fetch: options })
      const keyOf = (uri: string): string => cache.urlFor(uri).slice('/images/'.length)
      const good = keyOf(url('/art.png'))
      expect((await cache.read(good))?.body.equals(PNG)).toBe(true)
      expect(cache.failureReason(good)).toBeNull()
      const page = keyOf(url('/page.html'))
      expect(await cache.read(page)).toBeNull()
      expect(cache.failureReason(page)).toBe('not a PNG, JPEG, GIF or WebP image')
    } finally {
      temp.remove()
    }
  })
})
