import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NftItem } from '@shared/ipc/review-schemas'
import { createCore, type Core } from '../../../src-main/app/core'
import { IMAGE_ROUTE } from '../../../src-main/app/image-cache'
import { fetchImage } from '../../../src-main/app/image-fetch'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startWebShell, type RunningWebShell } from '../../../src-main/shell/web/web-shell'
import { BUILT_RENDERER_DIR } from '../../helpers/web-shell-fixture'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 14, "images offline and private": the page used to load NFT images from their
// hosts — nothing showed offline, and whoever minted an NFT into the wallet learnt the
// person's address and when the wallet was viewed. Main now fetches each image once,
// checks it, keeps it in the data folder and serves it on the page's own origin.

const PNG_HEAD = Buffer.from('89504e470d0a1a0a', 'hex')

describe('images: fetched once by main, kept in the data folder, served from there', () => {
  const temp = makeTempDir()
  let core: Core
  let shell: RunningWebShell
  let sim: RunningSimulator | undefined

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      isWatching: true,
      demo: { live: false, onStarted: (s) => (sim = s) },
    })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
  }, 60_000)
  afterAll(async () => {
    await shell?.close()
    await core?.close()
    temp.remove()
  })

  const collectorNfts = async (): Promise<NftItem[]> => {
    const wallets = await core.dispatch('watchlist:list', undefined)
    if (!wallets.ok) throw new Error('watchlist:list failed')
    const collector = (wallets.result as { address: string; label: string | null }[]).find((w) =>
      /nft-collector/.test(w.label ?? ''),
    )
    if (!collector) return []
    const nfts = await core.dispatch('nfts:list', { address: collector.address })
    return nfts.ok ? (nfts.result as NftItem[]) : []
  }

  it('the page gets image paths on its own origin, never a remote host', async () => {
    await expect.poll(async () => (await collectorNfts()).length, { timeout: 45_000 }).toBe(173)
    const nfts = await collectorNfts()
    expect(nfts.every((n) => n.imageUri.startsWith(IMAGE_ROUTE))).toBe(true)
  }, 60_000)

  it('an image is fetched once: the second view is served from the data folder', async () => {
    const [first, second] = await collectorNfts()
    const origin = `http://127.0.0.1:${shell.port}`
    const served = sim?.imagesServed() ?? 0
    const a = await fetch(`${origin}${first?.imageUri}`)
    expect(a.status).toBe(200)
    expect(a.headers.get('content-type')).toBe('image/png')
    expect(
      Buffer.from(await a.arrayBuffer())
        .subarray(0, 8)
        .equals(PNG_HEAD),
    ).toBe(true)
    const again = await fetch(`${origin}${first?.imageUri}`)
    expect(again.status).toBe(200)
    expect(sim?.imagesServed()).toBe(served + 1)
    expect((await fetch(`${origin}${second?.imageUri}`)).status).toBe(200)
    expect(sim?.imagesServed()).toBe(served + 2)
  })

  it('the shell fetches only images it handed out: any other key is a 404', async () => {
    const res = await fetch(`http://127.0.0.1:${shell.port}${IMAGE_ROUTE}${'0'.repeat(32)}`)
    expect(res.status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${shell.port}${IMAGE_ROUTE}..%2f..%2fetc`)).status).toBe(
      404,
    )
  })

  it('the page may load images only from itself or inline (CSP img-src)', async () => {
    const page = await fetch(`http://127.0.0.1:${shell.port}/`)
    expect(page.headers.get('content-security-policy')).toMatch(/img-src 'self' data:(;|$)/)
  })
})

describe('images: what main refuses to fetch or keep', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(Buffer.concat([PNG_HEAD, Buffer.alloc(6 * 1024 * 1024)]))
      } else if (req.url === '/page.png') {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end('<html><script>alert(1)</script></html>')
      } else if (req.url === '/art.svg') {
        res.writeHead(200, { 'content-type': 'image/svg+xml' })
        res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
      } else {
        res.writeHead(200, { 'content-type': 'image/png' })
        res.end(PNG_HEAD)
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('plain http and hosts on this machine or a private network', async () => {
    await expect(fetchImage(`${base}/ok.png`)).rejects.toThrow(/not https/)
    await expect(fetchImage('https://127.0.0.1/x.png')).rejects.toThrow(/on this machine/)
    await expect(fetchImage('https://[::1]/x.png')).rejects.toThrow(/on this machine/)
    await expect(fetchImage('https://10.1.2.3/x.png')).rejects.toThrow(/private network/)
    await expect(fetchImage('https://localhost/x.png')).rejects.toThrow(/on this machine/)
  })

  it('more than 5 MB, bytes that are not an image (whatever the header says), and SVG', async () => {
    // Checked against a local server: the address check is what the built-in flag skips.
    await expect(fetchImage(`${base}/big.png`, { isBuiltIn: true })).rejects.toThrow(/larger than/)
    await expect(fetchImage(`${base}/page.png`, { isBuiltIn: true })).rejects.toThrow(
      /not a PNG, JPEG, GIF or WebP/,
    )
    await expect(fetchImage(`${base}/art.svg`, { isBuiltIn: true })).rejects.toThrow(
      /not a PNG, JPEG, GIF or WebP/,
    )
    const ok = await fetchImage(`${base}/ok.png`, { isBuiltIn: true })
    expect(ok.mime).toBe('image/png')
  })
})
