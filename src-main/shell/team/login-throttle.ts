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

interface Failures {
  atMs: number[]
  lockedUntilMs: number
  /** Attempts whose password is being checked now: counted before the (slow) check. */
  pending: number
}

/** Keys are kept for this many accounts and addresses at most; the oldest go first. */
const MAX_KEYS = 10_000

/** One sign-in attempt let through to the password check; settled by how it ended. */
export interface SignInAttempt {
  /** A wrong password: the attempt counts as a failure against each key. */
  failed(): void
  /** The right password: the attempt is released and the account's failures forgotten. */
  succeeded(): void
}

/**
 * Counts sign-ins per key (an account name, a remote address) and says how long a key
 * must wait. Both keys of an attempt are checked: guessing one account from many
 * addresses and many accounts from one address are both slowed. An attempt is reserved
 * before its password is checked, so attempts sent at once cannot all slip in while the
 * first are still being checked. Kept in memory: a restart forgets, which costs a guesser
 * a restart of the server.
 */
export class LoginThrottle {
  readonly #policy: ThrottlePolicy
  readonly #nowMs: () => number
  readonly #failures = new Map<string, Failures>()

  constructor(policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY, nowMs: () => number = Date.now) {
    this.#policy = policy
    this.#nowMs = nowMs
  }

  /**
   * Lets an attempt through to the password check, counted at once against each key, or
   * says how long to wait. Attempts in flight use up what the keys may still try: a
   * key past its limit (its lock-out over) gets one attempt at a time.
   *
   * @example
   * const attempt = throttle.reserve(['account:ana', 'address:10.0.0.7'])
   * if ('waitMs' in attempt) refuse(attempt.waitMs)
   * else (await verify()) ? attempt.succeeded() : attempt.failed()
   */
  reserve(keys: string[]): SignInAttempt | { waitMs: number } {
    const waitMs = this.waitMs(keys)
    if (waitMs > 0) return { waitMs }
    const now = this.#nowMs()
    const { maxFailures, windowMs, lockMs } = this.#policy
    const isFull = keys.some((key) => {
      const entry = this.#failures.get(key)
      if (!entry) return false
      const recent = entry.atMs.filter((t) => now - t < windowMs).length
      return entry.pending >= Math.max(1, maxFailures - recent)
    })
    if (isFull) return { waitMs: lockMs }
    for (const key of keys) this.#touch(key).pending++
    let isSettled = false
    const settle = (): boolean => {
      if (isSettled) return false
      isSettled = true
      for (const key of keys) {
        const entry = this.#failures.get(key)
        if (entry) entry.pending = Math.max(0, entry.pending - 1)
      }
      return true
    }
    return {
      failed: () => {
        if (settle()) this.recordFailure(keys)
      },
      succeeded: () => {
        if (settle()) this.forget(keys[0] as string)
      },
    }
  }

  /** Milliseconds before any of `keys` may try again; 0 when all may now. */
  waitMs(keys: string[]): number {
    const now = this.#nowMs()
    return Math.max(0, ...keys.map((k) => (this.#failures.get(k)?.lockedUntilMs ?? 0) - now))
  }

  /** Counts a failed attempt against each key, locking those past the limit. */
  recordFailure(keys: string[]): void {
    const now = this.#nowMs()
    const { maxFailures, windowMs, lockMs } = this.#policy
    for (const key of keys) {
      const entry = this.#touch(key)
      entry.atMs = [...entry.atMs.filter((t) => now - t < windowMs), now]
      const over = entry.atMs.length - maxFailures
      if (over >= 0) entry.lockedUntilMs = now + Math.min(lockMs * 2 ** over, windowMs)
    }
  }

  /** Forgets the failures of a key after a right password (an account, not an address). */
  forget(key: string): void {
    const entry = this.#failures.get(key)
    if (entry === undefined) return
    if (entry.pending > 0) {
      entry.atMs = []
      entry.lockedUntilMs = 0
    } else this.#failures.delete(key)
  }

  /** The key's entry, made last in the map's order (oldest activity first). */
  #touch(key: string): Failures {
    const entry = this.#failures.get(key) ?? { atMs: [], lockedUntilMs: 0, pending: 0 }
    this.#failures.delete(key)
    this.#failures.set(key, entry)
    while (this.#failures.size > MAX_KEYS) {
      const oldest = this.#failures.keys().next().value
      if (oldest === undefined || oldest === key) break
      this.#failures.delete(oldest)
    }
    return entry
  }
}
