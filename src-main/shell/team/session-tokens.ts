import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

// A session is a random token in an HttpOnly cookie. The database keeps its SHA-256 only;
// the page's CSRF token is another digest of the same token, so it is tied to the session,
// needs no storage, and cannot be worked out from what the database holds.

/** A new session token: 32 random bytes, base64url. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** What the database keeps of a session token. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/** The CSRF token of a session, which the page sends back with each state change. */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`csrf:${sessionToken}`).digest('base64url')
}

/** Compares two secrets in time independent of where they differ. */
export function isSameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** How long a session lasts: unused, and at most. */
export interface SessionLifetime {
  idleSec: number
  absoluteSec: number
}

/** 12 hours without a request end a session; 7 days end it anyway. */
export const DEFAULT_SESSION_LIFETIME: SessionLifetime = {
  idleSec: 12 * 3600,
  absoluteSec: 7 * 24 * 3600,
}

/** Whether a session started at `createdAtSec` and last used at `lastSeenAtSec` has ended. */
export function isSessionExpired(
  session: { createdAtSec: number; lastSeenAtSec: number },
  nowSec: number,
  lifetime: SessionLifetime,
): boolean {
  return (
    nowSec - session.lastSeenAtSec >= lifetime.idleSec ||
    nowSec - session.createdAtSec >= lifetime.absoluteSec
  )
}
