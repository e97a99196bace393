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
}

/** Keys are kept for this many accounts and addresses at most; the oldest go first. */
const MAX_KEYS = 10_000

/**
 * Counts failed sign-ins per key (an account name, a remote address) and says how long
 * a key must wait. Both keys of an attempt are checked: guessing one account from many
 * addresses and many accounts from one address are both slowed. Kept in memory: a
 * restart forgets, which costs a guesser a restart of the server.
 */
export class LoginThrottle {
  readonly #policy: ThrottlePolicy
  readonly #nowMs: () => number
  readonly #failures = new Map<string, Failures>()

  constructor(policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY, nowMs: () => number = Date.now) {
    this.#policy = policy
    this.#nowMs = nowMs
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
      const entry = this.#failures.get(key) ?? { atMs: [], lockedUntilMs: 0 }
      entry.atMs = [...entry.atMs.filter((t) => now - t < windowMs), now]
      const over = entry.atMs.length - maxFailures
      if (over >= 0) entry.lockedUntilMs = now + Math.min(lockMs * 2 ** over, windowMs)
      // Re-inserted last: the map's order is then oldest activity first.
      this.#failures.delete(key)
      this.#failures.set(key, entry)
    }
    while (this.#failures.size > MAX_KEYS) {
      const oldest = this.#failures.keys().next().value
      if (oldest === undefined) break
      this.#failures.delete(oldest)
    }
  }

  /** Forgets the failures of a key after a right password (an account, not an address). */
  forget(key: string): void {
    this.#failures.delete(key)
  }
}
