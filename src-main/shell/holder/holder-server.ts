import { timingSafeEqual } from 'node:crypto'
import { chmodSync } from 'node:fs'
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { Core, FolderService } from '../../app/core'
import { toErrorPayload } from '../../app/error-payload'
import {
  newHolderSocketPath,
  newHolderToken,
  removeHolderAddress,
  removeSocketFile,
  writeHolderAddress,
  type HolderAddress,
} from '../../app/holder-address'
import { PRIVATE_FILE_MODE } from '../../db/private-files'
import type { Envelope } from '@shared/ipc/envelope'
import {
  HOLDER_HELLO_HEADER,
  HOLDER_SOCKET_PATH,
  HOLDER_STOPPED,
  HOLDER_STOPPING,
  HOLDER_TOKEN_HEADER,
  HolderHello,
  type HolderWelcome,
} from '@shared/ipc/holder-protocol'
import type { ErrorPayload } from '@shared/ipc/ipc-errors'
import { closeServerAndSockets, createContractSockets, serveContract } from '../web/contract-socket'

// The holder of a data folder serves the folder's other processes (the CLI's commands):
// each connects to the folder's socket, proves it can read the holder file (the token),
// says which data source it works on, and sends the same contract calls it would make on a
// core of its own. See docs/ARCHITECTURE.md, "One holder per data folder".

/** What a refused command is told when the holder is stopping. */
const STOPPING: ErrorPayload = {
  name: HOLDER_STOPPING,
  message: 'The process holding the data folder is stopping: run the command again.',
}

/** One command connected to the holder: what it has under way, for a clean end. */
class Connection {
  readonly #pending = new Set<Promise<unknown>>()
  readonly #exports = new Set<string>()
  readonly #syncs = new Set<string>()
  #isStopping = false

  constructor(
    readonly ws: WebSocket,
    readonly core: Core,
    readonly hello: HolderHello,
    readonly alongside: Core | null,
  ) {}

  /** Runs a request on this command's core, with its save path standing for the dialog. */
  dispatch = async (channel: string, input: unknown): Promise<Envelope<unknown>> => {
    if (this.#isStopping) return { ok: false, error: STOPPING }
    const { savePath } = this.hello
    const track = this.#track(channel, input)
    const answer = this.core.dispatch(channel, input, {
      ...(savePath === null ? {} : { choosePath: () => Promise.resolve(savePath) }),
    })
    this.#pending.add(answer)
    try {
      return await answer
    } finally {
      this.#pending.delete(answer)
      track?.()
    }
  }

  /** Notes an export or a wallet's sync under way; returns what forgets it. */
  #track(channel: string, input: unknown): (() => void) | null {
    const set =
      channel === 'export:run' ? this.#exports : channel === 'sync:run' ? this.#syncs : null
    const key = (input as { exportId?: unknown; address?: unknown } | null)?.[
      channel === 'export:run' ? 'exportId' : 'address'
    ]
    if (set === null || typeof key !== 'string') return null
    set.add(key)
    return () => set.delete(key)
  }

  /**
   * Ends the connection: what it has under way is cancelled (an export nobody waits for, a
   * sync the holder must stop for), answered, and its core beside the holder's closed.
   */
  async end(): Promise<void> {
    this.#isStopping = true
    for (const exportId of this.#exports) await this.core.dispatch('export:cancel', { exportId })
    for (const address of this.#syncs) await this.core.dispatch('sync:cancel', { address })
    await Promise.allSettled([...this.#pending])
    this.ws.close(HOLDER_STOPPED, 'The holder is stopping')
    await this.alongside?.close()
  }

  /** The command went away (closed, or killed): its exports stop; its syncs may finish. */
  async dropped(): Promise<void> {
    if (this.#isStopping) return
    this.#isStopping = true
    for (const exportId of this.#exports) await this.core.dispatch('export:cancel', { exportId })
    await Promise.allSettled([...this.#pending])
    await this.alongside?.close()
  }
}

/** Whether `offered` is the holder's token, compared in constant time. */
function isToken(offered: string | string[] | undefined, token: string): boolean {
  if (typeof offered !== 'string') return false
  const a = Buffer.from(offered)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The command's hello from its header, or null when it is missing or malformed. */
function helloOf(request: IncomingMessage): HolderHello | null {
  const header = request.headers[HOLDER_HELLO_HEADER]
  if (typeof header !== 'string') return null
  try {
    const parsed = HolderHello.safeParse(JSON.parse(header))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Answers a refused connection with `status` and the error, as JSON, and closes it. */
function refuse(socket: Duplex, status: number, error: ErrorPayload): void {
  const body = JSON.stringify(error)
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/**
 * Starts serving the folder's other processes for the holder named `name` (its core still
 * opening): listens on an owner-only socket, writes the holder file that names it, and
 * answers each command on the core for its data source. Returns what stops it.
 *
 * @example
 * const core = await createCore({ …, serveOthers: (opening) => serveFolder({ dataDir, name }, opening) })
 */
export async function serveFolder(
  options: { dataDir: string; name: string },
  opening: Promise<Core>,
): Promise<FolderService> {
  const address: HolderAddress = {
    pid: process.pid,
    name: options.name,
    socket: newHolderSocketPath(options.dataDir),
    token: newHolderToken(),
  }
  const holder = `${options.name} (pid ${process.pid})`
  const sockets = createContractSockets()
  const connections = new Set<Connection>()
  let isClosing = false

  const admit = async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    if (isClosing) return refuse(socket, 503, STOPPING)
    if (
      new URL(request.url ?? '/', 'http://holder').pathname !== HOLDER_SOCKET_PATH ||
      !isToken(request.headers[HOLDER_TOKEN_HEADER], address.token)
    )
      return refuse(socket, 403, { name: 'PermissionError', message: 'Not the holder’s token.' })
    const hello = helloOf(request)
    if (hello === null)
      return refuse(socket, 400, { name: 'InvalidInputError', message: 'Malformed hello.' })
    let core: Core
    try {
      core = await opening
    } catch (error) {
      return refuse(
        socket,
        503,
        toErrorPayload(error, (text) => text),
      )
    }
    if (!core.runsWith(hello))
      return refuse(socket, 409, {
        name: 'AppError',
        message: `The data folder ${options.dataDir} is held by ${holder}, which runs with another --service, --api-key or --database than \`heliograph ${hello.command}\` was given: run it without them to use that process's, or stop that process first.`,
      })
    let target = core
    try {
      const source = await core.sourceFor(hello.dataSource)
      if (source !== core.info.dataSource) target = await core.openForSource(source)
    } catch (error) {
      return refuse(socket, 500, toErrorPayload(error, core.redact))
    }
    const alongside = target === core ? null : target
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const connection = new Connection(ws, target, hello, alongside)
      connections.add(connection)
      ws.on('close', () => {
        connections.delete(connection)
        void connection.dropped()
      })
      const welcome: HolderWelcome = {
        type: 'welcome',
        holder,
        dataSource: target.info.dataSource,
        isSharedMirror: target.isSharedMirror,
      }
      ws.send(JSON.stringify(welcome))
      serveContract(ws, { events: target.events, dispatch: connection.dispatch })
    })
  }

  const server = createServer((_request, response) => response.writeHead(426).end())
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    void admit(request, socket, head)
  })
  // A socket left by a holder that was killed: this process holds the folder now.
  removeSocketFile(address.socket)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address.socket, () => resolve())
  })
  if (process.platform !== 'win32') chmodSync(address.socket, PRIVATE_FILE_MODE)
  writeHolderAddress(options.dataDir, address)
  // However the process ends (a closed pipe ends a command at once), the file goes with it.
  const removeOnExit = (): void => removeHolderAddress(options.dataDir, address)
  process.on('exit', removeOnExit)

  return {
    async close() {
      if (isClosing) return
      isClosing = true
      process.off('exit', removeOnExit)
      removeHolderAddress(options.dataDir, address)
      await Promise.all([...connections].map((c) => c.end()))
      await closeServerAndSockets(server, sockets)
    },
  }
}
