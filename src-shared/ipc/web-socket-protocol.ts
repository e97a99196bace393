import { z } from 'zod'
import type { Envelope } from './envelope'

// The web shell's wire: the contract carried over one WebSocket at IPC_SOCKET_PATH of the
// page's own origin. The shell validates what the page sends; the page trusts its shell.

/** Where the page opens the socket. */
export const IPC_SOCKET_PATH = '/ipc'

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
