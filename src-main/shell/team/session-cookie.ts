import type { IncomingMessage } from 'node:http'

/** The cookie carrying the session token. */
export const SESSION_COOKIE = 'heliograph_session'

/** The cookie carrying the sign-in form's CSRF token (before there is a session). */
export const LOGIN_CSRF_COOKIE = 'heliograph_login'

/** A cookie's value in a request, or null (the first one when it repeats). */
export function readCookie(request: IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim()
  }
  return null
}

/**
 * A Set-Cookie value: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * request carries it), Path=/, Secure when the server is reached over https.
 */
export function cookieHeader(
  name: string,
  value: string,
  options: { isSecure: boolean; maxAgeSec: number },
): string {
  return [
    `${name}=${value}`,
    'HttpOnly',
    'SameSite=Strict',
    'Path=/',
    `Max-Age=${options.maxAgeSec}`,
    ...(options.isSecure ? ['Secure'] : []),
  ].join('; ')
}
