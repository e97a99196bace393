import { describe, expect, it } from 'vitest'
import { LoginThrottle, type SignInAttempt } from '../../../src-main/shell/team/login-throttle'

// The sign-in throttle reserves an attempt before its password is checked: attempts in
// flight use up what a key may still try, a failure counts, a success releases its place.

const POLICY = { maxFailures: 3, windowMs: 60_000, lockMs: 1_000 }
const KEYS = ['account:ana', 'address:10.0.0.7']

function letThrough(answer: SignInAttempt | { waitMs: number }): SignInAttempt {
  if ('waitMs' in answer) throw new Error(`refused for ${answer.waitMs} ms`)
  return answer
}

describe('login throttle: attempts reserved before the check', () => {
  it('lets as many attempts be checked at once as failures remain, then refuses', () => {
    const throttle = new LoginThrottle(POLICY, () => 0)
    const inFlight = [1, 2, 3].map(() => letThrough(throttle.reserve(KEYS)))
    expect(throttle.reserve(KEYS)).toEqual({ waitMs: 1_000 })
    // Another account from the same address is refused too: the address is full.
    expect(throttle.reserve(['account:bo', KEYS[1]!])).toEqual({ waitMs: 1_000 })
    for (const attempt of inFlight) attempt.failed()
    expect(throttle.waitMs(KEYS)).toBe(1_000)
  })

  it('a success releases its place and forgets the account, not the address', () => {
    let now = 0
    const throttle = new LoginThrottle(POLICY, () => now)
    letThrough(throttle.reserve(KEYS)).failed()
    letThrough(throttle.reserve(KEYS)).failed()
    const right = letThrough(throttle.reserve(KEYS))
    expect(throttle.reserve(KEYS)).toEqual({ waitMs: 1_000 })
    right.succeeded()
    // The account starts again; the address keeps its two failures (one more is allowed).
    const next = letThrough(throttle.reserve(['account:bo', KEYS[1]!]))
    expect(throttle.reserve(['account:cy', KEYS[1]!])).toEqual({ waitMs: 1_000 })
    next.failed()
    expect(throttle.waitMs([KEYS[1]!])).toBe(1_000)
    now += 1_000
    // Past its lock-out, a key over its limit gets one attempt at a time.
    const one = letThrough(throttle.reserve(KEYS))
    expect(throttle.reserve(KEYS)).toEqual({ waitMs: 1_000 })
    one.failed()
    expect(throttle.waitMs(KEYS)).toBe(2_000)
  })

  it('settles an attempt once, whatever is called after', () => {
    const throttle = new LoginThrottle(POLICY, () => 0)
    const attempt = letThrough(throttle.reserve(KEYS))
    attempt.failed()
    attempt.failed()
    attempt.succeeded()
    letThrough(throttle.reserve(KEYS)).failed()
    // Two failures, not three: no lock-out yet.
    expect(throttle.waitMs(KEYS)).toBe(0)
  })
})
