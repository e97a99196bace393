import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { Agent as HttpAgent, get as httpGet, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, get as httpsGet } from 'node:https'
import { isIP } from 'node:net'
import { BlockedNetworks, DEFAULT_BLOCKED_NETWORKS } from './image-address-rules'
import { ACCEPTED_IMAGE_TYPES, imageMimeOf } from './image-types'

// Fetches one image from a URI a service answer named, which whoever minted an NFT chose.
// The host is resolved once per connection and the connection goes to the address that
// was checked: a lookup on the HTTPS agent resolves, refuses what the rules refuse and
// hands the checked addresses to the socket. A name that answers a public address to the
// check and 127.0.0.1 to the download (DNS rebinding) has no second lookup to answer.
// node:https rather than fetch: its agent takes `lookup` and `ca` as documented socket
// options, with no undici dispatcher (a second copy of undici) to keep in step with Node's.

/** Largest image kept: NFT art beyond this is a thumbnail's waste and a disk risk. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3

/** A fetched image. */
export interface FetchedImage {
  mime: string
  body: Buffer
}

/** Resolves a host name to every address it has (IPv4 and IPv6). */
export type HostResolver = (host: string) => Promise<readonly LookupAddress[]>

export interface ImageFetcherOptions {
  /** The resolver; `dns.lookup` with `all: true` by default. */
  resolve?: HostResolver
  /** Networks never fetched from, as CIDR; `DEFAULT_BLOCKED_NETWORKS` by default. */
  blockedNetworks?: readonly string[]
  /**
   * Certificates trusted instead of Node's root store, for a test's own CA. Certificates
   * and host names are verified the same way either way.
   */
  trustedCa?: string | Buffer | readonly (string | Buffer)[]
}

/** Why an image was not kept. */
export class ImageRefusedError extends Error {
  override name = 'ImageRefusedError'
}

const resolveWithDns: HostResolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  )

/**
 * The image fetcher: https only, never from an address the rules refuse (each redirect
 * checked the same way, at most 3), at most 5 MB, and only PNG, JPEG, GIF or WebP by bytes.
 *
 * @example
 * const fetcher = new ImageFetcher()
 * const image = await fetcher.fetch('https://arweave.net/abc.png') // { mime, body }
 */
export class ImageFetcher {
  readonly #rules: BlockedNetworks
  readonly #resolve: HostResolver
  readonly #agent: HttpsAgent

  constructor(options: ImageFetcherOptions = {}) {
    this.#rules = new BlockedNetworks(options.blockedNetworks ?? DEFAULT_BLOCKED_NETWORKS)
    this.#resolve = options.resolve ?? resolveWithDns
    const ca = options.trustedCa
    // No keep-alive: every connection runs the lookup, so every connection is checked.
    this.#agent = new HttpsAgent({
      keepAlive: false,
      lookup: (host, lookupOptions, callback) => this.#checkedLookup(host, lookupOptions, callback),
      ...(ca === undefined
        ? {}
        : { ca: typeof ca === 'string' || Buffer.isBuffer(ca) ? ca : [...ca] }),
    })
  }

  /** Fetches an image from the open internet, with every check. */
  async fetch(uri: string): Promise<FetchedImage> {
    return this.#fetch(uri, (url) => {
      if (url.protocol !== 'https:') throw new ImageRefusedError(`${url.protocol} is not https`)
      // An address written in the URL is connected to without a lookup: check it here.
      const literal = url.hostname.replace(/^\[|\]$/g, '')
      if (isIP(literal) !== 0 && this.#rules.refuses(literal)) throw refusedHost(literal, literal)
      return this.#agent
    })
  }

  /** Fetches an image from the built-in demo simulator, which serves on this machine. */
  async fetchBuiltIn(uri: string): Promise<FetchedImage> {
    return this.#fetch(uri, (url) =>
      url.protocol === 'https:' ? new HttpsAgent() : new HttpAgent(),
    )
  }

  async #fetch(uri: string, agentFor: (url: URL) => HttpAgent): Promise<FetchedImage> {
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS)
    let url = new URL(uri)
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await get(url, agentFor(url), signal)
      const location = response.headers.location
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && location) {
        response.destroy()
        url = new URL(location, url)
        continue
      }
      if (status !== 200) {
        response.destroy()
        throw new ImageRefusedError(`HTTP ${status}`)
      }
      const declared = Number(response.headers['content-length'] ?? 0)
      if (declared > MAX_IMAGE_BYTES) {
        response.destroy()
        throw new ImageRefusedError(`larger than ${MAX_IMAGE_BYTES} bytes (${declared} declared)`)
      }
      const body = await readAtMost(response, MAX_IMAGE_BYTES)
      const mime = imageMimeOf(body)
      if (mime === null) throw new ImageRefusedError('not a PNG, JPEG, GIF or WebP image')
      return { mime, body }
    }
    throw new ImageRefusedError(`more than ${MAX_REDIRECTS} redirects`)
  }

  /** The agent's lookup: one resolution per connection, every address checked, then used. */
  #checkedLookup(
    host: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    this.#resolve(host)
      .then((answered) => {
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family
        // Every address answered is checked, also those of the family not asked for.
        const refused = answered.find((a) => this.#rules.refuses(a.address))
        if (refused) throw refusedHost(host, refused.address)
        const wanted = answered.filter((a) => !family || a.family === family)
        if (wanted.length === 0) throw new ImageRefusedError(`${host} has no address`)
        return wanted
      })
      .then(
        (checked) => {
          const [first] = checked
          if (options.all) callback(null, checked)
          else if (first) callback(null, first.address, first.family)
        },
        (error: unknown) =>
          callback(error instanceof Error ? error : new ImageRefusedError(String(error)), ''),
      )
  }
}

function refusedHost(host: string, address: string): ImageRefusedError {
  const named = host === address ? host : `${host} (${address})`
  return new ImageRefusedError(`${named} is on this machine or a private network`)
}

function get(url: URL, agent: HttpAgent, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsGet : httpGet
    send(url, { agent, signal, headers: { accept: ACCEPTED_IMAGE_TYPES } }, resolve).on(
      'error',
      reject,
    )
  })
}

/** The body, refused (and the download stopped) as soon as it passes `limit` bytes. */
async function readAtMost(response: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > limit) {
      response.destroy()
      throw new ImageRefusedError(`larger than ${limit} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
