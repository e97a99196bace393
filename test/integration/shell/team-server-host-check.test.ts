import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExtraRoute } from '../../../src-main/shell/team/team-server'
import { openSocket, rawRequest } from '../../helpers/raw-http'
import { startTestTeamServer, type TeamFixture } from '../../helpers/team-server-fixture'

// DNS rebinding: a page of evil.example whose name is made to resolve to the team server's
// address is, to the browser, same-origin with it, so Origin checks pass; only its `Host`
// header (evil.example) gives it away. The server answers only requests naming itself.

const EVIL = 'evil.example'

/** Every way in, sent as a rebound page of `host` would send it (its own origin). */
async function everyRoute(fx: TeamFixture, host: string) {
  const origin = `http://${host}`
  const headers = { host, origin }
  const form = await fx.loginForm()
  return {
    page: await rawRequest(fx.port, '/', { headers: { ...headers, accept: 'text/html' } }),
    loginPage: await rawRequest(fx.port, '/login', { headers }),
    login: await fx.postLoginForm(form, 'ana', fx.password('ana'), { headers }),
    api: await rawRequest(fx.port, '/auth/session', { headers }),
    hook: await rawRequest(fx.port, '/hooks/test', { method: 'POST', headers }),
    socket: await openSocket(fx.port, '/ipc', headers, ['heliograph']),
  }
}

const hookRoute: ExtraRoute = {
  path: '/hooks/test',
  handle: (_request, response) => response.writeHead(202).end(),
}

describe('team server on loopback: answers only to its own names', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'editor' }],
      server: { routes: [hookRoute] },
    })
  })
  afterAll(() => fx.stop())

  it('refuses Host: evil.example with 421 on the page, sign-in, API, extra routes and socket', async () => {
    const answers = await everyRoute(fx, EVIL)
    for (const answer of [
      answers.page,
      answers.loginPage,
      answers.login,
      answers.api,
      answers.hook,
    ]) {
      expect(answer.status).toBe(421)
      expect(answer.body).toMatch(/^Misdirected request: this server answers only at its own/)
      expect(answer.headers['set-cookie']).toBeUndefined()
    }
    expect(answers.socket).toBe(421)
    // With the port a rebound page would name, too.
    expect(
      (await rawRequest(fx.port, '/login', { headers: { host: `${EVIL}:${fx.port}` } })).status,
    ).toBe(421)
  })

  it('refuses a signed-in cookie sent under another name', async () => {
    const client = await fx.signIn('ana')
    const answer = await rawRequest(fx.port, '/auth/session', {
      headers: { host: EVIL, cookie: client.cookie },
    })
    expect(answer.status).toBe(421)
    expect(answer.body).not.toContain(client.csrfToken)
  })

  it('answers at 127.0.0.1, localhost and [::1] with its port, in any case', async () => {
    for (const host of [`127.0.0.1:${fx.port}`, `LocalHost:${fx.port}`, `[::1]:${fx.port}`]) {
      const answers = await everyRoute(fx, host)
      expect(answers.loginPage.status, host).toBe(200)
      expect(answers.login.status, host).toBe(303)
      expect(answers.hook.status, host).toBe(202)
      expect(answers.page.status, host).toBe(303) // to the sign-in page: no cookie was sent
      if (typeof answers.socket === 'number') expect(answers.socket, host).toBe(403)
      else throw new Error('the socket opened without a session')
    }
  })

  it('refuses its own address at another port, and a Host that is not a host', async () => {
    for (const host of [`127.0.0.1:${fx.port + 1}`, '127.0.0.1', `127.0.0.1:${fx.port}/x`])
      expect((await rawRequest(fx.port, '/login', { headers: { host } })).status, host).toBe(421)
  })
})

describe('team server on every interface, without a public URL', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'viewer' }],
      server: { host: '0.0.0.0' },
    })
  })
  afterAll(() => fx.stop())

  it('answers at loopback and at the addresses of this machine, refuses evil.example', async () => {
    const ipv4 = Object.values(networkInterfaces())
      .flatMap((a) => a ?? [])
      .filter((a) => a.family === 'IPv4')
      .map((a) => a.address)
    expect(ipv4).toContain('127.0.0.1')
    for (const address of ipv4)
      expect(
        (await rawRequest(fx.port, '/login', { headers: { host: `${address}:${fx.port}` } }))
          .status,
      ).toBe(200)
    expect(
      (await rawRequest(fx.port, '/login', { headers: { host: `localhost:${fx.port}` } })).status,
    ).toBe(200)
    const evil = await everyRoute(fx, EVIL)
    for (const answer of [evil.page, evil.loginPage, evil.login, evil.api])
      expect(answer.status).toBe(421)
    expect(evil.socket).toBe(421)
  })
})

describe('team server with a public URL', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'viewer' }],
      server: { publicUrl: 'https://heliograph.example.com/' },
    })
  })
  afterAll(() => fx.stop())

  it('answers at the public host (as a proxy forwards it) and its bound address, refuses others', async () => {
    for (const host of [
      'heliograph.example.com',
      'heliograph.example.com:443',
      `127.0.0.1:${fx.port}`,
    ])
      expect((await rawRequest(fx.port, '/login', { headers: { host } })).status, host).toBe(200)
    for (const host of [EVIL, 'heliograph.example.com.evil.example', `localhost:${fx.port + 1}`])
      expect((await rawRequest(fx.port, '/login', { headers: { host } })).status, host).toBe(421)
  })
})
