import { z } from 'zod'
import { DataSource } from './settings-schemas'
import type { ErrorPayload } from './ipc-errors'

// The holder's wire: the process that holds a data folder runs the other processes'
// commands over the contract, carried as the web shell carries it (web-socket-protocol.ts:
// invoke, reply and event messages over one WebSocket), on a local socket of the folder's
// owner instead of a TCP port.

/** Where on the holder's socket a command opens its WebSocket. */
export const HOLDER_SOCKET_PATH = '/contract'

/** The error a stopping holder answers a call with: it ran nothing, so the call may go elsewhere. */
export const HOLDER_STOPPING = 'HolderStoppingError'

/** The close code of a holder that stopped after answering every call it took. */
export const HOLDER_STOPPED = 1001

/** The header that carries the holder's token (read from the folder's holder file). */
export const HOLDER_TOKEN_HEADER = 'x-heliograph-token'

/** The header that carries the command's {@link HolderHello}, as JSON. */
export const HOLDER_HELLO_HEADER = 'x-heliograph-hello'

/**
 * What a command tells the holder as it connects: which data source it works on (null:
 * what a command shows on the folder now), where its export goes, and what it was given for
 * this run only, which must be what the holder runs with (the key as a SHA-256 digest, the
 * database URL too: neither travels).
 */
export const HolderHello = z.object({
  /** The command as typed after `heliograph` (`watch add`). */
  command: z.string().max(200),
  dataSource: DataSource.nullable(),
  /** The file an export writes (`--out`), absolute; it stands for the shell's save dialog. */
  savePath: z.string().max(4096).nullable(),
  serviceUrl: z.string().max(2048).nullable(),
  apiKeyDigest: z.string().max(128).nullable(),
  databaseUrlDigest: z.string().max(128).nullable(),
})
export type HolderHello = z.infer<typeof HolderHello>

/** The holder's first message on a connection, before any reply or event. */
export interface HolderWelcome {
  type: 'welcome'
  /** The holder, as a person is told about it: "`heliograph sync` (pid 4242)". */
  holder: string
  dataSource: DataSource
  /** Whether other sync workers may share the mirror (a database server). */
  isSharedMirror: boolean
}

/** The body of a refused connection: the error, as any reply carries one. */
export type HolderRefusal = ErrorPayload
