import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { WebhookDelivery } from '@shared/api/webhook-delivery'
import { describeIssues } from '@shared/validation/zod-issues'

/** Where the service delivers (the webhook's URL is the server's public URL + this path). */
export const DELIVERY_PATH = '/hooks/deliveries'

/**
 * Largest delivery body read. A delivery is an array of parsed transactions of a few KB
 * each; a megabyte holds hundreds, far more than one block's worth for watched wallets.
 */
export const MAX_DELIVERY_BYTES = 1024 * 1024

/** A route a server mounts ahead of its own (session) authentication. */
export interface ServerRoute {
  path: string
  handle(request: IncomingMessage, response: ServerResponse): void
}

export interface DeliveryRouteDeps {
  /** The `Authorization` value deliveries must carry, read at each request; null: none set yet. */
  secret: () => string | null
  /** Acts on a checked delivery; runs after the 200 has been sent. */
  onDelivery: (delivery: WebhookDelivery) => Promise<void>
  /** Told of a failure while acting on a delivery (the service already has its 200). */
  onError?: (error: unknown) => void
  maxBodyBytes?: number
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function isSameSecret(given: string, expected: string): boolean {
  // Digests have one length, so neither the comparison nor its length check leaks anything.
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

/**
 * The delivery route: POST at {@link DELIVERY_PATH} with the webhook's secret in
 * `Authorization`. A wrong or missing secret gets 401 before the body is read, a body over
 * the limit 413 (reading stops), malformed JSON or an event of the wrong shape 400. A good
 * delivery is answered 200 at once — the service times out slow receivers and counts them
 * as failures — and acted on afterwards.
 */
export function createDeliveryRoute(deps: DeliveryRouteDeps): ServerRoute & {
  /** Resolves once every delivery answered so far has been acted on. */
  idle(): Promise<void>
} {
  const maxBytes = deps.maxBodyBytes ?? MAX_DELIVERY_BYTES
  const work = new Set<Promise<void>>()
  const answer = (response: ServerResponse, status: number, body: object): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  return {
    path: DELIVERY_PATH,
    async idle() {
      while (work.size > 0) await Promise.allSettled([...work])
    },
    handle(request, response) {
      if (request.method !== 'POST') {
        response.setHeader('allow', 'POST')
        answer(response, 405, { error: 'Deliveries are POSTed.' })
        request.resume()
        return
      }
      const secret = deps.secret()
      const given = request.headers.authorization ?? ''
      if (secret === null || !isSameSecret(given, secret)) {
        refuse(request, response, 401, 'The Authorization header does not match this webhook.')
        return
      }
      const declared = Number(request.headers['content-length'] ?? 0)
      if (declared > maxBytes) {
        refuse(request, response, 413, `A delivery may be at most ${maxBytes} bytes.`)
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      let isRefused = false
      request.on('data', (chunk: Buffer) => {
        if (isRefused) return
        size += chunk.length
        if (size > maxBytes) {
          isRefused = true
          refuse(request, response, 413, `A delivery may be at most ${maxBytes} bytes.`)
          return
        }
        chunks.push(chunk)
      })
      request.on('end', () => {
        if (isRefused) return
        let json: unknown
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        } catch {
          answer(response, 400, { error: 'The delivery is not JSON.' })
          return
        }
        const parsed = WebhookDelivery.safeParse(json)
        if (!parsed.success) {
          answer(response, 400, { error: `The delivery: ${describeIssues(parsed.error)}` })
          return
        }
        answer(response, 200, { received: parsed.data.length })
        const run = deps
          .onDelivery(parsed.data)
          .catch((error: unknown) => deps.onError?.(error))
          .finally(() => work.delete(run))
        work.add(run)
      })
    },
  }
}

/** Answers a refusal and stops reading: the connection closes once the answer is out. */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  message: string,
): void {
  request.pause()
  response.writeHead(status, { 'content-type': 'application/json', connection: 'close' })
  response.end(JSON.stringify({ error: message }), () => request.destroy())
}
