import { describe, expect, it } from 'vitest'
import {
  AbortedError,
  AuthError,
  BadRequestError,
  InvalidRequestError,
  InvalidResponseError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PlanError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../../src-main/service/service-errors'
import { BudgetExceededError } from '../../../src-main/sync/credit-meter'
import {
  backoffDelayMs,
  classifyFailure,
  DEFAULT_RETRY_LIMITS,
  type FailureKind,
} from '../../../src-main/sync/retry-policy'

const OP = 'wallet.history'

describe('classifyFailure: how the rate shaper treats each failure', () => {
  const cases: [string, unknown, FailureKind][] = [
    [
      '429',
      new RateLimitedError(OP, 'HTTP 429', { httpStatus: 429, retryAfterMs: 1_000 }),
      'rate-limited',
    ],
    ['5xx', new ServerError(OP, 'HTTP 503', { httpStatus: 503 }), 'transient'],
    [
      'timeout',
      new TimeoutError(OP, 'no answer within 2000 ms', { timeoutMs: 2_000 }),
      'transient',
    ],
    [
      'malformed body',
      new InvalidResponseError(OP, 'body is not JSON', { reason: 'not-json', httpStatus: 200 }),
      'transient',
    ],
    [
      'truncated body',
      new InvalidResponseError(OP, 'truncated JSON body', { reason: 'truncated', httpStatus: 200 }),
      'transient',
    ],
    [
      'connection refused',
      new NetworkError(OP, 'cannot reach', { code: 'ECONNREFUSED' }),
      'offline',
    ],
    [
      'schema drift of the answer itself (names a field)',
      new InvalidResponseError(OP, 'response field pagination.hasMore does not match', {
        reason: 'schema',
        fieldPath: 'pagination.hasMore',
      }),
      'unreadable',
    ],
    ['bad key', new AuthError(OP, 'HTTP 401', { httpStatus: 401 }), 'final'],
    ['plan refuses', new PlanError(OP, 'HTTP 403', { httpStatus: 403 }), 'final'],
    ['not found', new NotFoundError(OP, 'HTTP 404', { httpStatus: 404 }), 'final'],
    ['bad request', new BadRequestError(OP, 'HTTP 400', { httpStatus: 400 }), 'final'],
    [
      'request out of bounds',
      new InvalidRequestError(OP, 'limit too large', { parameter: 'limit' }),
      'final',
    ],
    ['JSON-RPC error', new JsonRpcError(OP, 'code -32601', { rpcCode: -32601 }), 'final'],
    ['cancelled', new AbortedError(OP, 'cancelled by the caller'), 'final'],
    ['budget reached', new BudgetExceededError('daily', 1_000, 1_000, 100), 'final'],
    ['anything else', new Error('boom'), 'final'],
  ]
  it.each(cases)('%s → %s', (_label, error, kind) => {
    expect(classifyFailure(error)).toBe(kind)
  })
})

describe('backoffDelayMs: jittered exponential backoff within bounds', () => {
  const limits = { ...DEFAULT_RETRY_LIMITS, baseDelayMs: 100, maxDelayMs: 5_000 }

  it('lies between half and all of base·2^attempt', () => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const ceiling = 100 * 2 ** attempt
      expect(backoffDelayMs(attempt, limits, () => 0)).toBe(ceiling / 2)
      expect(backoffDelayMs(attempt, limits, () => 0.999_999)).toBe(ceiling)
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelayMs(attempt, limits)
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2)
        expect(delay).toBeLessThanOrEqual(ceiling)
      }
    }
  })

  it('never exceeds maxDelayMs however many attempts', () => {
    for (const attempt of [6, 10, 30, 100]) {
      expect(backoffDelayMs(attempt, limits, () => 0.999_999)).toBeLessThanOrEqual(5_000)
      expect(backoffDelayMs(attempt, limits, () => 0)).toBe(2_500)
    }
  })

  it('spreads retries: different random draws give different delays', () => {
    const delays = new Set([0.1, 0.4, 0.7, 0.9].map((r) => backoffDelayMs(3, limits, () => r)))
    expect(delays.size).toBe(4)
  })

  it('keeps the default retry counts bounded (3–5 tries for transient failures)', () => {
    expect(DEFAULT_RETRY_LIMITS.transientAttempts).toBeGreaterThanOrEqual(3)
    expect(DEFAULT_RETRY_LIMITS.transientAttempts).toBeLessThanOrEqual(5)
    expect(Number.isFinite(DEFAULT_RETRY_LIMITS.rateLimitedAttempts)).toBe(true)
    expect(Number.isFinite(DEFAULT_RETRY_LIMITS.offlineAttempts)).toBe(true)
  })
})
