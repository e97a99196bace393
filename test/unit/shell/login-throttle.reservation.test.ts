import { describe, expect, it } from 'vitest'
import {
  LoginThrottle,
  type Reservation,
  type ThrottleAnswer,
} from '../../../src-main/shell/team/login-throttle'
import { VirtualClock } from '../../helpers/virtual-clock'

// An attempt is counted when it starts, before its password is checked; only a right
// password takes it back. Attempts started together cannot all get past a count that the
// slow checks have not moved yet.

const policy = { maxFailures: 3, windowMs: 60_000, lockMs: 1_000 }
const ana = { account: 'ana', address: '192.0.2.1' }

function reservationOf(answer: ThrottleAnswer): Reservation {
  if (!('reservation' in answer)) throw new Error(`refused for ${answer.waitMs} ms`)
  return answer.reservation
}

describe('sign-in throttle: attempts are reserved before the password is checked', () => {
  it('lets only maxFailures attempts start at once, however many are sent', () => {
    const throttle = new LoginThrottle(policy, new VirtualClock(0))
    const answers = Array.from({ length: 100 }, () => throttle.reserve(ana))
    expect(answers.filter((a) => 'reservation' in a)).toHaveLength(3)
    expect(answers.slice(3)).toEqual(Array(97).fill({ waitMs: 1_000 }))
  })

  it('refuses the right password while its account is locked, and takes it after the wait', async () => {
    const clock = new VirtualClock(0)
    const throttle = new LoginThrottle(policy, clock)
    for (let i = 0; i < 3; i++) throttle.reserve(ana) // three checks in flight, none settled
    expect(throttle.reserve(ana)).toEqual({ waitMs: 1_000 })
    // The account is locked from any address, the address for any account.
    expect(throttle.reserve({ ...ana, address: '198.51.100.9' })).toEqual({ waitMs: 1_000 })
    expect(throttle.reserve({ ...ana, account: 'bo' })).toEqual({ waitMs: 1_000 })
    await clock.advance(999)
    expect(throttle.reserve(ana)).toEqual({ waitMs: 1 })
    await clock.advance(1)
    throttle.succeed(reservationOf(throttle.reserve(ana)))
    // The account's count is forgotten on success.
    for (let i = 0; i < 2; i++) reservationOf(throttle.reserve({ ...ana, address: `10.0.0.${i}` }))
  })

  it('a success takes back its own attempt only: the address keeps its earlier failures', () => {
    const throttle = new LoginThrottle(policy, new VirtualClock(0))
    reservationOf(throttle.reserve({ ...ana, account: 'x' }))
    reservationOf(throttle.reserve({ ...ana, account: 'y' }))
    // The third attempt from the address would lock it; being right, it does not.
    throttle.succeed(reservationOf(throttle.reserve(ana)))
    // Two failures still count: one more locks the address.
    reservationOf(throttle.reserve({ ...ana, account: 'z' }))
    expect(throttle.reserve({ ...ana, account: 'w' })).toEqual({ waitMs: 1_000 })
  })

  it('a refused attempt is not counted: the lock does not grow while it is refused', async () => {
    const clock = new VirtualClock(0)
    const throttle = new LoginThrottle(policy, clock)
    for (let i = 0; i < 3; i++) throttle.reserve(ana)
    for (let i = 0; i < 50; i++) throttle.reserve(ana)
    await clock.advance(1_000)
    // The fourth counted attempt doubles the lock.
    reservationOf(throttle.reserve(ana))
    expect(throttle.reserve(ana)).toEqual({ waitMs: 2_000 })
  })

  it('compares account names without case', () => {
    const throttle = new LoginThrottle(policy, new VirtualClock(0))
    for (const [i, name] of ['Ana', 'ANA', 'ana'].entries())
      reservationOf(throttle.reserve({ account: name, address: `203.0.113.${i}` }))
    expect(throttle.reserve({ account: 'aNa', address: '203.0.113.200' })).toEqual({
      waitMs: 1_000,
    })
  })
})
