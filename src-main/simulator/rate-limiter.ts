import type { EndpointClass, Plan } from '@shared/api/prices'
import { PLAN_RATE_LIMITS_RPS } from '@shared/api/prices'

// Requests per second per key and endpoint class for a plan (docs/service.md, Rate limits).
// Fixed one-second windows of wall time: rate limits are about real throughput, not the
// simulated clock. Every decision is logged, so tests and the bench can read what the
// service saw: the rate per class, each 429 and whether its Retry-After was honoured.

export type RatePlan = Plan | 'off'

/** One request the limiter counted: when, for whom, and whether it was refused. */
export interface RateDecision {
  /** Wall time the request reached the limiter (ms since the epoch). */
  atMs: number
  key: string
  endpointClass: EndpointClass
  /** The Retry-After (seconds) of a 429, or null when the request was let through. */
  retryAfterSec: number | null
}

/** Decisions kept at most; the oldest go first (a long live run must not grow without end). */
const DECISION_LOG_MAX = 500_000

export class RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>()
  readonly #decisions: RateDecision[] = []
  /** Decisions dropped from the front of the log so far (so `since` indexes stay stable). */
  #dropped = 0

  constructor(public plan: RatePlan = 'off') {}

  /** Counts a request; returns the seconds to wait when it is over the limit, else null. */
  take(key: string, endpointClass: EndpointClass, nowMs = Date.now()): number | null {
    if (this.plan === 'off') return null
    const retryAfterSec = this.#decide(key, endpointClass, nowMs)
    this.#log({ atMs: nowMs, key, endpointClass, retryAfterSec })
    return retryAfterSec
  }

  /** Logs a 429 the service sent for another reason (a forced rateLimit fault), whatever the plan. */
  noteRefusal(key: string, endpointClass: EndpointClass, retryAfterSec: number): void {
    this.#log({ atMs: Date.now(), key, endpointClass, retryAfterSec })
  }

  /** Decisions from index `since` on (indexes count every decision ever logged), and the next index. */
  decisions(since = 0): { decisions: RateDecision[]; next: number } {
    const from = Math.max(0, since - this.#dropped)
    return {
      decisions: this.#decisions.slice(from),
      next: this.#dropped + this.#decisions.length,
    }
  }

  #log(decision: RateDecision): void {
    this.#decisions.push(decision)
    if (this.#decisions.length > DECISION_LOG_MAX) {
      const drop = DECISION_LOG_MAX / 10
      this.#decisions.splice(0, drop)
      this.#dropped += drop
    }
  }

  #decide(key: string, endpointClass: EndpointClass, nowMs: number): number | null {
    const limit = PLAN_RATE_LIMITS_RPS[this.plan as Plan][endpointClass]
    const second = Math.floor(nowMs / 1000)
    const id = `${key}\u0000${endpointClass}`
    const window = this.windows.get(id)
    if (!window || window.second !== second) {
      this.windows.set(id, { second, count: 1 })
      return null
    }
    // The window ends within a second; Retry-After is whole seconds.
    if (window.count >= limit) return 1
    window.count += 1
    return null
  }
}
