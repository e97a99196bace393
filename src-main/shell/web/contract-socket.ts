import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Core } from '../../app/core'
import type { Envelope } from '@shared/ipc/envelope'
import type { TeamRole } from '@shared/domain/team-roles'
import { InvokeMessage, SOCKET_PROTOCOL, type ShellMessage } from '@shared/ipc/web-socket-protocol'

// The contract over one WebSocket, shared by the loopback web shell and the team server:
// each decides who may open the socket; this carries requests, replies and events.

/** Whether a request runs: a refusal to answer instead, or the account it runs for. */
export type Admission = { refusal: Envelope<unknown> } | { caller?: { role: TeamRole } }

/** What a server may add around each request of one socket. */
export interface ContractGuard {
  /** Decides each request: refused, or run (for the signed-in account, if any). */
  admit?(channel: string): Promise<Admission>
  /** The reply as sent, from the core's answer (e.g. without parts of a secret). */
  reply?(channel: string, envelope: Envelope<unknown>): Envelope<unknown>
}

/** The WebSocket server the contract's sockets are handed to after their handshake passed. */
export function createContractSockets(): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024 * 1024,
    // The page may offer ours and a token's; the answer names only ours.
    handleProtocols: () => SOCKET_PROTOCOL,
  })
}

/** Answers a refused handshake with 403 and closes the connection. */
export function refuseUpgrade(socket: Duplex): void {
  // Closed once the answer is flushed: `end` alone would leave the connection half-open
  // for as long as the client keeps its side.
  socket.once('finish', () => socket.destroy())
  socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
}

/** Carries the contract over one accepted socket: requests to the core, its events back. */
export function serveContract(
  ws: WebSocket,
  core: Pick<Core, 'events' | 'dispatch'>,
  guard: ContractGuard = {},
): void {
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
    const { channel } = message
    const answer = async (): Promise<Envelope<unknown>> => {
      const admission = (await guard.admit?.(channel)) ?? {}
      if ('refusal' in admission) return admission.refusal
      return core.dispatch(channel, message.input, admission.caller)
    }
    void answer().then((envelope) => {
      const sent = guard.reply ? guard.reply(channel, envelope) : envelope
      if (ws.readyState === ws.OPEN)
        ws.send(
          JSON.stringify({ type: 'reply', id: message.id, envelope: sent } satisfies ShellMessage),
        )
    })
  })
}

/** Closes an HTTP server and every contract socket it accepted. */
export async function closeServerAndSockets(
  server: Server,
  sockets: WebSocketServer,
): Promise<void> {
  for (const client of sockets.clients) client.terminate()
  sockets.close()
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}
