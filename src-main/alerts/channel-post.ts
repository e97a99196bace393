import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { isPrivateNetworkAddress } from './channel-address'

/** What a receiver answered. */
export interface PostAnswer {
  status: number
  headers: IncomingHttpHeaders
  /** The start of its body (for Discord's and Telegram's retry_after and error texts). */
  bodyText: string
}

/** The longest a receiver may take to answer before the attempt counts as failed. */
export const POST_TIMEOUT_MS = 15_000
const MAX_BODY_READ = 8_192

/**
 * A lookup that refuses private-network addresses at connect time too, so a name that
 * resolved to a public address when the channel was added cannot be turned to an inside
 * one later (DNS rebinding).
 */
function publicOnlyLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses as LookupAddress[]
      const refused = list.find((a) => isPrivateNetworkAddress(a.address))
      if (refused !== undefined)
        return callback(
          new Error(`${hostname} resolves to ${refused.address}, a private-network address`),
          '',
          0,
        )
      if ((options as LookupOptions).all) return callback(null, list as never, 0)
      const first = list[0]
      if (first === undefined) return callback(new Error(`${hostname} has no address`), '', 0)
      callback(null, first.address, first.family)
    })
  }
}

/**
 * POSTs `body` to `url` and resolves to the answer (any status); rejects on a network
 * error, when `signal` aborts, or when the whole exchange takes longer than
 * {@link POST_TIMEOUT_MS} (a receiver that trickles its answer is cut off too). Messages
 * never carry the URL (it may hold a token).
 */
export function postToChannel(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivateNetwork: boolean; signal?: AbortSignal },
): Promise<PostAnswer> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        timeout: POST_TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.allowPrivateNetwork ? {} : { lookup: publicOnlyLookup() }),
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          if (text.length < MAX_BODY_READ) text += chunk
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bodyText: text.slice(0, MAX_BODY_READ),
          }),
        )
        res.on('error', reject)
      },
    )
    const tooLate = new Error(`no answer within ${POST_TIMEOUT_MS / 1000} s`)
    // `timeout` counts idle time only; the deadline holds for the whole exchange.
    const deadline = setTimeout(() => req.destroy(tooLate), POST_TIMEOUT_MS)
    deadline.unref()
    req.on('close', () => clearTimeout(deadline))
    req.on('timeout', () => req.destroy(tooLate))
    req.on('error', reject)
    req.end(body)
  })
}
