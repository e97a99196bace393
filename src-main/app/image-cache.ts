import { createHash } from 'node:crypto'
import { lookup } from 'node:dns/promises'
import { existsSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { BlockList, isIP } from 'node:net'
import { join } from 'node:path'
import { makePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files'

// NFT and token images, fetched once by main and kept in the data folder. The page never
// loads an image from its host: that would fail offline and tell whoever minted an NFT
// into the wallet the person's address and when the wallet is viewed.

/** Where the page asks for a cached image: `/images/<key>` on its own origin. */
export const IMAGE_ROUTE = '/images/'

/** Largest image kept: NFT art beyond this is a thumbnail's waste and a disk risk. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3
/** A failed image is not tried again for this long. */
const RETRY_AFTER_MS = 10 * 60_000

/** Image types kept, each with the bytes its files start with. SVG is not: it can script. */
const IMAGE_TYPES: readonly { mime: string; matches: (b: Buffer) => boolean }[] = [
  {
    mime: 'image/png',
    matches: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')),
  },
  { mime: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/gif', matches: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    mime: 'image/webp',
    matches: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
]

/** Addresses an image is never fetched from: this machine and private networks. */
const PRIVATE_NETWORKS = (() => {
  const list = new BlockList()
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['224.0.0.0', 4],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4')
  for (const [net, prefix] of [
    ['::1', 128],
    ['::', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['::ffff:0:0', 96],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6')
  return list
})()

/** A cached image, ready to answer with. */
export interface CachedImage {
  mime: string
  body: Buffer
}

export interface ImageCacheOptions {
  /** The folder the images are kept in (created private). */
  dir: string
  /**
   * Where an image URI is fetched from instead, for the built-in demo simulator, whose
   * collectibles name an invented host; null for every other URI.
   */
  redirectUri?: (uri: string) => string | null
}

/**
 * The image cache: `urlFor` turns an image URI the service gave into a path on the
 * page's own origin; `read` answers that path from the folder, fetching the image once
 * (https only, never from this machine or a private network, at most 5 MB, PNG, JPEG,
 * GIF or WebP by its bytes) when it is not there yet.
 *
 * @example
 * const url = images.urlFor('https://arweave.net/abc.png') // '/images/3f1c…'
 * const image = await images.read('3f1c…') // { mime: 'image/png', body } or null
 */
export class ImageCache {
  readonly #o: ImageCacheOptions
  /** Keys handed to the page this run, and the URI each stands for. */
  readonly #uris = new Map<string, string>()
  readonly #failedUntil = new Map<string, number>()
  readonly #inFlight = new Map<string, Promise<CachedImage | null>>()

  constructor(options: ImageCacheOptions) {
    this.#o = options
  }

  /**
   * The page's URL for an image: a `data:` URI as it is (it holds its bytes), a cache
   * path for an http(s) URI, '' for anything else (no image).
   */
  urlFor(uri: string | null): string {
    if (uri === null || uri === '') return ''
    if (uri.startsWith('data:image/')) return uri
    if (!/^https?:\/\//i.test(uri)) return ''
    const key = imageKey(uri)
    this.#uris.set(key, uri)
    return `${IMAGE_ROUTE}${key}`
  }

  /** The image behind a key from `urlFor`, from the folder or fetched once; null if none. */
  async read(key: string): Promise<CachedImage | null> {
    if (!/^[0-9a-f]{32}$/.test(key)) return null
    const stored = await this.#stored(key)
    if (stored) return stored
    const uri = this.#uris.get(key)
    if (uri === undefined || (this.#failedUntil.get(key) ?? 0) > Date.now()) return null
    const running = this.#inFlight.get(key)
    if (running) return running
    const fetching = this.#fetchAndKeep(key, uri).finally(() => this.#inFlight.delete(key))
    this.#inFlight.set(key, fetching)
    return fetching
  }

  async #stored(key: string): Promise<CachedImage | null> {
    const path = join(this.#o.dir, key)
    if (!existsSync(path)) return null
    const body = await readFile(path)
    const type = IMAGE_TYPES.find((t) => t.matches(body))
    return type ? { mime: type.mime, body } : null
  }

  async #fetchAndKeep(key: string, uri: string): Promise<CachedImage | null> {
    try {
      const builtIn = this.#o.redirectUri?.(uri) ?? null
      const image = await fetchImage(builtIn ?? uri, builtIn !== null)
      makePrivateDir(this.#o.dir)
      const path = join(this.#o.dir, key)
      const partial = `${path}.partial`
      await writeFile(partial, image.body, { mode: PRIVATE_FILE_MODE })
      await rename(partial, path)
      return image
    } catch {
      this.#failedUntil.set(key, Date.now() + RETRY_AFTER_MS)
      return null
    }
  }
}

/** The cache key of an image URI: 128 bits of its SHA-256, in hex. */
export function imageKey(uri: string): string {
  return createHash('sha256').update(uri).digest('hex').slice(0, 32)
}

/** Why an image was not kept. */
export class ImageRefusedError extends Error {
  override name = 'ImageRefusedError'
}

/**
 * Fetches one image with every check: the scheme, each hop's address (redirects are
 * followed by hand so that none leads to this machine), the size and the type by bytes.
 * `isBuiltIn` allows the built-in demo simulator on loopback.
 */
export async function fetchImage(uri: string, isBuiltIn = false): Promise<CachedImage> {
  let url = new URL(uri)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!isBuiltIn) await refuseUnsafeTarget(url)
    const response = await fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: IMAGE_TYPES.map((t) => t.mime).join(', ') },
    })
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel()
      url = new URL(location, url)
      continue
    }
    if (response.status !== 200) {
      await response.body?.cancel()
      throw new ImageRefusedError(`HTTP ${response.status}`)
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_IMAGE_BYTES) {
      await response.body?.cancel()
      throw new ImageRefusedError(`too large (${declared} bytes)`)
    }
    const body = await readAtMost(response, MAX_IMAGE_BYTES)
    const type = IMAGE_TYPES.find((t) => t.matches(body))
    if (!type) throw new ImageRefusedError('not a PNG, JPEG, GIF or WebP image')
    return { mime: type.mime, body }
  }
  throw new ImageRefusedError('too many redirects')
}

async function refuseUnsafeTarget(url: URL): Promise<void> {
  if (url.protocol !== 'https:') throw new ImageRefusedError(`${url.protocol} is not https`)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true })
  for (const a of addresses) {
    if (PRIVATE_NETWORKS.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4'))
      throw new ImageRefusedError(`${host} is on this machine or a private network`)
  }
}

async function readAtMost(response: Response, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  if (!response.body) return Buffer.alloc(0)
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > limit) throw new ImageRefusedError(`larger than ${limit} bytes`)
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}
