import {
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../service/service-errors'

/** How the rate shaper treats a failed call. */
export type FailureKind = 'rate-limited' | 'transient' | 'unreadable' | 'offline' | 'final'

/**
 * Sorts a failure: 429s slow the class down; 5xx, timeouts and garbled bodies (not JSON,
 * truncated) are worth another try; an answer that parsed but that the edge cannot read
 * as a whole (its envelope broke the schema; an odd item alone is kept aside instead) is
 * asked again a few times, since the service's answers vary; a refused connection means
 * offline; everything else — bad key, bad request — would fail the same way again, so it
 * is final.
 */
export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof RateLimitedError) return 'rate-limited'
  if (error instanceof NetworkError) return 'offline'
  if (error instanceof ServerError || error instanceof TimeoutError) return 'transient'
  // Schema drift names a field; garbled bodies do not (service-errors.ts).
  if (error instanceof InvalidResponseError)
    return error.fieldPath === undefined ? 'transient' : 'unreadable'
  return 'final'
}

/**
 * An answer the edge could not read as a whole, asked for again with backoff until the
 * attempts ran out: the last one's error, and how many answers there were.
 */
export class UnreadableAnswerError extends Error {
  override name = 'UnreadableAnswerError'
  readonly answer: InvalidResponseError
  readonly attempts: number
  constructor(answer: InvalidResponseError, attempts: number) {
    super(answer.message, { cause: answer })
    this.answer = answer
    this.attempts = attempts
  }
}

/** Bounds of retrying one call. */
export interface RetryLimits {
  /** Attempts for 5xx, timeouts and garbled bodies (the service advises 3–5 tries). */
  transientAttempts: number
  /**
   * Attempts for an answer the edge cannot read as a whole: fewer than for a 5xx, since
   * each one the service answered is charged (a wallet call is 100 credits).
   */
  unreadableAttempts: number
  /** Attempts while rate-limited; 429 storms are expected, so more patience. */
  rateLimitedAttempts: number
  /** Attempts while the network is down before the call gives up as offline. */
  offlineAttempts: number
  baseDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY_LIMITS: RetryLimits = {
  transientAttempts: 5,
  unreadableAttempts: 3,
  rateLimitedAttempts: 12,
  offlineAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
}

/**
 * "Full jitter" exponential backoff: a random delay up to base·2^attempt, capped, so many
 * clients retrying at once spread out instead of hammering together.
 */
export function backoffDelayMs(
  attempt: number,
  limits: RetryLimits,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** attempt)
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
