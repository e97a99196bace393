import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { checkedLookup } from '../service/outbound-address'
import { channelAddressPolicy } from './channel-address'

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
 * POSTs `body` to `url` and resolves to the answer (any status); rejects on a network
 * error, an address the channel may not reach, when `signal` aborts, or when the whole
 * exchange takes longer than {@link POST_TIMEOUT_MS} (a receiver that trickles its answer is
 * cut off too). Messages never carry the URL (it may hold a token).
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
        // The address policy again at each connection, on what the name answers now (DNS
        // rebinding). A stored URL that names this machine was added by its own user: a
        // team account's is refused when added.
        lookup: checkedLookup(
          channelAddressPolicy(url, {
            allowPrivateNetwork: options.allowPrivateNetwork,
            isThisMachinesUser: true,
          }),
        ),
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
