import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../helpers/raw-http'
import {
  startTestTeamServer,
  type TeamClient,
  type TeamFixture,
} from '../../helpers/team-server-fixture'

// A one-time password (from `user add` or `user passwd`) signs in, but its session may
// only choose the account's own password: every contract channel is refused until then.
// Once chosen, the one-time password no longer signs in and the new one does.

describe('team server: a one-time password must be changed before anything else', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [
        { name: 'ana', role: 'editor', isPasswordOneTime: true },
        { name: 'bo', role: 'viewer' },
      ],
    })
  })
  afterAll(() => fx.stop())

  const sessionInfo = async (client: TeamClient) => {
    const answer = await rawRequest(fx.port, '/auth/session', {
      headers: { cookie: client.cookie },
    })
    return { status: answer.status, info: answer.status === 200 ? JSON.parse(answer.body) : null }
  }
  const changePassword = (
    client: TeamClient,
    body: unknown,
    headers: Record<string, string> = { origin: fx.origin, 'x-csrf-token': client.csrfToken },
  ) =>
    rawRequest(fx.port, '/auth/password', {
      method: 'POST',
      headers: { cookie: client.cookie, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })

  it('refuses every channel to a one-time session, with a clear error, until it chooses', async () => {
    const oneTime = fx.password('ana')
    const other = await fx.signIn('ana') // a second browser, signed in with the same password
    const client = await fx.signIn('ana')
    expect((await sessionInfo(client)).info).toMatchObject({
      name: 'ana',
      role: 'editor',
      mustChangePassword: true,
    })
    const ws = await fx.connect({ cookie: client.cookie })
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    for (const channel of ['watchlist:list', 'settings:get', 'app:info', 'sync:start']) {
      expect(await ws.call(channel)).toEqual({
        ok: false,
        error: {
          name: 'PermissionError',
          message:
            'You signed in with a one-time password: choose your own password first, then the app opens.',
          details: { channel },
        },
      })
    }

    // The change needs our page (Origin, CSRF token), the current password and the rules.
    const good = 'correct horse battery staple'
    expect(
      (await changePassword(client, { currentPassword: oneTime, newPassword: good }, {})).status,
    ).toBe(403)
    const short = await changePassword(client, { currentPassword: oneTime, newPassword: 'short1' })
    expect([short.status, short.body]).toEqual([
      400,
      'The password is too short (6 of at least 12 characters).',
    ])
    const wrong = await changePassword(client, {
      currentPassword: `${oneTime}x`,
      newPassword: good,
    })
    expect([wrong.status, wrong.body]).toEqual([403, 'Your current password is not right.'])
    const same = await changePassword(client, { currentPassword: oneTime, newPassword: oneTime })
    expect([same.status, same.body]).toEqual([
      400,
      'Choose a password different from the current one.',
    ])
    const unreadable = await changePassword(client, { password: good })
    expect(unreadable.status).toBe(400)
    expect((await ws.call('watchlist:list')).ok).toBe(false)

    expect(
      (await changePassword(client, { currentPassword: oneTime, newPassword: good })).status,
    ).toBe(204)
    // The session that chose stays signed in and may now use the app, on its open socket too.
    expect((await sessionInfo(client)).info).toMatchObject({ mustChangePassword: false })
    expect(await ws.call('watchlist:list')).toEqual({ ok: true, result: [] })
    ws.close()
    // Every other session of the account ended with the one-time password.
    expect((await sessionInfo(other)).status).toBe(401)
    expect((await fx.postLogin('ana', oneTime)).status).toBe(401)
    const again = await fx.signIn('ana', good)
    expect((await sessionInfo(again)).info).toMatchObject({ mustChangePassword: false })
  })

  it('lets an account with a chosen password in at once', async () => {
    const client = await fx.signIn('bo')
    expect((await sessionInfo(client)).info).toMatchObject({ mustChangePassword: false })
    const ws = await fx.connect({ cookie: client.cookie })
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    expect((await ws.call('watchlist:list')).ok).toBe(true)
    ws.close()
  })
})
