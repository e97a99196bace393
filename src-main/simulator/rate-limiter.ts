import type { EndpointClass, Plan } from '@shared/api/prices'
import { PLAN_RATE_LIMITS_RPS } from '@shared/api/prices'

// Requests per second per key and endpoint class for a plan (facts, "Limits and errors").
// Fixed one-second windows of wall time: rate limits are about real throughput, not the
// simulated clock.

export type RatePlan = Plan | 'off'

export class RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>()

  constructor(public plan: RatePlan = 'off') {}

  /** Counts a request; returns the seconds to wait when it is over the limit, else null. */
  take(key: string, endpointClass: EndpointClass, nowMs = Date.now()): number | null {
    if (this.plan === 'off') return null
    const limit = PLAN_RATE_LIMITS_RPS[this.plan][endpointClass]
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
