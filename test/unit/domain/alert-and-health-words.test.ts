import { describe, expect, it } from 'vitest'
import { alertSourceText, deliveryWords } from '@shared/domain/alert-words'
import {
  byHealthEffect,
  healthAlertTitle,
  healthReason,
  healthResolvedLine,
} from '@shared/domain/health-text'
import type { HealthKind } from '@shared/domain/alert-rules'

// An alert's words besides its text: where it came from (a rule, or a health condition in
// words, never its code), how each delivery stands (retrying with its next time, or failed
// for good), and the health lines said right: what stops leads, an end in the past tense.

const AT = Date.UTC(2026, 10, 28, 12, 3) / 1000
const utc = (iso: string) => iso.slice(11, 19) + ' UTC'

describe('alert words', () => {
  it('names a health alert by its condition in words, resolved or not', () => {
    expect(alertSourceText({ rule: null, healthKind: 'key-rejected' })).toBe('API key rejected')
    expect(alertSourceText({ rule: null, healthKind: 'key-rejected-resolved' })).toBe(
      'Resolved: API key rejected',
    )
    expect(healthAlertTitle('budget-100-resolved')).toBe('Resolved: Daily budget spent')
    expect(alertSourceText({ rule: { name: 'Any <!here>\u202e move' }, healthKind: null })).toBe(
      'Any <!here> move',
    )
  })

  it('tells a delivery that will be retried from one that failed for good', () => {
    const base = { attempts: 2, lastError: 'HTTP 503', nextAttemptAt: null }
    expect(deliveryWords({ ...base, state: 'delivered' }, utc)).toBe('delivered ✓')
    expect(
      deliveryWords({ ...base, state: 'failed', nextAttemptAt: '2026-11-28T12:04:10.000Z' }, utc),
    ).toBe('retrying (next at 12:04:10 UTC; HTTP 503)')
    expect(
      deliveryWords({ ...base, state: 'gave-up', lastError: 'HTTP 400: bad token' }, utc),
    ).toBe('failed (HTTP 400: bad token)')
    expect(deliveryWords({ ...base, attempts: 0, state: 'pending' }, utc)).toBe('pending')
  })
})

describe('health words', () => {
  it('leads with what stops syncing, then what slows it, then warnings', () => {
    const conditions: { kind: HealthKind; sinceSec: number }[] = [
      { kind: 'budget-80', sinceSec: AT - 600 },
      { kind: 'rate-limited', sinceSec: AT - 300 },
      { kind: 'budget-100', sinceSec: AT },
    ]
    expect([...conditions].sort(byHealthEffect).map((c) => c.kind)).toEqual([
      'budget-100',
      'rate-limited',
      'budget-80',
    ])
  })

  it('says an end in the past tense, and a wallet’s reason once', () => {
    const condition = {
      kind: 'budget-100' as const,
      sinceSec: Date.UTC(2026, 10, 28, 11, 11) / 1000,
      detail: 'The daily budget of 5,000 credits is spent',
    }
    expect(healthResolvedLine(condition, Date.UTC(2026, 10, 28, 11, 12) / 1000)).toBe(
      'Syncing resumed: the daily budget allows calls again (spent from 11:11 to 11:12 UTC).',
    )
    expect(healthReason(condition, AT)).toBe(
      'the daily budget of 5,000 credits is spent, since 11:11 UTC',
    )
  })
})
