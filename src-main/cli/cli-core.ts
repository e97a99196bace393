import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { readAppVersion } from '../app/app-version'
import type { Core, SharedSyncOptions } from '../app/core'
import { defaultDataDir, demoDatabasePath, folderAccessProblem, holdsMirror } from '../app/data-dir'
import { EventBus, type EventListener } from '../app/event-bus'
import { secretDigest } from '../app/holder-address'
import type { SharedSyncRoundResult } from '../sync/shared-sync-round'
import type { LockHolder } from '../db/writer-lock'
import type { Channel, ChannelInput, ChannelOutput } from '@shared/ipc/contract'
import type { Envelope } from '@shared/ipc/envelope'
import type { HolderHello } from '@shared/ipc/holder-protocol'
import type { DataSource } from '@shared/ipc/settings-schemas'
import { countText } from '@shared/domain/display-text'
import { isKeySafeUrl } from '@shared/domain/service-url'
import { displayDatabaseUrl, isDatabaseUrl } from '../db/open-mirror'
import { AppError, rebuildError, StorageError } from '@shared/ipc/ipc-errors'
import { cliContext } from './cli-context'
import { HolderConnection, HolderGoneError, reachHolder } from './holder-client'

/** Root of the project (where package.json and out/ live), from this file's place in src-main/cli. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../..')

/** The built renderer served by the web shell. */
export const RENDERER_DIR = resolve(PROJECT_ROOT, 'out/renderer')

/** What a command that shows the demo says, once, on stderr (its output stays the data). */
export const DEMO_DATA_NOTICE =
  'Showing the built-in demo data (made-up wallets), not your own: `heliograph watch add ADDRESS` starts your own watchlist, which is shown from then on.'

/** Options every command takes. */
export interface GlobalOptions {
  dataDir?: string
  /** A PostgreSQL mirror (postgres://…) in place of the data folder's SQLite file. */
  database?: string
  /** One base URL serving the REST paths and JSON-RPC at `/` (as the simulator does). */
  service?: string
  apiKey?: string
  /** The mirror for this run: the person's own (`service`) or the demo one. */
  dataSource?: 'service' | 'demo'
}

/**
 * What a command does with the data folder: only reads it (and so may run beside the
 * process that writes), changes data that must be there already, or may create it.
 */
export type FolderUse = 'read' | 'change' | 'create'

/**
 * Whose data a command works on. `own`: what is the person's whatever is shown (syncing,
 * webhooks, alert channels, budgets), so it acts on their own mirror, key or no key.
 * `shown` (default): the data a person sees — reads, look-ups, and what they do to what they
 * see (labels, tags, alert rules) — the own mirror once it holds a wallet, else the demo
 * where it was made (see README, "Where data lives").
 */
export type DataUse = 'own' | 'shown'

/** How a command opens the core. */
export interface CommandCore {
  /** The command as typed after `heliograph` (`sync`, `watch add`): names this process to others. */
  command: string
  use: FolderUse
  /** Default: `shown`. */
  data?: DataUse
  shell?: 'web' | 'electron'
  isWatching?: boolean
  /** The file an export writes (`--out`): the CLI's save dialog. */
  savePath?: string
  /** A shell (`serve`, `server`): a person with nothing of their own sees the demo, made now. */
  isDemoShownToNewUser?: boolean
}

/**
 * What a command runs on: the core of the process holding the data folder (through its
 * socket), or one of its own where no process holds it. Either answers the same calls.
 */
export interface CliCore {
  readonly info: { dataSource: DataSource }
  readonly events: { subscribe(listener: EventListener): () => void }
  dispatch(channel: string, input: unknown): Promise<Envelope<unknown>>
  readonly isSharedMirror: boolean
  /** A shared sync round (Core.syncShared); only a process holding the folder runs one. */
  syncShared(
    addresses: readonly string[],
    options?: SharedSyncOptions,
  ): Promise<SharedSyncRoundResult>
  close(): Promise<void>
}

/** How long a command waits for the holder that has just taken the folder to answer. */
const HOLDER_START_WAIT_MS = 20_000

/** What one command run asks of the data folder, worked out from its flags once. */
interface CommandSetup {
  dataDir: string
  databaseUrl: string | undefined
  apiKey: string | undefined
  serviceUrl: string | undefined
  extra: CommandCore
  /** The data source asked for (`own` commands: the own mirror), or null: as shown. */
  dataSource: DataSource | null
  hello: HolderHello
}

/** Checks a command's flags and works out what it asks of the folder. */
function commandSetup(options: GlobalOptions, extra: CommandCore): CommandSetup {
  const dataDir = resolve(options.dataDir ?? defaultDataDir())
  // Another user's folder says so, rather than look empty (its files cannot even be seen).
  const problem = folderAccessProblem(dataDir)
  if (problem !== null) throw new AppError(problem)
  const { env } = cliContext()
  const databaseUrl = options.database ?? env.HELIOGRAPH_DATABASE_URL
  if (databaseUrl !== undefined && !isDatabaseUrl(databaseUrl)) {
    throw new AppError(
      `--database (or HELIOGRAPH_DATABASE_URL) must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/heliograph (got “${displayDatabaseUrl(databaseUrl)}”).`,
    )
  }
  // `--data-source demo` shows the demo on any folder: one that has none yet gets it made.
  const asksDemo = options.dataSource === 'demo'
  if (databaseUrl === undefined && extra.use !== 'create' && !asksDemo && !holdsMirror(dataDir)) {
    throw new AppError(
      `No Heliograph data in ${dataDir}; create it with \`watch add\` or check --data-dir (--data-source demo shows the demo).`,
    )
  }
  // Flags win over the environment; with neither, the stored key (or demo mode) applies.
  const apiKey = options.apiKey ?? env.HELIOGRAPH_API_KEY
  const serviceUrl = options.service ?? env.HELIOGRAPH_SERVICE_URL
  if (serviceUrl && !isKeySafeUrl(serviceUrl)) {
    throw new AppError(
      `--service (or HELIOGRAPH_SERVICE_URL) must be an https URL; plain http would send the API key in clear text and is allowed only to localhost, 127.x.x.x and ::1.`,
    )
  }
  const isOwn = extra.data === 'own'
  if (isOwn && asksDemo) {
    throw new AppError(
      `\`heliograph ${extra.command}\` acts on your own data, whatever is shown (syncing, webhooks, alert channels and budgets are yours): drop --data-source demo.`,
    )
  }
  const dataSource = isOwn ? 'service' : (options.dataSource ?? null)
  return {
    dataDir,
    databaseUrl,
    apiKey,
    serviceUrl,
    extra,
    dataSource,
    hello: {
      command: extra.command,
      dataSource,
      savePath: extra.savePath ?? null,
      serviceUrl: serviceUrl || null,
      apiKeyDigest: secretDigest(apiKey),
      databaseUrlDigest: secretDigest(databaseUrl),
    },
  }
}

/**
 * Opens this process's own core on the folder: read-only for a command that only reads,
 * else as the folder's holder, which serves the folder's other processes while it runs.
 */
async function openOwnCore(setup: CommandSetup, use: FolderUse): Promise<Core> {
  const { dataDir, databaseUrl, apiKey, serviceUrl, extra, dataSource } = setup
  const { clock } = cliContext()
  // The core (and every engine, service and shell module under it) loads only for a
  // command that opens it: `--version` and `--help` start without it.
  const { createCore } = await import('../app/core')
  const { migrationNotice } = await import('../app/migration-notice')
  const name = `\`heliograph ${extra.command}\``
  const core = await createCore({
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    shell: extra.shell ?? 'web',
    version: readAppVersion(new URL('../../package.json', import.meta.url)),
    isReadOnly: use === 'read',
    processName: name,
    isWatching: extra.isWatching ?? false,
    isDemoShownToNewUser: extra.isDemoShownToNewUser === true,
    clock,
    ...(dataSource !== null ? { dataSource } : {}),
    ...(extra.savePath !== undefined ? { choosePath: async () => extra.savePath ?? null } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(serviceUrl ? { serviceUrl } : {}),
    serveOthers: async (opening) => {
      const { serveFolder } = await import('../shell/holder/holder-server')
      return serveFolder({ dataDir, name }, opening)
    },
    onMigration: (progress) => {
      const notice = migrationNotice(progress)
      if (notice !== null) cliContext().writeErr(`${notice}\n`)
    },
  })
  for (const notice of core.notices) cliContext().writeErr(`${notice}\n`)
  return core
}

/**
 * The core a command runs on: the folder's holder when a process holds it, else a core of
 * its own (and a writer then holds the folder, serving the others, until it ends).
 */
async function reachOrOpen(setup: CommandSetup): Promise<CliCore> {
  const { dataDir, hello, extra } = setup
  const held = await reachHolder(dataDir, hello)
  if (held !== null) return held
  // The demo asked for where none was made yet: this command makes it.
  const use =
    setup.dataSource === 'demo' && !existsSync(demoDatabasePath(dataDir)) ? 'create' : extra.use
  const { DataFolderInUseError } = await import('../db/writer-lock')
  const startedAt = Date.now()
  for (;;) {
    try {
      return await openOwnCore(setup, use)
    } catch (error) {
      // Another process took the folder meanwhile: it answers as soon as it listens.
      if (!(error instanceof DataFolderInUseError)) throw error
      const holder = await reachHolder(dataDir, hello)
      if (holder !== null) return holder
      if (Date.now() - startedAt > HOLDER_START_WAIT_MS) throw notAnswering(error)
      await sleep(100)
    }
  }
}

function notAnswering(error: { folder: string; holder: LockHolder | null }): AppError {
  const who = error.holder ? `${error.holder.name} (pid ${error.holder.pid})` : 'another process'
  return new AppError(
    `The data folder ${error.folder} is held by ${who}, which does not answer on the folder's socket (a Heliograph from before commands ran through the holder?): stop it, then run the command again.`,
  )
}

/**
 * Builds the core for one command run, in the given or the default data folder: through
 * the process that holds the folder when one does, else its own. A folder without data is
 * an error for commands that need data (a mistyped --data-dir must not become an empty
 * mirror); `--data-source demo` shows the demo on any folder, making it where it is missing.
 */
export async function openCore(options: GlobalOptions, extra: CommandCore): Promise<CliCore> {
  const setup = commandSetup(options, extra)
  const hadDemo = existsSync(demoDatabasePath(setup.dataDir))
  const reached = await reachOrOpen(setup)
  const core = new CommandRun(setup, reached)
  try {
    if (core.info.dataSource === 'demo') {
      // A reader of a demo that exists only reads it; the demo is made where it is missing.
      if (!hadDemo || reached instanceof HolderConnection) await makeDemoWhereMissing(core)
      cliContext().writeErr(`${DEMO_DATA_NOTICE}\n`)
    }
    return core
  } catch (error) {
    await core.close()
    throw error
  }
}

/**
 * The core of a process that must hold the folder itself (the web shell, the team server,
 * a watching sync): it serves the folder's other processes while it runs. A folder that
 * another process holds is refused, naming it.
 */
export async function openHoldingCore(options: GlobalOptions, extra: CommandCore): Promise<Core> {
  const core = await openOwnCore(commandSetup(options, extra), extra.use)
  if (core.info.dataSource === 'demo') cliContext().writeErr(`${DEMO_DATA_NOTICE}\n`)
  return core
}

/** Makes the demo data where this command is the first to show it (a new folder, say). */
async function makeDemoWhereMissing(core: CliCore): Promise<void> {
  const wallets = await callCore(core, 'watchlist:list', undefined).catch(() => null)
  if (wallets === null || wallets.length > 0) return
  const made = await callCore(core, 'demo:make', undefined).catch((error: unknown) => {
    // A reader cannot make it: it shows the demo as it is.
    if (error instanceof StorageError) return null
    throw error
  })
  if (made !== null && made.synced > 0)
    cliContext().writeErr(
      `Made the demo data: ${countText(made.synced, 'sample wallet')} synced from the built-in simulator.\n`,
    )
}

/**
 * One command's core for its whole run: where the holder it ran through stops between two
 * calls (a `watch add` that held the folder ends), the next call goes to whatever holds the
 * folder then, or to a core of the command's own.
 */
class CommandRun implements CliCore {
  readonly #bus = new EventBus()
  #current: CliCore
  #unsubscribe: () => void

  constructor(
    readonly setup: CommandSetup,
    current: CliCore,
  ) {
    this.#current = current
    this.#unsubscribe = this.#relay(current)
  }

  get info(): { dataSource: DataSource } {
    return this.#current.info
  }

  get events(): { subscribe(listener: EventListener): () => void } {
    return this.#bus
  }

  get isSharedMirror(): boolean {
    return this.#current.isSharedMirror
  }

  async dispatch(channel: string, input: unknown): Promise<Envelope<unknown>> {
    try {
      return await this.#current.dispatch(channel, input)
    } catch (error) {
      if (!(error instanceof HolderGoneError)) throw error
      this.#unsubscribe()
      await this.#current.close()
      this.#current = await reachOrOpen(this.setup)
      this.#unsubscribe = this.#relay(this.#current)
      return this.#current.dispatch(channel, input)
    }
  }

  syncShared(
    addresses: readonly string[],
    options?: SharedSyncOptions,
  ): Promise<SharedSyncRoundResult> {
    return this.#current.syncShared(addresses, options)
  }

  async close(): Promise<void> {
    this.#unsubscribe()
    await this.#current.close()
  }

  #relay(core: CliCore): () => void {
    return core.events.subscribe((event, payload) => this.#bus.emit(event, payload))
  }
}

/** Calls a channel through the same dispatcher the shells use; throws the rebuilt error. */
export async function callCore<C extends Channel>(
  core: CliCore,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw rebuildError(envelope.error)
  return envelope.result as ChannelOutput<C>
}

/** Whether `npm run build` has produced the renderer. */
export function isRendererBuilt(): boolean {
  return existsSync(resolve(RENDERER_DIR, 'index.html'))
}
