import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { IPC_SOCKET_PATH, socketProtocols } from '@shared/ipc/web-socket-protocol'
import { startTestWebShell } from '../../helpers/web-shell-fixture'

// Findings of issue 12, "take the process down (high)": each request below used to throw
// out of the web shell's handlers and end the process (here: the test worker). Each must
// now be answered, and the shell must still serve the page afterwards.

type Fixture = Awaited<ReturnType<typeof startTestWebShell>>

/** Sends a raw HTTP/1.1 request line and headers; resolves the status line's code. */
function rawRequest(port: number, requestLine: string, headers: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        [requestLine, `Host: 127.0.0.1:${port}`, ...headers, 'Connection: close', '', ''].join(
          '\r\n',
        ),
      )
    })
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString('latin1')))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

describe('web shell: a hostile request is answered, never fatal', () => {
  let fx: Fixture
  let origin: string
  const stillServes = async () => {
    const page = await fetch(`${origin}/?token=${fx.shell.token}`)
    expect(page.status).toBe(200)
  }

  beforeAll(async () => {
    fx = await startTestWebShell()
    origin = `http://127.0.0.1:${fx.shell.port}`
  })
  afterAll(() => fx?.stop())

  it('GET //[ — an unparsable request URL — no longer kills the web shell before any token check', async () => {
    expect(await rawRequest(fx.shell.port, 'GET //[ HTTP/1.1')).toBe(400)
    expect(await rawRequest(fx.shell.port, `GET //[?token=${fx.shell.token} HTTP/1.1`)).toBe(400)
    // The same URL on the WebSocket upgrade path.
    expect(
      await rawRequest(fx.shell.port, 'GET //[ HTTP/1.1', [
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        `Origin: ${origin}`,
      ]),
    ).toBe(403)
    await stillServes()
  })

  it('/export/%E0%A4%A no longer throws URIError in export-download-route.ts', async () => {
    expect(await rawRequest(fx.shell.port, 'GET /export/%E0%A4%A HTTP/1.1')).toBe(400)
    expect(await rawRequest(fx.shell.port, 'GET /%E0%A4%A HTTP/1.1')).toBe(400)
    await stillServes()
  })

  it('one WebSocket message over the payload limit closes that socket (1009), not the process', async () => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${fx.shell.port}${IPC_SOCKET_PATH}`,
      socketProtocols(fx.shell.token),
      { headers: { origin } },
    )
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    ws.on('error', () => {})
    ws.send(Buffer.alloc(16 * 1024 * 1024 + 1, 0x20))
    expect(await closed).toBe(1009)
    await stillServes()
  })

  it('a refused WebSocket handshake is closed, not left half-open', async () => {
    // The client keeps its own side open (as a slow or hostile one would) and writes
    // again after the 403: on a closed connection that write is reset; on a half-open
    // one it would be accepted and the server would hold the socket indefinitely.
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ port: fx.shell.port, host: '127.0.0.1', allowHalfOpen: true })
      let answer = ''
      socket.on('connect', () =>
        socket.write(
          [
            `GET ${IPC_SOCKET_PATH} HTTP/1.1`,
            `Host: 127.0.0.1:${fx.shell.port}`,
            'Upgrade: websocket',
            'Connection: Upgrade',
            'Sec-WebSocket-Version: 13',
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
            `Origin: ${origin}`,
            `Sec-WebSocket-Protocol: ${socketProtocols('wrong').join(', ')}`,
            '',
            '',
          ].join('\r\n'),
        ),
      )
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
      socket.on('end', () => {
        const again = () => socket.write('still there?\r\n')
        again()
        setTimeout(again, 200)
        setTimeout(again, 400)
      })
      socket.on('error', () => resolve(`${answer.split('\r\n')[0]} / reset`))
      socket.on('close', () => resolve(`${answer.split('\r\n')[0]} / reset`))
      setTimeout(() => {
        resolve(`${answer.split('\r\n')[0]} / still open`)
        socket.destroy()
      }, 5_000)
    })
    expect(outcome).toBe('HTTP/1.1 403 Forbidden / reset')
    await stillServes()
  })
})
