import type { IncomingMessage } from 'node:http'
import type { TeamAccountStore, TeamSession } from '../../db/stores/team-account-store'
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
 * How often the store's revision is read while requests come: a change made by another
 * process (`user passwd`, `user remove`, `user set-role`) applies within this time; one
 * made through this server (sign-out, a password chosen) applies at once.
 */
export const SESSION_RECHECK_MS = 250

/** A session as kept in memory: what the store said, and when it was last used. */
interface CachedSession {
  session: TeamSession
  lastSeenAtSec: number
}

/**
 * Starts, finds and ends sign-in sessions in the accounts store, by the hash of their
 * cookie token. Sessions are kept in memory once found, so a request costs no database
 * call: the store's revision (one row, moved by every change to accounts and sessions) is
 * read at most every {@link SESSION_RECHECK_MS} while requests come, and a moved revision
 * drops what is kept, so a changed role, a removed account or an ended session takes
 * effect then. Expiry is checked in memory at each request.
 */
export class TeamSessions {
  readonly #accounts: TeamAccountStore
  readonly #lifetime: SessionLifetime
  readonly #nowSec: () => number
  readonly #nowMs: () => number
  readonly #recheckMs: number
  readonly #kept = new Map<string, CachedSession>()
  #revision: number | null = null
  #checkedAtMs = -Infinity
  #checking: Promise<void> | null = null

  constructor(
    accounts: TeamAccountStore,
    lifetime: SessionLifetime,
    nowSec: () => number,
    options: { recheckMs?: number; nowMs?: () => number } = {},
  ) {
    this.#accounts = accounts
    this.#lifetime = lifetime
    this.#nowSec = nowSec
    this.#nowMs = options.nowMs ?? (() => performance.now())
    this.#recheckMs = options.recheckMs ?? SESSION_RECHECK_MS
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
    await this.#recheck()
    const hash = sessionTokenHash(token)
    let kept = this.#kept.get(hash)
    if (kept === undefined) {
      const session = await this.#accounts.findSession(hash)
      if (session === null) return null
      kept = { session, lastSeenAtSec: session.lastSeenAtSec }
      this.#kept.set(hash, kept)
    }
    const now = this.#nowSec()
    const { session } = kept
    if (
      isSessionExpired(
        { createdAtSec: session.createdAtSec, lastSeenAtSec: kept.lastSeenAtSec },
        now,
        this.#lifetime,
      )
    ) {
      this.#kept.delete(hash)
      await this.#accounts.removeSession(hash)
      return null
    }
    if (now - kept.lastSeenAtSec >= TOUCH_EVERY_SEC) {
      kept.lastSeenAtSec = now
      // Written beside the request, not before it: a lost write costs a minute of idle time.
      void this.#accounts.touchSession(hash, now).catch(() => undefined)
    }
    return {
      token,
      name: session.userName,
      role: session.role,
      isPasswordOneTime: session.isPasswordOneTime,
    }
  }

  /** Ends the session of a token, at once. */
  async end(token: string): Promise<void> {
    const hash = sessionTokenHash(token)
    this.#kept.delete(hash)
    await this.#accounts.removeSession(hash)
  }

  /** Drops every session kept, at once: after a change this server made (a password chosen). */
  forgetAll(): void {
    this.#kept.clear()
    this.#checkedAtMs = -Infinity
  }

  /** Reads the store's revision when the last reading is older than the recheck time. */
  async #recheck(): Promise<void> {
    if (this.#nowMs() - this.#checkedAtMs < this.#recheckMs) return
    this.#checking ??= (async () => {
      const startedMs = this.#nowMs()
      const revision = await this.#accounts.revision()
      if (revision !== this.#revision) {
        this.#kept.clear()
        this.#revision = revision
      }
      this.#checkedAtMs = startedMs
    })().finally(() => {
      this.#checking = null
    })
    await this.#checking
  }
}
