import type { AlertDeliveryView } from '../ipc/alert-schemas'
import { countText, formatCount } from './display-text'
import { healthAlertTitle } from './health-text'
import { MAX_RULE_NAME_CHARS, plainText } from './untrusted-text'

// An alert's words besides its text, the same on the Alerts page, in `alerts history`, on
// the desktop and in every channel: where it came from, and how each delivery stands.

/** Where an alert came from: its rule's name, or its health condition in words. */
export function alertSourceText(alert: {
  rule: { name: string } | null
  healthKind: string | null
}): string {
  if (alert.rule !== null) return plainText(alert.rule.name, MAX_RULE_NAME_CHARS)
  return alert.healthKind !== null ? healthAlertTitle(alert.healthKind) : 'Heliograph'
}

/**
 * A duration in the largest whole unit: "90 s", "15 min", "1 h", "2 days".
 *
 * @example
 * durationText(3600) // '1 h'
 */
export function durationText(sec: number): string {
  if (sec % 86_400 === 0) return countText(sec / 86_400, 'day')
  if (sec % 3600 === 0) return `${formatCount(sec / 3600)} h`
  if (sec % 60 === 0) return `${formatCount(sec / 60)} min`
  return `${formatCount(sec)} s`
}

/**
 * How a delivery stands, in words: "delivered ✓", "pending", "retrying (next at 12:03:10
 * UTC; HTTP 503)", "failed (HTTP 400: invalid token)". `timeText` writes a time as the
 * reader reads times (local time on the page, UTC on the command line).
 */
export function deliveryWords(
  d: Pick<AlertDeliveryView, 'state' | 'lastError' | 'nextAttemptAt' | 'attempts'>,
  timeText: (iso: string) => string,
): string {
  switch (d.state) {
    case 'delivered':
      return 'delivered ✓'
    case 'pending':
      return d.attempts > 0 && d.nextAttemptAt !== null
        ? `pending (next at ${timeText(d.nextAttemptAt)})`
        : 'pending'
    case 'failed': {
      const next = d.nextAttemptAt === null ? '' : `next at ${timeText(d.nextAttemptAt)}`
      const parts = [next, d.lastError ?? ''].filter((p) => p !== '')
      return `retrying${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`
    }
    case 'gave-up':
      return `failed${d.lastError ? ` (${d.lastError})` : ''}`
  }
}
