import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash, randomBytes } from 'node:crypto'
import { rawRequest } from '../../helpers/raw-http'
import {
  setCookies,
  startTestTeamServer,
  type TeamFixture,
} from '../../helpers/team-server-fixture'
import { testAddress } from '../../helpers/wallets'

// The team server lets in only signed-in accounts: every route but the sign-in page and
// the extra (self-authenticating) routes needs a valid session cookie, every state change
// our Origin and the session's CSRF token, and the socket our Origin at its handshake.

describe('team server: who may reach it', () => {
  let fx: TeamFixture
  let nowSec = 1_800_000_000
  const deliveries: string[] = []
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'editor' }],
      server: {
        nowSec: () => nowSec,
        routes: [
          {
            path: '/hooks/test',
            handle: (request, response) => {
              deliveries.push(String(request.headers['x-test']))
              response.writeHead(202).end()
            },
          },
        ],
      },
    })
  })
  afterAll(() => fx.stop())

  it('refuses HTTP and the WebSocket without a session; sends a browser to the sign-in page', async () => {
    expect((await rawRequest(fx.port, '/')).status).toBe(401)
    expect((await rawRequest(fx.port, '/auth/session')).status).toBe(401)
    expect((await rawRequest(fx.port, '/images/abc')).status).toBe(401)
    expect((await rawRequest(fx.port, '/export/abc')).status).toBe(401)
    const page = await rawRequest(fx.port, '/', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(303)
    expect(page.headers.location).toBe('/login')
    expect(await fx.connect({})).toBe(403)
    const login = await rawRequest(fx.port, '/login')
    expect(login.status).toBe(200)
    expect(login.body).toContain('<form method="post" action="/login">')
    expect(String(login.headers['content-security-policy'])).toContain("form-action 'self'")
    // Under no-referrer a browser would post the form with `Origin: null`.
    expect(login.headers['referrer-policy']).toBe('same-origin')
  })

  it('signs in with a cookie that is HttpOnly, SameSite=Strict, Path=/ and not Secure over http', async () => {
    const answer = await fx.postLogin('ana', fx.password('ana'))
    expect(answer.status).toBe(303)
    const session = setCookies(answer).find((c) => c.startsWith('heliograph_session='))
    expect(session).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/)
    const client = await fx.signIn('ana')
    const page = await rawRequest(fx.port, '/', { headers: { cookie: client.cookie } })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<div id="app">')
    const ws = await fx.connect({ cookie: client.cookie })
    expect(typeof ws).toBe('object')
    if (typeof ws === 'number') return
    expect(await ws.call('watchlist:list')).toEqual({ ok: true, result: [] })
    ws.close()
  })

  it('refuses forged cookies: a random token, a token altered by one character, the stored hash', async () => {
    const client = await fx.signIn('ana')
    const token = client.cookie.slice('heliograph_session='.length)
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    const hash = createHash('sha256').update(token).digest('base64url')
    for (const forged of [randomBytes(32).toString('base64url'), altered, hash]) {
      const cookie = `heliograph_session=${forged}`
      expect((await rawRequest(fx.port, '/auth/session', { headers: { cookie } })).status).toBe(401)
      expect(await fx.connect({ cookie })).toBe(403)
    }
    // What the database holds is the hash, never the token.
    const stored = await fx.accounts.database.db
      .selectFrom('team_sessions')
      .select('token_hash')
      .execute()
    expect(stored.map((r) => r.token_hash)).toContain(hash)
    expect(JSON.stringify(stored)).not.toContain(token)
  })

  it('ends a session after 12 idle hours and after 7 days at most', async () => {
    const client = await fx.signIn('ana')
    const ask = async () =>
      (await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })).status
    nowSec += 11 * 3600
    expect(await ask()).toBe(200)
    nowSec += 11 * 3600 // used 11 h ago: still alive, 22 h after sign-in
    expect(await ask()).toBe(200)
    nowSec += 12 * 3600
    expect(await ask()).toBe(401)
    expect(await fx.connect({ cookie: client.cookie })).toBe(403)

    const week = await fx.signIn('ana')
    for (let day = 0; day < 7; day++) {
      expect(
        (await rawRequest(fx.port, '/auth/session', { headers: { cookie: week.cookie } })).status,
      ).toBe(200)
      nowSec += 11 * 3600
    }
    nowSec += 11 * 3600
    // Used every 11 h, but more than 7 days after sign-in.
    expect(
      (await rawRequest(fx.port, '/auth/session', { headers: { cookie: week.cookie } })).status,
    ).toBe(401)
  })

  it('refuses a cross-site POST and a POST without the CSRF token; signs out with both', async () => {
    const client = await fx.signIn('ana')
    const post = (headers: Record<string, string>) =>
      rawRequest(fx.port, '/logout', {
        method: 'POST',
        headers: { cookie: client.cookie, ...headers },
      })
    expect(
      (await post({ origin: 'https://evil.example', 'x-csrf-token': client.csrfToken })).status,
    ).toBe(403)
    expect(
      (await post({ referer: 'https://evil.example/page', 'x-csrf-token': client.csrfToken }))
        .status,
    ).toBe(403)
    expect((await post({ 'x-csrf-token': client.csrfToken })).status).toBe(403)
    expect((await post({ origin: fx.origin })).status).toBe(403)
    expect((await post({ origin: fx.origin, 'x-csrf-token': 'x'.repeat(43) })).status).toBe(403)
    // Still signed in after the refusals.
    expect(
      (await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })).status,
    ).toBe(200)
    expect((await post({ origin: fx.origin, 'x-csrf-token': client.csrfToken })).status).toBe(204)
    expect(
      (await rawRequest(fx.port, '/auth/session', { headers: { cookie: client.cookie } })).status,
    ).toBe(401)
  })

  it('refuses a cross-site sign-in form and one without its form token', async () => {
    expect(
      (await fx.postLogin('ana', fx.password('ana'), { origin: 'https://evil.example' })).status,
    ).toBe(403)
    expect((await fx.postLogin('ana', fx.password('ana'), { cookie: '' })).status).toBe(403)
  })

  it('refuses a cross-site WebSocket handshake, and one without Origin, even with a valid cookie', async () => {
    const client = await fx.signIn('ana')
    expect(await fx.connect({ cookie: client.cookie, origin: 'https://evil.example' })).toBe(403)
    expect(await fx.connect({ cookie: client.cookie, origin: `http://localhost:${fx.port}` })).toBe(
      403,
    )
  })

  it('an open socket stops answering once its session is signed out', async () => {
    const client = await fx.signIn('ana')
    const ws = await fx.connect({ cookie: client.cookie })
    if (typeof ws === 'number') throw new Error(`refused: ${ws}`)
    expect((await ws.call('watchlist:list')).ok).toBe(true)
    await rawRequest(fx.port, '/logout', {
      method: 'POST',
      headers: { cookie: client.cookie, origin: fx.origin, 'x-csrf-token': client.csrfToken },
    })
    const after = await ws.call('watchlist:add', { address: testAddress(3) })
    expect(after).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/session has ended/) },
    })
    expect(await fx.core.dispatch('watchlist:list', undefined)).toEqual({ ok: true, result: [] })
  })

  it('passes POSTs to an extra route before sign-in; other methods there still need a session', async () => {
    const answer = await rawRequest(fx.port, '/hooks/test', {
      method: 'POST',
      headers: { 'x-test': 'one' },
    })
    expect(answer.status).toBe(202)
    expect(deliveries).toEqual(['one'])
    expect((await rawRequest(fx.port, '/hooks/test')).status).toBe(401)
  })
})

describe('team server behind an https public URL', () => {
  let fx: TeamFixture
  beforeAll(async () => {
    fx = await startTestTeamServer({
      users: [{ name: 'ana', role: 'viewer' }],
      server: { publicUrl: 'https://heliograph.example.com/' },
    })
  })
  afterAll(() => fx.stop())

  it('marks the session cookie Secure and takes only the public origin as ours', async () => {
    const origin = 'https://heliograph.example.com'
    expect(fx.server.publicUrl).toBe('https://heliograph.example.com/')
    expect((await fx.postLogin('ana', fx.password('ana'))).status).toBe(403)
    const answer = await fx.postLogin('ana', fx.password('ana'), { origin })
    expect(answer.status).toBe(303)
    const session = setCookies(answer).find((c) => c.startsWith('heliograph_session=')) as string
    expect(session).toMatch(/; Secure$/)
    const cookie = session.split(';')[0] as string
    expect(await fx.connect({ cookie })).toBe(403)
    const ws = await fx.connect({ cookie, origin })
    expect(typeof ws).toBe('object')
    if (typeof ws !== 'number') ws.close()
  })
})

// DNS rebinding: a name the attacker controls, made to resolve to this server, is not
// one of the server's names, so nothing is answered for it: not the sign-in page, not an
// extra route, not the socket.
describe('team server: answers only the host names it serves', () => {
  for (const bound of ['127.0.0.1', '0.0.0.0']) {
    it(`bound to ${bound}: Host evil.example is refused on every route and the socket`, async () => {
      const fx = await startTestTeamServer({
        users: [{ name: 'ana', role: 'editor' }],
        server: {
          host: bound,
          routes: [
            { path: '/hooks/test', handle: (_q, response) => response.writeHead(202).end() },
          ],
        },
      })
      try {
        const evil = { host: 'evil.example' }
        for (const [method, path] of [
          ['GET', '/login'],
          ['GET', '/'],
          ['POST', '/login'],
          ['POST', '/hooks/test'],
        ] as const) {
          const answer = await rawRequest(fx.port, path, { method, headers: evil })
          expect(answer.status, `${method} ${path}`).toBe(421)
        }
        const { cookie } = await fx.signIn('ana')
        expect(
          await fx.connect({
            cookie,
            host: `evil.example:${fx.port}`,
            origin: 'http://evil.example',
          }),
        ).toBe(403)
        // Its own names are answered.
        for (const host of [`127.0.0.1:${fx.port}`, `localhost:${fx.port}`, `LOCALHOST:${fx.port}`])
          expect((await rawRequest(fx.port, '/login', { headers: { host } })).status).toBe(200)
      } finally {
        await fx.stop()
      }
    })
  }

  it('with --public-url, its host is answered too', async () => {
    const fx = await startTestTeamServer({
      server: { publicUrl: 'https://heliograph.example.com' },
    })
    try {
      const host = { host: 'heliograph.example.com' }
      expect((await rawRequest(fx.port, '/login', { headers: host })).status).toBe(200)
      const other = { host: 'other.example.com' }
      expect((await rawRequest(fx.port, '/login', { headers: other })).status).toBe(421)
    } finally {
      await fx.stop()
    }
  })
})
