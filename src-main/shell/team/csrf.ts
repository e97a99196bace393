import type { IncomingMessage } from 'node:http'
import { CSRF_HEADER } from '@shared/ipc/team-session'
import { csrfTokenOf, isSameSecret } from './session-tokens'

// Cross-site request forgery: another site's page can make the browser send a request
// with our cookie. SameSite=Strict already keeps the cookie off such requests in current
// browsers; each state change is also checked for our Origin (or Referer) and for the
// session's CSRF token, which another site cannot read.

/**
 * The origin browsers reach this server at: the public URL's when one is set, else the
 * one the request names in its Host header.
 */
export function serverOrigin(request: IncomingMessage, publicUrl: URL | null): string | null {
  if (publicUrl) return publicUrl.origin
  const host = request.headers.host
  return host ? `http://${host}` : null
}

/**
 * Whether a request comes from a page of `origin`: its Origin header, or when a browser
 * sends none, its Referer. A request with neither is refused.
 */
export function isSameOrigin(request: IncomingMessage, origin: string | null): boolean {
  if (origin === null) return false
  const sent = request.headers.origin
  if (sent !== undefined) return sent === origin
  const referer = request.headers.referer
  return referer !== undefined && URL.parse(referer)?.origin === origin
}

/** Whether the request carries the session's CSRF token (header, or a form's field). */
export function hasCsrfToken(
  request: IncomingMessage,
  sessionToken: string,
  formToken?: string | null,
): boolean {
  const header = request.headers[CSRF_HEADER]
  const sent = typeof header === 'string' ? header : (formToken ?? null)
  return sent !== null && isSameSecret(sent, csrfTokenOf(sessionToken))
}
