import type { EndpointClass } from '@shared/api/prices'
import type { RateDecision } from '../../src-main/simulator/rate-limiter'

// Reading the simulator's rate-limit log (every request its plan limiter counted): the
// rate a class achieved over a window, its 429s, and requests that came while a 429's
// Retry-After still ran.

/** The log of a simulator in another process (GET /__sim/rate-log). */
export async function fetchRateLog(simUrl: string, since = 0): Promise<RateDecision[]> {
  const res = await fetch(`${simUrl}/__sim/rate-log?since=${since}`)
  if (!res.ok) throw new Error(`rate log: HTTP ${res.status}`)
  return ((await res.json()) as { decisions: RateDecision[] }).decisions
}

/** What one endpoint class saw in a window of wall time [fromMs, toMs). */
export interface ClassWindow {
  /** Requests let through per second. */
  passedRps: number
  /** 429s the service answered in the window. */
  limited: number
  seconds: number
}

/** Requests let through per second and 429s of a class in [fromMs, toMs). */
export function classWindow(
  decisions: readonly RateDecision[],
  endpointClass: EndpointClass,
  fromMs: number,
  toMs: number,
): ClassWindow {
  let passed = 0
  let limited = 0
  for (const d of decisions) {
    if (d.endpointClass !== endpointClass || d.atMs < fromMs || d.atMs >= toMs) continue
    if (d.retryAfterSec === null) passed += 1
    else limited += 1
  }
  const seconds = Math.max(0, toMs - fromMs) / 1000
  return { passedRps: seconds > 0 ? passed / seconds : 0, limited, seconds }
}

/**
 * The shortest time in which `limit + 1` requests of a class reached the service in
 * [fromMs, toMs): under 1,000 ms, some one-second window could have held one too many.
 * How close a paced class runs to a 429; null when it saw too few requests.
 */
export function tightestSpanMs(
  decisions: readonly RateDecision[],
  endpointClass: EndpointClass,
  limit: number,
  fromMs: number,
  toMs: number,
): number | null {
  const arrivals = decisions
    .filter((d) => d.endpointClass === endpointClass && d.atMs >= fromMs && d.atMs < toMs)
    .map((d) => d.atMs)
  let tightest: number | null = null
  for (let i = 0; i + limit < arrivals.length; i++) {
    const span = (arrivals[i + limit] as number) - (arrivals[i] as number)
    if (tightest === null || span < tightest) tightest = span
  }
  return tightest
}

/** A request that reached the service while an earlier 429's Retry-After still ran. */
export interface EarlyRequest {
  endpointClass: EndpointClass
  limitedAtMs: number
  retryAfterSec: number
  atMs: number
}

/**
 * Requests of the same key and class that arrived after a 429 and before its Retry-After
 * ran out. Requests arriving within `inFlightMs` of the 429 were already on their way
 * before the client could have read it, so they do not count.
 */
export function requestsBeforeRetryAfter(
  decisions: readonly RateDecision[],
  inFlightMs: number,
): EarlyRequest[] {
  const early: EarlyRequest[] = []
  decisions.forEach((limitedBy, i) => {
    if (limitedBy.retryAfterSec === null) return
    const endMs = limitedBy.atMs + limitedBy.retryAfterSec * 1000
    for (let j = i + 1; j < decisions.length; j++) {
      const d = decisions[j] as RateDecision
      if (d.atMs >= endMs) break
      if (d.key !== limitedBy.key || d.endpointClass !== limitedBy.endpointClass) continue
      if (d.atMs > limitedBy.atMs + inFlightMs)
        early.push({
          endpointClass: d.endpointClass,
          limitedAtMs: limitedBy.atMs,
          retryAfterSec: limitedBy.retryAfterSec,
          atMs: d.atMs,
        })
    }
  })
  return early
}
