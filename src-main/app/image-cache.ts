import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files'
import { redactText } from '../service/redact'
import { fetchImage, IMAGE_TYPES, type FetchedImage, type ImageFetchOptions } from './image-fetch'

// NFT and token images, fetched once by main and kept in the data folder. The page never
// loads an image from its host: that would fail offline and tell whoever minted an NFT
// into the wallet the person's address and when the wallet is viewed.

/** Where the page asks for a cached image: `/images/<key>` on its own origin. */
export const IMAGE_ROUTE = '/images/'

/** A failed image is not tried again for this long. */
const RETRY_AFTER_MS = 10 * 60_000

/** A cached image, ready to answer with. */
export type CachedImage = FetchedImage

export interface ImageCacheOptions {
  /** The folder the images are kept in (created private). */
  dir: string
  /**
   * Where an image URI is fetched from instead, for the built-in demo simulator, whose
   * collectibles name an invented host; null for every other URI.
   */
  redirectUri?: (uri: string) => string | null
  /** How images are fetched (the system's resolver and trust unless a test says otherwise). */
  fetch?: Omit<ImageFetchOptions, 'isBuiltIn'>
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
  /** Images that failed: when they may be tried again and why they were not kept. */
  readonly #failures = new Map<string, { retryAtMs: number; reason: string }>()
  readonly #inFlight = new Map<string, Promise<CachedImage | null>>()

  constructor(options: ImageCacheOptions) {
    this.#o = options
  }

  /** Why the image behind a key was not kept on its last try (redacted); null if it was. */
  failureReason(key: string): string | null {
    return this.#failures.get(key)?.reason ?? null
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
    if (uri === undefined || (this.#failures.get(key)?.retryAtMs ?? 0) > Date.now()) return null
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
      const image = await fetchImage(builtIn ?? uri, {
        ...this.#o.fetch,
        isBuiltIn: builtIn !== null,
      })
      makePrivateDir(this.#o.dir)
      const path = join(this.#o.dir, key)
      const partial = `${path}.partial`
      await writeFile(partial, image.body, { mode: PRIVATE_FILE_MODE })
      await rename(partial, path)
      this.#failures.delete(key)
      return image
    } catch (error) {
      const reason = redactText(error instanceof Error ? error.message : String(error))
      this.#failures.set(key, { retryAtMs: Date.now() + RETRY_AFTER_MS, reason })
      return null
    }
  }
}

/** The cache key of an image URI: 128 bits of its SHA-256, in hex. */
export function imageKey(uri: string): string {
  return createHash('sha256').update(uri).digest('hex').slice(0, 32)
}
