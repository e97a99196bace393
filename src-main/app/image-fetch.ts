import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import {
  AddressPolicy,
  AddressRefusedError,
  checkedAddresses,
  type ResolvedAddress,
  type Resolver,
} from '../service/outbound-address'

// One image fetched from a stranger's URI (an NFT's metadata names it) with every check:
// https only, each hop's host resolved once and every address it has checked, the
// connection made to the checked address itself (a second lookup could answer 127.0.0.1:
// DNS rebinding), redirects followed by hand and checked the same way, at most 5 MB, and
// only PNG, JPEG, GIF or WebP by their bytes (SVG can carry scripts).

/** Largest image kept: NFT art beyond this is a thumbnail's waste and a disk risk. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000
const MAX_REDIRECTS = 3

/** Image types kept, each with the bytes its files start with. SVG is not: it can script. */
export const IMAGE_TYPES: readonly { mime: string; matches: (b: Buffer) => boolean }[] = [
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

/** A fetched image. */
export interface FetchedImage {
  mime: string
  body: Buffer
}

export interface ImageFetchOptions {
  resolve?: Resolver
  /** The outbound address policy (every non-public range refused unless a test says otherwise). */
  policy?: AddressPolicy
  /** Certificate authorities to trust instead of the system's (a test's own TLS server). */
  ca?: string | Buffer
  timeoutMs?: number
  /** The built-in demo simulator: http and this machine are allowed. */
  isBuiltIn?: boolean
}

/** Why an image was not fetched or kept. */
export class ImageRefusedError extends Error {
  override name = 'ImageRefusedError'
}

/**
 * Fetches one image with every check (see the top of this file).
 *
 * @example
 * const image = await fetchImage('https://arweave.net/abc.png') // { mime: 'image/png', body }
 * await fetchImage('https://10.0.0.1/x.png') // ImageRefusedError: 10.0.0.1 is on a private network
 */
export async function fetchImage(
  uri: string,
  options: ImageFetchOptions = {},
): Promise<FetchedImage> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS)
  let url = new URL(uri)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const pinned = options.isBuiltIn ? null : await checkedAddress(url, options)
    const response = await get(url, pinned, options, signal)
    const location = response.headers.location
    if (response.statusCode! >= 300 && response.statusCode! < 400 && location) {
      response.resume()
      url = new URL(location, url)
      continue
    }
    if (response.statusCode !== 200) {
      response.resume()
      throw new ImageRefusedError(`HTTP ${response.statusCode}`)
    }
    const declared = Number(response.headers['content-length'] ?? 0)
    if (declared > MAX_IMAGE_BYTES) {
      response.destroy()
      throw new ImageRefusedError(`too large (${declared} bytes)`)
    }
    const body = await readAtMost(response, MAX_IMAGE_BYTES)
    const type = IMAGE_TYPES.find((t) => t.matches(body))
    if (!type) throw new ImageRefusedError('not a PNG, JPEG, GIF or WebP image')
    return { mime: type.mime, body }
  }
  throw new ImageRefusedError('too many redirects')
}

/** An address checked for a URL's host: the one connection of this hop goes there. */
type PinnedAddress = ResolvedAddress

/** Resolves the URL's host once and checks every address; the first is connected to. */
async function checkedAddress(url: URL, options: ImageFetchOptions): Promise<PinnedAddress> {
  if (url.protocol !== 'https:') throw new ImageRefusedError(`${url.protocol} is not https`)
  try {
    // Every answer is checked: a name that also answers a private address is refused whole.
    const answers = await checkedAddresses(
      url.hostname,
      options.policy ?? new AddressPolicy(),
      options.resolve,
    )
    return answers[0] as PinnedAddress
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new ImageRefusedError(error.message)
    throw error
  }
}

/** One GET, connected to `pinned` when given (no lookup of its own). */
function get(
  url: URL,
  pinned: PinnedAddress | null,
  options: ImageFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    const { address, family } = pinned as PinnedAddress
    if (lookupOptions.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: 'GET',
      headers: { accept: IMAGE_TYPES.map((t) => t.mime).join(', ') },
      signal,
      // A connection of its own: a pooled one may have been made to another address.
      agent: false,
      ...(pinned ? { lookup } : {}),
      ...(options.ca ? { ca: options.ca } : {}),
    })
    request.once('response', resolve)
    request.once('error', reject)
    request.end()
  })
}

async function readAtMost(response: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).byteLength
    if (size > limit) {
      response.destroy()
      throw new ImageRefusedError(`larger than ${limit} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
