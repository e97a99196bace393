import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_THROTTLE_POLICY } from '../../../src-main/shell/team/login-throttle'
import type { RawResponse } from '../../helpers/raw-http'
import { startTestTeamServer, type TeamFixture } from '../../helpers/team-server-fixture'
import { VirtualClock } from '../../helpers/virtual-clock'

// Guesses sent all at once: each sign-in is counted before its (slow) password check, so
// only as many wrong passwords are checked as the throttle allows, and the right password
// sent while they are being checked is refused like any other attempt while locked.

describe('team server: wrong passwords sent at once', () => {
  let fx: TeamFixture | undefined
  afterEach(async () => {
    await fx?.stop()
    fx = undefined
  })

  it.each([30, 100])(
    '%i concurrent wrong sign-ins then the right one: refused until the lock-out passes',
    async (guesses) => {
      const clock = new VirtualClock(Date.parse('2026-11-01T00:00:00Z'))
      const server = await startTestTeamServer({
        users: [{ name: 'ana', role: 'editor' }],
        server: { clock },
      })
      fx = server
      // Every form is fetched first, as many open pages would hold them.
      const forms = await Promise.all(Array.from({ length: guesses + 1 }, () => server.loginForm()))
      const rightForm = forms.pop()
      if (rightForm === undefined) throw new Error('no form')

      let sent = 0
      let allSent: () => void = () => {}
      const allWrongSent = new Promise<void>((resolve) => (allSent = resolve))
      const wrong = forms.map((form, i) =>
        server.postLoginForm(form, 'ana', `wrong-${i}`, {
          onSent: () => {
            if (++sent === guesses) allSent()
          },
        }),
      )
      // The right password, sent while the wrong ones are still being checked.
      await allWrongSent
      const right: RawResponse = await server.postLoginForm(
        rightForm,
        'ana',
        server.password('ana'),
      )
      const answers = await Promise.all(wrong)

      expect(right.status).toBe(429)
      expect(right.body).toContain('Too many failed sign-ins')
      const statuses = answers.map((a) => a.status)
      // Only the attempts the policy allows had their password checked.
      expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULT_THROTTLE_POLICY.maxFailures)
      expect(statuses.filter((s) => s === 429)).toHaveLength(
        guesses - DEFAULT_THROTTLE_POLICY.maxFailures,
      )

      // Once all are answered, still locked; after the lock-out, the right password works.
      expect((await server.postLogin('ana', server.password('ana'))).status).toBe(429)
      await clock.advance(DEFAULT_THROTTLE_POLICY.lockMs - 1)
      expect((await server.postLogin('ana', server.password('ana'))).status).toBe(429)
      await clock.advance(1)
      expect((await server.postLogin('ana', server.password('ana'))).status).toBe(303)
    },
  )
})
