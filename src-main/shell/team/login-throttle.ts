import { systemClock, type Clock } from '@shared/clock'

/** How many wrong passwords are allowed, and how long a lock-out lasts. */
export interface ThrottlePolicy {
  /** Failures within `windowMs` before sign-ins are refused. */
  maxFailures: number
  windowMs: number
  /** The first lock-out; each further failure doubles it, up to `windowMs`. */
  lockMs: number
}

/** 5 wrong passwords in 15 minutes lock out for 1 minute, then 2, 4… up to 15. */
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  lockMs: 60_000,
}

/** Who a sign-in attempt is counted against. */
export interface AttemptKeys {
  /** The account name as typed (compared without case). */
  account: string
  /** The remote address the attempt came from. */
  address: string
}

/** An attempt counted before its password is checked; only a right password releases it. */
export interface Reservation {
  readonly atMs: number
  readonly accountKey: string
  readonly addressKey: string
  /** The address's lock before this attempt and as this attempt left it. */
  readonly addressLock: { beforeMs: number; afterMs: number }
}

/** Either the attempt may check its password (counted already), or it must wait. */
export type ThrottleAnswer = { reservation: Reservation } | { waitMs: number }

interface Failures {
  atMs: number[]
  lockedUntilMs: number
}

/** Keys are kept for this many accounts and addresses at most; the oldest go first. */
const MAX_KEYS = 10_000

/**
 * Counts sign-in attempts per account and per remote address and says how long a key
 * must wait. An attempt is counted as a failure when it starts, before its (slow) password
 * check, and only a right password takes it back: attempts sent at once cannot all pass
 * the check of a count that has not moved yet. Guessing one account from many addresses
 * and many accounts from one address are both slowed. Kept in memory: a restart forgets,
 * which costs a guesser a restart of the server.
 */
export class LoginThrottle {
  readonly #policy: ThrottlePolicy
  readonly #clock: Clock
  readonly #failures = new Map<string, Failures>()

  constructor(policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY, clock: Clock = systemClock) {
    this.#policy = policy
    this.#clock = clock
  }

  /**
   * Counts an attempt against its account and address, or refuses it unchecked while
   * either is locked out. Refused attempts are not counted.
   */
  reserve(keys: AttemptKeys): ThrottleAnswer {
    const accountKey = `account:${keys.account.toLowerCase()}`
    const addressKey = `address:${keys.address}`
    const now = this.#clock.nowMs()
    const waitMs = Math.max(
      0,
      ...[accountKey, addressKey].map((k) => (this.#failures.get(k)?.lockedUntilMs ?? 0) - now),
    )
    if (waitMs > 0) return { waitMs }
    this.#count(accountKey, now)
    const beforeMs = this.#failures.get(addressKey)?.lockedUntilMs ?? 0
    const afterMs = this.#count(addressKey, now)
    this.#dropOldest()
    return {
      reservation: { atMs: now, accountKey, addressKey, addressLock: { beforeMs, afterMs } },
    }
  }

  /**
   * A right password: the account's count is forgotten, and this attempt no longer counts
   * against its address (the address's earlier failures still do).
   */
  succeed(reservation: Reservation): void {
    this.#failures.delete(reservation.accountKey)
    const entry = this.#failures.get(reservation.addressKey)
    if (entry === undefined) return
    const index = entry.atMs.indexOf(reservation.atMs)
    if (index >= 0) entry.atMs.splice(index, 1)
    // The lock this attempt set goes with it, unless a later attempt has set another.
    if (entry.lockedUntilMs === reservation.addressLock.afterMs)
      entry.lockedUntilMs = reservation.addressLock.beforeMs
  }

  /** Counts one failure against `key` at `now`; the key's lock as it leaves it. */
  #count(key: string, now: number): number {
    const { maxFailures, windowMs, lockMs } = this.#policy
    const entry = this.#failures.get(key) ?? { atMs: [], lockedUntilMs: 0 }
    entry.atMs = [...entry.atMs.filter((t) => now - t < windowMs), now]
    const over = entry.atMs.length - maxFailures
    if (over >= 0) entry.lockedUntilMs = now + Math.min(lockMs * 2 ** over, windowMs)
    // Re-inserted last: the map's order is then oldest activity first.
    this.#failures.delete(key)
    this.#failures.set(key, entry)
    return entry.lockedUntilMs
  }

  #dropOldest(): void {
    while (this.#failures.size > MAX_KEYS) {
      const oldest = this.#failures.keys().next().value
      if (oldest === undefined) break
      this.#failures.delete(oldest)
    }
  }
}
