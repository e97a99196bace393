import { z } from 'zod'
import type { Envelope } from './envelope'

// The web shell's wire: the contract carried over one WebSocket at IPC_SOCKET_PATH of the
// page's own origin. The shell validates what the page sends; the page trusts its shell.

/** Where the page opens the socket. */
export const IPC_SOCKET_PATH = '/ipc'

/**
 * The launch token rides in the socket's handshake as a subprotocol, beside the one the
 * shell answers with: it stays in the page's memory, never in a cookie that every local
 * port of the browser would receive, and never in a URL after the first load.
 */
export const SOCKET_PROTOCOL = 'heliograph'
const TOKEN_PROTOCOL_PREFIX = 'launch-token.'

/** The subprotocols the page offers: ours, then the one carrying the token. */
export function socketProtocols(token: string): string[] {
  return [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`]
}

/** The token a handshake's offered subprotocols carry, or null. */
export function tokenOfProtocols(offered: Iterable<string>): string | null {
  for (const protocol of offered)
    if (protocol.startsWith(TOKEN_PROTOCOL_PREFIX))
      return protocol.slice(TOKEN_PROTOCOL_PREFIX.length)
  return null
}

/** A request from the page: run `channel` with `input`, answer under `id`. */
export const InvokeMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int(),
  channel: z.string(),
  // Absent for channels whose input is void (JSON drops undefined).
  input: z.unknown().optional(),
})
export type InvokeMessage = z.infer<typeof InvokeMessage>

/** The shell's answer to one request. */
export interface ReplyMessage {
  type: 'reply'
  id: number
  envelope: Envelope<unknown>
}

/** A push event from the core. */
export interface EventMessage {
  type: 'event'
  event: string
  payload: unknown
}

/** Everything the shell sends to the page. */
export type ShellMessage = ReplyMessage | EventMessage
