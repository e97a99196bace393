import { contract, isChannel } from '@shared/ipc/contract'
import type { AppInfo } from '@shared/ipc/app-schemas'
import { okEnvelope, type Envelope } from '@shared/ipc/envelope'
import { AppError, InvalidInputError } from '@shared/ipc/ipc-errors'
import { openDatabase, type OpenDatabase } from '../db/database'
import type { RunningSimulator } from '../simulator/simulator-server'
import { databasePath } from './data-dir'
import { FileSecretStore, MemorySecretStore, type SecretStore } from './secret-store'
import { ServiceSession, type ServiceOverride } from './service-session'
import { settingsHandlers } from './handlers/settings-handlers'
import { syncHandlers } from './handlers/sync-handlers'
import { invalidInput, toErrorPayload } from './error-payload'
import { EventBus } from './event-bus'
import { appHandlers } from './handlers/app-handlers'
import { exportHandlers } from './handlers/export-handlers'
import type { HandlerContext } from './handlers/handler-context'
import type { HandlerTable } from './handlers/handler-table'
import { reviewHandlers } from './handlers/review-handlers'
import { watchlistHandlers } from './handlers/watchlist-handlers'

/** What a shell needs to build the core. */
export interface CoreConfig {
  /** Folder holding the mirror and settings; created when missing. */
  dataDir: string
  shell: AppInfo['shell']
  version: string
  /**
   * An API key for this run only (CLI `--api-key`, tests); otherwise the key comes from
   * the secret store, and none means the in-process simulator serves demo data.
   */
  apiKey?: string | undefined
  /** Where the key is kept: Electron's safeStorage, or a 0600 file in the data folder (default). */
  secretStore?: SecretStore
  /** One base URL for everything, for this run only (CLI `--service`). */
  serviceUrl?: string | undefined
  /** Keep watched wallets current in the background (the shells; `cli sync` without --once). */
  isWatching?: boolean
  /** Demo simulator options. */
  demo?: { live?: boolean }
  /** Clock in UTC seconds; tests pass a fixed one. */
  nowSec?: () => number
}

/** The app's core: one per process, shared by whichever shell hosts it. */
export interface Core {
  info: AppInfo
  events: EventBus
  database: OpenDatabase
  /**
   * Runs a channel: parses the input with the channel's schema, calls its handler and
   * answers an envelope. Never throws: every failure comes back as `{ ok: false }`.
   */
  dispatch(channel: string, input: unknown): Promise<Envelope<unknown>>
  /** The link to the data service: sync engine, scheduler, demo simulator. */
  session: ServiceSession
  /** The in-process simulator in demo mode, once started (tests and demos drive it). */
  readonly simulator: RunningSimulator | null
  /** Removes every secret the core holds from a piece of text (for logs and errors). */
  redact(text: string): string
  close(): Promise<void>
}

/**
 * Builds the core from a config: opens and migrates the mirror and binds the handlers.
 *
 * @example
 * const core = await createCore({ dataDir: '/tmp/x', shell: 'web', version: '0.1.0' })
 * await core.dispatch('watchlist:list', undefined) // { ok: true, result: [] }
 */
export async function createCore(config: CoreConfig): Promise<Core> {
  const database = await openDatabase(databasePath(config.dataDir))
  const events = new EventBus()
  const nowSec = config.nowSec ?? (() => Math.floor(Date.now() / 1000))
  const secretStore =
    config.apiKey !== undefined
      ? new MemorySecretStore(config.apiKey)
      : (config.secretStore ?? new FileSecretStore(config.dataDir))
  const override: ServiceOverride = config.serviceUrl ? { serviceUrl: config.serviceUrl } : {}
  const session = new ServiceSession({
    database,
    events,
    secretStore,
    override,
    isWatching: config.isWatching ?? false,
    nowSec,
    ...(config.demo ? { demo: config.demo } : {}),
  })
  const info: AppInfo = {
    version: config.version,
    shell: config.shell,
    dataSource: session.isDemo() ? 'demo' : 'service',
    dataDir: config.dataDir,
  }
  // The key is read at each use: it can be set or replaced while the app runs.
  const redact = (text: string): string => {
    const key = session.apiKey()
    const without = key ? text.split(key).join('***') : text
    return without.replace(/(api-key=)[^&\s"']+/gi, '$1***')
  }

  const ctx: HandlerContext = {
    db: database.db,
    sqlite: database.sqlite,
    events,
    info,
    session,
    secretStore,
    nowSec,
  }
  const handlers: HandlerTable = {
    ...appHandlers(ctx),
    ...watchlistHandlers(ctx),
    ...reviewHandlers(ctx),
    ...exportHandlers(ctx, database),
    ...syncHandlers(ctx),
    ...settingsHandlers(ctx),
  }

  async function dispatch(channel: string, input: unknown): Promise<Envelope<unknown>> {
    try {
      if (!isChannel(channel)) {
        throw new InvalidInputError(`Unknown channel “${channel}”.`, { channel })
      }
      const spec = contract[channel]
      const parsed = spec.input.safeParse(input)
      if (!parsed.success) throw invalidInput(channel, parsed.error)
      const handler = handlers[channel] as (input: unknown) => Promise<unknown> | unknown
      const result = await handler(parsed.data)
      // The contract is a promise to the renderer: a result that breaks it is a bug here.
      const checked = spec.output.safeParse(result)
      if (!checked.success) {
        throw new AppError(`Internal error: ${channel} produced a result outside the contract.`)
      }
      return okEnvelope(checked.data)
    } catch (error) {
      return { ok: false, error: toErrorPayload(error, redact) }
    }
  }

  // A wallet added to the watchlist starts syncing at once; a removed one stops.
  events.subscribe((event, payload) => {
    if (event !== 'watchlist:changed') return
    const runtime = session.runtimeIfConnected()
    const listed = new Set((payload as { address: string }[]).map((w) => w.address))
    for (const address of runtime?.engine.syncingAddresses() ?? [])
      if (!listed.has(address)) runtime?.engine.cancel(address)
    session.scheduler?.poke()
  })
  await session.start()

  return {
    info,
    events,
    database,
    session,
    get simulator() {
      return session.simulator
    },
    dispatch,
    redact,
    close: async () => {
      await session.close()
      await database.close()
    },
  }
}
