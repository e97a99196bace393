import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { requestUrl } from './request-parts'

/** Cookie that carries the launch token after the first visit, so reloads stay signed in. */
export const TOKEN_COOKIE = 'heliograph_token'

/** A fresh per-launch secret: 32 random bytes, URL-safe. */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Why a request is refused, or null when it may proceed. */
export type AccessVerdict = null | 'bad-host' | 'bad-origin' | 'bad-token'

/**
 * Decides whether a request to the web shell comes from the page this launch handed out.
 * Three checks, each closing one hole: Host (DNS rebinding), Origin (other sites in the
 * same browser), token (other local users and programs).
 */
export function checkAccess(request: IncomingMessage, port: number, token: string): AccessVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  if (!allowedHosts.includes(request.headers.host ?? '')) return 'bad-host'
  const origin = request.headers.origin
  // Browsers omit Origin on same-origin GET navigations; when present it must be ours.
  if (origin !== undefined && !allowedHosts.map((h) => `http://${h}`).includes(origin)) {
    return 'bad-origin'
  }
  const offered = tokenOf(request)
  return offered !== null && sameSecret(offered, token) ? null : 'bad-token'
}

/** The token a request offers, from `?token=` or from the cookie. */
export function tokenOf(request: IncomingMessage): string | null {
  const fromQuery = requestUrl(request)?.searchParams.get('token')
  if (fromQuery) return fromQuery
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === TOKEN_COOKIE) return value.join('=')
  }
  return null
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
