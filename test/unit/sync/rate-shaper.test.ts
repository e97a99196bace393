import { describe, expect, it } from 'vitest'
import type { EndpointClass } from '@shared/api/prices'
import {
  AuthError,
  InvalidResponseError,
  NetworkError,
  RateLimitedError,
  ServerError,
} from '../../../src-main/service/service-errors'
import { OfflineError, RateShaper } from '../../../src-main/sync/rate-shaper'
import { DEFAULT_RETRY_LIMITS, UnreadableAnswerError } from '../../../src-main/sync/retry-policy'

// The shaper over a stand-in call (no service needed): bounded retries per failure kind,
// AIMD on 429, Retry-After honoured, offline reported.

const OP = 'wallet.history'
const RPS: Record<EndpointClass, number> = {
  rpc: 40,
  'das-enhanced': 40,
  photon: 40,
  'validity-proof': 40,
}
const QUICK = {
  baseDelayMs: 1,
  maxDelayMs: 5,
  transientAttempts: 4,
  rateLimitedAttempts: 6,
  offlineAttempts: 3,
}

/** A call that fails with the given errors in turn, then answers 'ok'; counts its attempts. */
function scripted(errors: unknown[]): {
  call: () => Promise<string>
  attempts: () => number
  startsMs: number[]
} {
  let attempts = 0
  const startsMs: number[] = []
  return {
    call: async () => {
      startsMs.push(performance.now())
      const error = errors[attempts]
      attempts += 1
      if (error !== undefined) throw error
      return 'ok'
    },
    attempts: () => attempts,
    startsMs,
  }
}

describe('rate shaper', () => {
  it('retries a 5xx and answers once the service recovers', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const s = scripted([new ServerError(OP, 'HTTP 500'), new ServerError(OP, 'HTTP 502')])
    await expect(shaper.run('das-enhanced', s.call)).resolves.toBe('ok')
    expect(s.attempts()).toBe(3)
  })

  it('gives up on a failure that keeps coming back after the bounded number of tries', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const s = scripted(Array.from({ length: 100 }, () => new ServerError(OP, 'HTTP 500')))
    await expect(shaper.run('das-enhanced', s.call)).rejects.toBeInstanceOf(ServerError)
    expect(s.attempts()).toBe(QUICK.transientAttempts)
  })

  it('does not retry a final failure (bad key)', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const auth = scripted([new AuthError(OP, 'HTTP 401')])
    await expect(shaper.run('das-enhanced', auth.call)).rejects.toBeInstanceOf(AuthError)
    expect(auth.attempts()).toBe(1)
  })

  it('asks again for an answer it cannot read as a whole, a bounded number of times, then says how many', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const once = scripted([
      new InvalidResponseError(OP, 'bad field', { fieldPath: 'pagination.hasMore' }),
    ])
    await expect(shaper.run('das-enhanced', once.call)).resolves.toBe('ok')
    expect(once.attempts()).toBe(2)
    const always = scripted(
      Array.from(
        { length: 10 },
        () => new InvalidResponseError(OP, 'bad field', { fieldPath: 'pagination.hasMore' }),
      ),
    )
    const error = await shaper.run('das-enhanced', always.call).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UnreadableAnswerError)
    expect((error as UnreadableAnswerError).attempts).toBe(DEFAULT_RETRY_LIMITS.unreadableAttempts)
    expect((error as UnreadableAnswerError).answer.fieldPath).toBe('pagination.hasMore')
    expect(always.attempts()).toBe(DEFAULT_RETRY_LIMITS.unreadableAttempts)
  })

  it('retries a garbled body (no field named)', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const s = scripted([
      new InvalidResponseError(OP, 'truncated JSON body', { reason: 'truncated', httpStatus: 200 }),
    ])
    await expect(shaper.run('das-enhanced', s.call)).resolves.toBe('ok')
    expect(s.attempts()).toBe(2)
  })

  it('halves the class rate on each 429, waits out Retry-After, and leaves other classes alone', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    const limited = () =>
      new RateLimitedError(OP, 'HTTP 429', { httpStatus: 429, retryAfterMs: 60 })
    const s = scripted([limited(), limited()])
    await expect(shaper.run('das-enhanced', s.call)).resolves.toBe('ok')
    // 40 → 20 → 10, then one success adds 5% of the ceiling.
    expect(shaper.currentRps('das-enhanced')).toBe(12)
    expect(shaper.currentRps('rpc')).toBe(40)
    const [first = 0, second = 0, third = 0] = s.startsMs
    expect(second - first).toBeGreaterThanOrEqual(59)
    expect(third - second).toBeGreaterThanOrEqual(59)
  })

  it('recovers the rate slowly with successes, up to the plan ceiling', async () => {
    const shaper = new RateShaper({ rpsByClass: RPS, retry: QUICK })
    await shaper.run(
      'rpc',
      scripted([new RateLimitedError(OP, 'HTTP 429', { retryAfterMs: 0 })]).call,
    )
    expect(shaper.currentRps('rpc')).toBe(22)
    for (let i = 0; i < 20; i++) await shaper.run('rpc', scripted([]).call)
    expect(shaper.currentRps('rpc')).toBe(40)
  })

  it('says offline when the network stays down, and online when it is back', async () => {
    const states: string[] = []
    const shaper = new RateShaper({
      rpsByClass: RPS,
      retry: QUICK,
      onNetworkState: (state) => states.push(state),
    })
    const down = scripted(
      Array.from(
        { length: 10 },
        () => new NetworkError(OP, 'cannot reach', { code: 'ECONNREFUSED' }),
      ),
    )
    await expect(shaper.run('rpc', down.call)).rejects.toBeInstanceOf(OfflineError)
    expect(down.attempts()).toBe(QUICK.offlineAttempts)
    expect(shaper.isOffline).toBe(true)
    await shaper.run('rpc', scripted([]).call)
    expect(shaper.isOffline).toBe(false)
    expect(states).toEqual(['offline', 'online'])
  })

  it('never starts calls of a class faster than its rate', async () => {
    const shaper = new RateShaper({ rpsByClass: { ...RPS, photon: 20 }, retry: QUICK })
    const starts: number[] = []
    const before = performance.now()
    await Promise.all(
      Array.from({ length: 6 }, () =>
        shaper.run('photon', async () => {
          starts.push(performance.now())
        }),
      ),
    )
    // 20/s: the k-th start comes no sooner than k·50 ms after the calls were made. Slots
    // are reserved from that moment, so it is the origin: a busy machine that starts the
    // first call late brings the next start closer to it, never earlier than its slot
    // (2 ms of slack for the millisecond clock).
    starts.forEach((t, k) => expect(t - before).toBeGreaterThanOrEqual(k * 50 - 2))
    expect(starts).toHaveLength(6)
  })

  it('stops retrying when the sync is cancelled', async () => {
    const shaper = new RateShaper({
      rpsByClass: RPS,
      retry: { ...QUICK, baseDelayMs: 10_000, maxDelayMs: 10_000 },
    })
    const controller = new AbortController()
    const s = scripted(Array.from({ length: 10 }, () => new ServerError(OP, 'HTTP 500')))
    const running = shaper.run('das-enhanced', s.call, controller.signal)
    setTimeout(() => controller.abort(new Error('cancelled')), 20)
    await expect(running).rejects.toThrow('cancelled')
    expect(s.attempts()).toBe(1)
  })
})
