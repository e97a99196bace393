import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { socketProtocols } from '@shared/ipc/web-socket-protocol'
import { startTestWebShell } from '../../helpers/web-shell-fixture'
import { testAddress } from '../../helpers/wallets'
import { openSocket, rawRequest } from '../../helpers/raw-http'

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

/** A raw GET with exactly the headers given (fetch would add or forbid some). */
const get = (port: number, path: string, headers: Record<string, string> = {}) =>
  rawRequest(port, path, { headers })

describe('web shell: only the page it handed out may talk to it', () => {
  let fx: Fixture
  let origin: string
  beforeAll(async () => {
    fx = await startTestWebShell()
    origin = `http://127.0.0.1:${fx.shell.port}`
  })
  afterAll(() => fx.stop())

  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(fx.shell.url).toBe(`http://127.0.0.1:${fx.shell.port}/?token=${fx.shell.token}`)
    expect(fx.shell.token.length).toBeGreaterThanOrEqual(40)
  })

  it('the launch token is not in a cookie that other local ports receive: the page sets none', async () => {
    const res = await get(fx.shell.port, `/?token=${fx.shell.token}`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/html/)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(String(res.headers['content-security-policy'])).toMatch(/script-src 'self'/)
    expect(res.body).toContain('<div id="app">')
    // A cookie carrying the token no longer opens the socket: only the handshake does.
    expect(
      await openSocket(fx.shell.port, '/ipc', {
        origin,
        cookie: `heliograph_token=${fx.shell.token}`,
      }),
    ).toBe(403)
  })

  it('serves the page and its assets, which hold no data, without the token', async () => {
    const page = await get(fx.shell.port, '/')
    expect(page.status).toBe(200)
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1]
    expect(script).toBeDefined()
    const res = await get(fx.shell.port, script as string)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/text\/javascript/)
  })

  it('refuses HTTP with a foreign Origin or a foreign Host', async () => {
    expect((await get(fx.shell.port, '/', { origin: 'https://evil.example' })).status).toBe(403)
    expect((await get(fx.shell.port, '/', { host: 'evil.example' })).status).toBe(403)
  })

  it('refuses the WebSocket without the token, with a wrong one, a foreign Origin, or no Origin', async () => {
    expect(await openSocket(fx.shell.port, '/ipc', { origin })).toBe(403)
    expect(await openSocket(fx.shell.port, '/ipc', { origin }, socketProtocols('wrong'))).toBe(403)
    // The token in the URL no longer counts: it would sit in logs and history.
    expect(await openSocket(fx.shell.port, `/ipc?token=${fx.shell.token}`, { origin })).toBe(403)
    expect(
      await openSocket(
        fx.shell.port,
        '/ipc',
        { origin: 'https://evil.example' },
        socketProtocols(fx.shell.token),
      ),
    ).toBe(403)
    expect(await openSocket(fx.shell.port, '/ipc', {}, socketProtocols(fx.shell.token))).toBe(403)
  })

  it('carries the contract over the WebSocket with the token and our Origin', async () => {
    const ws = await openSocket(fx.shell.port, '/ipc', { origin }, socketProtocols(fx.shell.token))
    expect(ws).toBeInstanceOf(WebSocket)
    const socket = ws as WebSocket
    const messages: unknown[] = []
    const replies = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)))
        if (messages.filter((m) => (m as { type: string }).type === 'reply').length === 2) resolve()
      })
    })
    const address = testAddress(11)
    socket.send(
      JSON.stringify({
        type: 'invoke',
        id: 1,
        channel: 'watchlist:add',
        input: { address, label: 'Via socket' },
      }),
    )
    socket.send(
      JSON.stringify({
        type: 'invoke',
        id: 2,
        channel: 'watchlist:add',
        input: { address: 'bad' },
      }),
    )
    await replies
    socket.close()
    expect(messages).toContainEqual({
      type: 'reply',
      id: 1,
      envelope: { ok: true, result: expect.objectContaining({ address, label: 'Via socket' }) },
    })
    expect(messages).toContainEqual({
      type: 'reply',
      id: 2,
      envelope: { ok: false, error: expect.objectContaining({ name: 'InvalidInputError' }) },
    })
    expect(messages).toContainEqual({
      type: 'event',
      event: 'watchlist:changed',
      payload: [expect.objectContaining({ address })],
    })
  })
})
