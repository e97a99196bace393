import { connect } from 'node:net'
import { WebSocket } from 'ws'
import { EventBus } from '../app/event-bus'
import { readHolderAddress, type HolderAddress } from '../app/holder-address'
import type { Envelope } from '@shared/ipc/envelope'
import {
  HOLDER_HELLO_HEADER,
  HOLDER_SOCKET_PATH,
  HOLDER_STOPPED,
  HOLDER_STOPPING,
  HOLDER_TOKEN_HEADER,
  type HolderHello,
  type HolderRefusal,
  type HolderWelcome,
} from '@shared/ipc/holder-protocol'
import { AppError, rebuildError } from '@shared/ipc/ipc-errors'
import type { ShellMessage } from '@shared/ipc/web-socket-protocol'
import type { DataSource } from '@shared/ipc/settings-schemas'

// A command's side of the holder's socket (see shell/holder/holder-server.ts): finds the
// process holding the data folder, connects as the folder's owner, and sends the contract
// calls the command would make on a core of its own.

/** What a socket left by a holder that ended answers: nobody listens there any more. */
const GONE_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTSOCK', 'ECONNRESET', 'EPIPE'])

/** The holder ended before a request reached it: the request may go elsewhere. */
export class HolderGoneError extends AppError {
  override name = 'HolderGoneError'
}

/** A command's connection to the folder's holder, with the contract's calls and events. */
export class HolderConnection {
  readonly events = new EventBus()
  readonly #ws: WebSocket
  readonly #welcome: HolderWelcome
  readonly #waiting = new Map<
    number,
    { resolve: (envelope: Envelope<unknown>) => void; reject: (error: Error) => void }
  >()
  #nextId = 1
  #isClosed = false

  constructor(ws: WebSocket, welcome: HolderWelcome) {
    this.#ws = ws
    this.#welcome = welcome
    ws.on('message', (data) => this.#receive(String(data)))
    ws.on('close', (code) => this.#closed(code))
    ws.on('error', () => this.#closed(null))
  }

  /** The holder in words: "`heliograph sync` (pid 4242)". */
  get holder(): string {
    return this.#welcome.holder
  }

  get info(): { dataSource: DataSource } {
    return { dataSource: this.#welcome.dataSource }
  }

  get isSharedMirror(): boolean {
    return this.#welcome.isSharedMirror
  }

  /**
   * Sends a contract call and resolves to the holder's answer. Throws HolderGoneError when
   * the holder was gone before the call left (it may go elsewhere), and an AppError saying
   * so when it ended before answering (whether the call was done is not known).
   */
  dispatch(channel: string, input: unknown): Promise<Envelope<unknown>> {
    if (this.#isClosed || this.#ws.readyState !== WebSocket.OPEN)
      return Promise.reject(new HolderGoneError(`${this.holder} has stopped.`))
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      this.#ws.send(JSON.stringify({ type: 'invoke', id, channel, input }))
    })
  }

  /** A shared sync round runs in a worker's own folder, never through another's holder. */
  syncShared(): Promise<never> {
    return Promise.reject(
      new AppError(
        `A shared sync round runs in a worker's own data folder; ${this.holder} holds this one (and syncs its share of the wallets): give this worker a --data-dir of its own.`,
      ),
    )
  }

  async close(): Promise<void> {
    if (this.#isClosed) return
    this.#isClosed = true
    await new Promise<void>((resolve) => {
      this.#ws.once('close', () => resolve())
      this.#ws.close(1000)
      // A holder that does not answer the close is not waited for.
      setTimeout(() => {
        this.#ws.terminate()
        resolve()
      }, 2_000).unref()
    })
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as ShellMessage
    if (message.type === 'event') {
      this.events.emit(message.event as never, message.payload as never)
      return
    }
    const waiting = this.#waiting.get(message.id)
    this.#waiting.delete(message.id)
    // A holder that is stopping runs nothing more: the call may go to whoever holds next.
    const { envelope } = message
    if (!envelope.ok && envelope.error.name === HOLDER_STOPPING)
      waiting?.reject(new HolderGoneError(envelope.error.message))
    else waiting?.resolve(envelope)
  }

  /**
   * The connection closed. A holder that stops closes with 1001 once it has answered every
   * call it took, so what is still waiting then was never run; any other end (the holder
   * killed) leaves it unknown whether the call was done.
   */
  #closed(code: number | null): void {
    this.#isClosed = true
    const ended = {
      name: 'HolderEndedError',
      message: `${this.holder}, which holds the data folder, ended before answering: whether the command was done is not known (check before running it again).`,
    }
    for (const { resolve, reject } of this.#waiting.values())
      if (code === HOLDER_STOPPED) reject(new HolderGoneError(`${this.holder} has stopped.`))
      else resolve({ ok: false, error: ended })
    this.#waiting.clear()
  }
}

/**
 * Connects to the process holding `dataDir`, or resolves to null when none holds it (no
 * holder file, or the socket of one that ended: a killed holder leaves both behind). A
 * holder that refuses the command (another key, say) rejects with its reason.
 */
export async function reachHolder(
  dataDir: string,
  hello: HolderHello,
): Promise<HolderConnection | null> {
  let address: HolderAddress | null
  try {
    address = readHolderAddress(dataDir)
  } catch (error) {
    throw unreachable(dataDir, error)
  }
  if (address === null) return null
  return connectTo(address, hello, dataDir)
}

function connectTo(
  address: HolderAddress,
  hello: HolderHello,
  dataDir: string,
): Promise<HolderConnection | null> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://heliograph${HOLDER_SOCKET_PATH}`, {
      createConnection: () => connect(address.socket),
      headers: {
        [HOLDER_TOKEN_HEADER]: address.token,
        [HOLDER_HELLO_HEADER]: JSON.stringify(hello),
      },
      perMessageDeflate: false,
      maxPayload: 256 * 1024 * 1024,
    })
    ws.once('unexpected-response', (_request, response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => {
        ws.terminate()
        const error = refusalError(body, response.statusCode)
        // A holder that is stopping is as good as gone: the folder is the next one's.
        if (error.name === HOLDER_STOPPING) resolve(null)
        else reject(error)
      })
    })
    ws.once('error', (error: NodeJS.ErrnoException) => {
      if (GONE_CODES.has(error.code ?? '')) resolve(null)
      else reject(unreachable(dataDir, error, address))
    })
    ws.once('message', (data) => {
      const welcome = JSON.parse(String(data)) as HolderWelcome
      resolve(new HolderConnection(ws, welcome))
    })
  })
}

function refusalError(body: string, status: number | undefined): AppError {
  try {
    return rebuildError(JSON.parse(body) as HolderRefusal)
  } catch {
    return new AppError(`The process holding the data folder refused the command (HTTP ${status}).`)
  }
}

/** One line saying why the holder cannot be reached, and what to do. */
function unreachable(dataDir: string, error: unknown, address?: HolderAddress): AppError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EACCES' || code === 'EPERM')
    return new AppError(
      `The data folder ${dataDir} is not yours to use (permission denied${address ? ` on the socket of ${address.name}, pid ${address.pid}` : ''}): Heliograph keeps each person's data private; run the command as the folder's owner, or give --data-dir a folder of your own.`,
    )
  return new AppError(
    `Cannot reach the process holding ${dataDir}${address ? ` (${address.name}, pid ${address.pid})` : ''}: ${(error as Error).message}. Stop that process, or run the command again once it is gone.`,
  )
}
