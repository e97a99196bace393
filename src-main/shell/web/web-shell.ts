import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Core } from '../../app/core'
import { checkAccess, newLaunchToken, offersToken } from './web-access'
import {
  InvokeMessage,
  IPC_SOCKET_PATH,
  SOCKET_PROTOCOL,
  type ShellMessage,
} from '@shared/ipc/web-socket-protocol'
import { serveRendererFile } from './static-files'
import { serveExportDownload } from './export-download-route'
import { requestUrl } from './request-parts'
import { IMAGE_ROUTE } from '../../app/image-cache'

export interface WebShellOptions {
  core: Core
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /** Fixed token for tests; a random one per launch otherwise. */
  token?: string
}

export interface RunningWebShell {
  /** The URL to open, carrying the launch token. */
  url: string
  port: number
  token: string
  close(): Promise<void>
}

function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Svelte sets element styles (widths of progress bars) as attributes.
    "style-src 'self' 'unsafe-inline'",
    // Images come from the data folder (/images/…) or are inline: never from their hosts.
    "img-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ')
}

/**
 * Serves the built renderer and the IPC contract on 127.0.0.1 only, for machines where
 * Electron cannot run. Every request must name our Host and, when the browser sends one,
 * our Origin; the contract's socket must also carry the launch token, which the page takes
 * from the printed URL once and keeps in its own tab (web-access.ts).
 *
 * @example
 * const shell = await startWebShell({ core, rendererDir: 'out/renderer' })
 * console.log(shell.url) // http://127.0.0.1:49152/?token=…
 */
export async function startWebShell(options: WebShellOptions): Promise<RunningWebShell> {
  const token = options.token ?? newLaunchToken()
  const { core } = options
  let port = 0

  const server: Server = createServer((request, response) => {
    const url = requestUrl(request)
    if (url === null) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('Bad request: the URL cannot be read.')
      return
    }
    const verdict = checkAccess(request, port)
    if (verdict !== null) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
      response.end(`Forbidden (${verdict}): open the URL that Heliograph printed at start.`)
      return
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end()
      return
    }
    if (serveExportDownload(core, request.method, url.pathname, response)) return
    if (url.pathname.startsWith(IMAGE_ROUTE)) {
      void serveImage(core, url.pathname.slice(IMAGE_ROUTE.length), response)
      return
    }
    void serveRendererFile(options.rendererDir, url.pathname, response, {
      'content-security-policy': contentSecurityPolicy(port),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    }).catch(() => {
      if (!response.headersSent) response.writeHead(500)
      response.end()
    })
  })

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024 * 1024,
    // The page offers ours and the token's; the answer names only ours.
    handleProtocols: () => SOCKET_PROTOCOL,
  })
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const url = requestUrl(request)
    const verdict =
      url?.pathname !== IPC_SOCKET_PATH
        ? 'bad-host'
        : (checkAccess(request, port) ?? (offersToken(request, token) ? null : 'bad-token'))
    // A WebSocket handshake from a browser always carries Origin: require it.
    if (verdict !== null || request.headers.origin === undefined) {
      // Closed once the answer is flushed: `end` alone would leave the connection
      // half-open for as long as the client keeps its side.
      socket.once('finish', () => socket.destroy())
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveContract(ws, core))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function serveContract(ws: WebSocket, core: Core): void {
  // A frame over maxPayload or a broken frame is reported here, and ws then closes the
  // socket (1009, 1002); without a listener the error would end the whole process.
  ws.on('error', () => ws.terminate())
  const unsubscribe = core.events.subscribe((event, payload) => {
    if (ws.readyState === ws.OPEN)
      ws.send(JSON.stringify({ type: 'event', event, payload } satisfies ShellMessage))
  })
  ws.on('close', unsubscribe)
  ws.on('message', (data) => {
    let message: ReturnType<typeof InvokeMessage.parse>
    try {
      message = InvokeMessage.parse(JSON.parse(String(data)))
    } catch {
      ws.close(1003, 'Malformed message')
      return
    }
    void core.dispatch(message.channel, message.input).then((envelope) => {
      if (ws.readyState === ws.OPEN)
        ws.send(JSON.stringify({ type: 'reply', id: message.id, envelope } satisfies ShellMessage))
    })
  })
}

/** Answers `/images/<key>` from the core's image cache (404 when there is no image). */
async function serveImage(core: Core, key: string, response: ServerResponse): Promise<void> {
  const image = await core.readImage(key).catch(() => null)
  if (!image) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No such image.')
    return
  }
  response.writeHead(200, {
    'content-type': image.mime,
    'content-length': image.body.length,
    'cache-control': 'private, max-age=86400',
    'x-content-type-options': 'nosniff',
  })
  response.end(image.body)
}
