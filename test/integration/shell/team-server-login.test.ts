import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { performance } from 'node:perf_hooks'
import { startTestTeamServer, type TeamFixture } from '../../helpers/team-server-fixture'

// Sign-in attempts are throttled per account and per address: N wrong passwords lock both
// out (429 with Retry-After) for a while that doubles with each further failure; after the
// wait the right password works. Unknown names and wrong passwords look the same.

describe('team server: signing in', () => {
  let fx: TeamFixture
  let clockMs = 0
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [
        { name: 'ana', role: 'editor' },
        { name: 'bo', role: 'viewer' },
      ],
      server: {
        throttle: { maxFailures: 3, windowMs: 60_000, lockMs: 1_000 },
        nowMs: () => clockMs,
      },
    })
  })
  afterAll(() => fx.stop())

  it('answers an unknown name as a wrong password, in about the same time', async () => {
    const timed = async (name: string): Promise<{ status: number; body: string; ms: number }> => {
      const start = performance.now()
      const answer = await fx.postLogin(name, 'not-the-password')
      return { status: answer.status, body: answer.body, ms: performance.now() - start }
    }
    const wrong: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 5; i++) {
      clockMs += 60_000 // each pair of failures ages out of the window before the next
      const a = await timed('ana')
      const b = await timed('nobody')
      expect([a.status, b.status]).toEqual([401, 401])
      // The same page but for the name typed and the form's fresh token.
      const page = (text: string, name: string) =>
        text.replace(`value="${name}"`, 'value="…"').replace(/name="csrf" value="[^"]+"/, '')
      expect(page(b.body, 'nobody')).toBe(page(a.body, 'ana'))
      expect(a.body).toContain('Wrong name or password.')
      wrong.push(a.ms)
      unknown.push(b.ms)
    }
    // Both verify an Argon2id hash: an unknown name is not answered at once.
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[2] as number
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5)
  })

  it('locks an account out after 3 wrong passwords, then lets the right one in after the wait', async () => {
    clockMs += 60_000 // the failures above age out of the window
    for (let i = 0; i < 3; i++) expect((await fx.postLogin('ana', `wrong-${i}`)).status).toBe(401)
    const locked = await fx.postLogin('ana', fx.password('ana'))
    expect(locked.status).toBe(429)
    expect(locked.headers['retry-after']).toBe('1')
    expect(locked.body).toContain('Too many failed sign-ins')
    // The address is locked too: guessing another account from it waits as well.
    expect((await fx.postLogin('bo', fx.password('bo'))).status).toBe(429)
    clockMs += 999
    expect((await fx.postLogin('ana', fx.password('ana'))).status).toBe(429)
    clockMs += 1
    expect((await fx.postLogin('ana', fx.password('ana'))).status).toBe(303)
  })

  it('doubles the lock-out with each further failure in the window', async () => {
    // The address still has its 3 failures: the 4th locks for 2 s.
    expect((await fx.postLogin('bo', 'wrong')).status).toBe(401)
    const locked = await fx.postLogin('bo', fx.password('bo'))
    expect(locked.status).toBe(429)
    expect(locked.headers['retry-after']).toBe('2')
    clockMs += 2_000
    expect((await fx.postLogin('bo', fx.password('bo'))).status).toBe(303)
  })
})

// Attempts sent at once: each is counted before its password is checked, so a burst of
// wrong passwords cannot keep the throttle unaware while the right one slips in.
describe('team server: sign-ins sent at once', () => {
  let fx: TeamFixture
  let clockMs = 0
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'editor' }],
      server: { nowMs: () => clockMs },
    })
  })
  afterAll(() => fx.stop())

  for (const burst of [30, 100]) {
    it(`${burst} wrong passwords at once, then the right one: refused while locked`, async () => {
      clockMs += 60 * 60_000 // a fresh window for each burst
      const wrong = Array.from({ length: burst }, (_, i) => fx.postLogin('ana', `wrong-${i}`))
      const right = fx.postLogin('ana', fx.password('ana'))
      const statuses = (await Promise.all(wrong)).map((answer) => answer.status)
      expect((await right).status).toBe(429)
      // Only as many were checked as the policy allows (5); the rest waited.
      expect(statuses.filter((s) => s === 401)).toHaveLength(5)
      expect(statuses.filter((s) => s === 429)).toHaveLength(burst - 5)
      // Still locked once every check is done; let in after the lock-out.
      expect((await fx.postLogin('ana', fx.password('ana'))).status).toBe(429)
      clockMs += 60_000
      expect((await fx.postLogin('ana', fx.password('ana'))).status).toBe(303)
    }, 60_000)
  }
})
