import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { tokenOfProtocols } from '@shared/ipc/web-socket-protocol'

/** A fresh per-launch secret: 32 random bytes, URL-safe. */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Why a request is refused, or null when it may proceed. */
export type AccessVerdict = null | 'bad-host' | 'bad-origin' | 'bad-token'

/**
 * Decides whether a request may reach the web shell. Host closes DNS rebinding and Origin
 * closes other sites in the same browser, for every request. The page and its assets are
 * public code; the data is reached only through the socket, whose handshake must also
 * carry the launch token (other local users and programs).
 */
export function checkAccess(request: IncomingMessage, port: number): AccessVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  if (!allowedHosts.includes(request.headers.host ?? '')) return 'bad-host'
  const origin = request.headers.origin
  // Browsers omit Origin on same-origin GET navigations; when present it must be ours.
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(origin)) {
    return 'bad-origin'
  }
  return null
}

/** Whether a socket handshake carries the launch token among its subprotocols. */
export function offersToken(request: IncomingMessage, token: string): boolean {
  const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
  const candidate = tokenOfProtocols(offered)
  return candidate !== null && sameSecret(candidate, token)
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
