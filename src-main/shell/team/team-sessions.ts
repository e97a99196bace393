import type { IncomingMessage } from 'node:http'
import type { TeamAccountStore } from '../../db/stores/team-account-store'
import type { TeamRole } from '@shared/domain/team-roles'
import { readCookie, SESSION_COOKIE } from './session-cookie'
import {
  isSessionExpired,
  newSessionToken,
  sessionTokenHash,
  type SessionLifetime,
} from './session-tokens'

/** A request's valid session: its token (from the cookie) and who it signs in. */
export interface SignedIn {
  token: string
  name: string
  role: TeamRole
  /** Signed in with a one-time password: it may only choose a new one. */
  isPasswordOneTime: boolean
}

/** A session's last use is written at most this often: not once per socket message. */
const TOUCH_EVERY_SEC = 60

/**
 * Starts, finds and ends sign-in sessions in the accounts store, by the hash of their
 * cookie token. A session found expired is removed; the account's role is read at each
 * request, so a changed role or a removed account takes effect at once.
 */
export class TeamSessions {
  readonly #accounts: TeamAccountStore
  readonly #lifetime: SessionLifetime
  readonly #nowSec: () => number

  constructor(accounts: TeamAccountStore, lifetime: SessionLifetime, nowSec: () => number) {
    this.#accounts = accounts
    this.#lifetime = lifetime
    this.#nowSec = nowSec
  }

  get lifetime(): SessionLifetime {
    return this.#lifetime
  }

  /** Starts a session for an account; answers the token for its cookie. */
  async start(name: string): Promise<string> {
    const now = this.#nowSec()
    // Sign-ins are rare: the right moment to clear sessions that ended unnoticed.
    await this.#accounts.removeExpiredSessions(
      now - this.#lifetime.idleSec,
      now - this.#lifetime.absoluteSec,
    )
    const token = newSessionToken()
    await this.#accounts.addSession(sessionTokenHash(token), name, now)
    return token
  }

  /** The request's session, or null when its cookie names none that is still valid. */
  async find(request: IncomingMessage): Promise<SignedIn | null> {
    const token = readCookie(request, SESSION_COOKIE)
    return token ? this.findToken(token) : null
  }

  /** The session of a token, or null (unknown, expired, or its account removed). */
  async findToken(token: string): Promise<SignedIn | null> {
    const hash = sessionTokenHash(token)
    const session = await this.#accounts.findSession(hash)
    if (session === null) return null
    const now = this.#nowSec()
    if (isSessionExpired(session, now, this.#lifetime)) {
      await this.#accounts.removeSession(hash)
      return null
    }
    if (now - session.lastSeenAtSec >= TOUCH_EVERY_SEC) await this.#accounts.touchSession(hash, now)
    return {
      token,
      name: session.userName,
      role: session.role,
      isPasswordOneTime: session.isPasswordOneTime,
    }
  }

  /** Ends the session of a token. */
  async end(token: string): Promise<void> {
    await this.#accounts.removeSession(sessionTokenHash(token))
  }
}
