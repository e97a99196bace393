import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Core } from '../../app/core'
import { checkAccess, newLaunchToken, offersToken } from './web-access'
import { IPC_SOCKET_PATH } from '@shared/ipc/web-socket-protocol'
import { requestUrl } from './request-parts'
import { contentSecurityPolicy, pageHeaders, serveAppRoute } from './app-routes'
import {
  closeServerAndSockets,
  createContractSockets,
  refuseUpgrade,
  serveContract,
} from './contract-socket'

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
    const csp = contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`])
    serveAppRoute(core, options.rendererDir, request.method, url, response, pageHeaders(csp))
  })

  const sockets = createContractSockets()
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const url = requestUrl(request)
    const verdict =
      url?.pathname !== IPC_SOCKET_PATH
        ? 'bad-host'
        : (checkAccess(request, port) ?? (offersToken(request, token) ? null : 'bad-token'))
    // A WebSocket handshake from a browser always carries Origin: require it.
    if (verdict !== null || request.headers.origin === undefined) {
      refuseUpgrade(socket)
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
    close: () => closeServerAndSockets(server, sockets),
  }
}
