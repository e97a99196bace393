import type { PostAnswer } from './channel-post'

// What one attempt's answer means for a delivery (README, "Alert channels", Retries):
// 2xx delivered; 429, 5xx and network errors retried with exponential backoff and jitter,
// or after the wait the receiver asked for; any other answer given up with its reason.

/** Attempts before a delivery is given up: 8, over about an hour. */
export const MAX_DELIVERY_ATTEMPTS = 8
/** The first retry's wait; each next one doubles, up to {@link MAX_BACKOFF_SEC}. */
export const FIRST_BACKOFF_SEC = 30
export const MAX_BACKOFF_SEC = 20 * 60
/** The longest wait a receiver's Retry-After is followed for (longer ones wait this long). */
const MAX_RETRY_AFTER_SEC = 60 * 60
/** How much of a receiver's answer a reason quotes. */
const REASON_CHARS = 200

/** What to do after an attempt. */
export type AttemptVerdict =
  | { verdict: 'delivered'; status: number }
  | { verdict: 'retry'; status: number | null; reason: string; waitSec: number }
  | { verdict: 'give-up'; status: number | null; reason: string }

/** The wait before attempt `attempts + 1`, jittered by ±25% (`random` in [0, 1)). */
export function backoffSec(attemptsMade: number, random: () => number): number {
  const base = Math.min(MAX_BACKOFF_SEC, FIRST_BACKOFF_SEC * 2 ** Math.max(0, attemptsMade - 1))
  return Math.max(1, Math.round(base * (0.75 + random() * 0.5)))
}

/**
 * The wait a 429 (or 503) asks for, in seconds: the `Retry-After` header (seconds or an
 * HTTP date), Discord's `retry_after` or Telegram's `parameters.retry_after` in the body.
 */
export function askedWaitSec(answer: PostAnswer, nowSec: number): number | null {
  const header = answer.headers['retry-after']
  const value = Array.isArray(header) ? header[0] : header
  if (value !== undefined) {
    const seconds = Number(value)
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds)
    const at = Date.parse(value)
    if (Number.isFinite(at)) return Math.max(0, Math.ceil(at / 1000 - nowSec))
  }
  try {
    const body = JSON.parse(answer.bodyText) as {
      retry_after?: unknown
      parameters?: { retry_after?: unknown }
    }
    const inBody = body.retry_after ?? body.parameters?.retry_after
    if (typeof inBody === 'number' && Number.isFinite(inBody) && inBody >= 0)
      return Math.ceil(inBody)
  } catch {
    // Not JSON: no wait named in the body.
  }
  return null
}

/** A receiver's answer as a short reason: its status and what it said (Telegram's description). */
function reasonOf(answer: PostAnswer): string {
  let said = answer.bodyText
  try {
    const body = JSON.parse(answer.bodyText) as { description?: unknown; message?: unknown }
    const text = body.description ?? body.message
    if (typeof text === 'string') said = text
  } catch {
    // Plain text: quoted as it is.
  }
  said = said.replace(/\s+/g, ' ').trim()
  if (said.length > REASON_CHARS) said = `${said.slice(0, REASON_CHARS - 1)}…`
  return said === '' ? `HTTP ${answer.status}` : `HTTP ${answer.status}: ${said}`
}

/**
 * What an attempt's answer (or its network error) means, after `attemptsMade` including it.
 * The backoff grows with the channel's run of failures (`failuresInRow`, this one included)
 * when that is longer than the delivery's own: a channel that is down waits as a whole.
 */
export function judgeAttempt(
  result: { answer: PostAnswer } | { error: Error },
  attemptsMade: number,
  nowSec: number,
  random: () => number,
  failuresInRow = attemptsMade,
): AttemptVerdict {
  let status: number | null = null
  let reason: string
  let asked: number | null = null
  if ('answer' in result) {
    const { answer } = result
    status = answer.status
    if (status >= 200 && status < 300) return { verdict: 'delivered', status }
    reason = reasonOf(answer)
    const isRetryable = status === 429 || status >= 500
    if (!isRetryable) return { verdict: 'give-up', status, reason }
    asked = askedWaitSec(answer, nowSec)
  } else {
    reason = `no answer: ${result.error.message}`
  }
  if (attemptsMade >= MAX_DELIVERY_ATTEMPTS)
    return { verdict: 'give-up', status, reason: `${reason} (after ${attemptsMade} attempts)` }
  const waitSec =
    asked !== null
      ? Math.min(MAX_RETRY_AFTER_SEC, Math.max(1, asked))
      : backoffSec(Math.max(attemptsMade, failuresInRow), random)
  return { verdict: 'retry', status, reason, waitSec }
}
