import { AsyncLocalStorage } from 'node:async_hooks'
import { nowSec as clockNowSec, systemClock, type Clock } from '@shared/clock'
import { join } from 'node:path'
import { SIM_IMAGE_HOST, SIM_IMAGE_PATH } from '../simulator/sim-images'
import { ImageCache, type CachedImage } from './image-cache'
import { contract, isChannel } from '@shared/ipc/contract'
import type { AppFacts, AppInfo } from '@shared/ipc/app-schemas'
import { okEnvelope, type Envelope } from '@shared/ipc/envelope'
import { existsSync } from 'node:fs'
import { AppError, InvalidInputError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { DataSource } from '@shared/ipc/settings-schemas'
import type { OnMigration } from '../db/migration-progress'
import type { Mirror } from '../db/mirror'
import { openMirror } from '../db/open-mirror'
import { tightenDataDir } from '../db/private-files'
import { DEFAULT_LEASE_TTL_MS, LeaseKeeper } from '../sync/lease-keeper'
import { runAsCaller } from '../sync/spender'
import type { TeamRole } from '@shared/domain/team-roles'
import type { DemoKept } from '@shared/domain/first-own-wallet'
import { runSharedSyncRound, type SharedSyncRoundResult } from '../sync/shared-sync-round'
import type { WalletSyncOutcome } from '@shared/ipc/sync-schemas'
import { acquireWriterLock, type WriterLock } from '../db/writer-lock'
import { ExportHandoffs, type PendingDownload } from '../export/export-downloads'
import type { PendingExportLimits } from '../export/pending-export-limits'
import { redactText } from '../service/redact'
import { readSettings } from './app-settings'
import { newKeyOrigin } from '@shared/domain/key-origins'
import { databasePath, demoDatabasePath, holdsMirror, writerLockPath } from './data-dir'
import type { DemoOptions } from './demo-data'
import { invalidInput, toErrorPayload, unsafeTextInput } from './error-payload'
import { secretDigest } from './holder-address'
import { findUnsafeText } from '@shared/validation/safe-text'
import { EventBus } from './event-bus'
import { appHandlers } from './handlers/app-handlers'
import { exportHandlers } from './handlers/export-handlers'
import { healthHandlers } from './handlers/health-handlers'
import { feedHandlers } from './handlers/feed-handlers'
import type { ChoosePath, HandlerContext } from './handlers/handler-context'
import type { HandlerTable } from './handlers/handler-table'
import { reviewHandlers } from './handlers/review-handlers'
import { settingsHandlers } from './handlers/settings-handlers'
import { walletHandlers } from './handlers/wallet-handlers'
import { lookupHandlers } from './handlers/lookup-handlers'
import { LookupDesk } from '../lookup/lookup-desk'
import { syncHandlers } from './handlers/sync-handlers'
import { historyLoadHandlers } from './handlers/history-load-handlers'
import { watchCadenceHandlers } from './handlers/watch-cadence-handlers'
import { watchlistHandlers } from './handlers/watchlist-handlers'
import { webhookHandlers } from './handlers/webhook-handlers'
import { alertHandlers } from './handlers/alert-handlers'
import { notifyHandlers } from './handlers/notify-handlers'
import { AlertDeliverer, type DesktopNotifier } from '../alerts/alert-deliverer'
import { ChannelSecrets, CHANNEL_SECRETS_FILE } from '../alerts/channel-secrets'
import { NotifyDesk } from '../alerts/notify-desk'
import { FileSecretStore, MemorySecretStore, type SecretStore } from './secret-store'
import { ServiceSession, type ServiceOverride } from './service-session'
import {
  startWebhookMode,
  WEBHOOK_SECRET_FILE,
  type WebhookMode,
  type WebhookModeTuning,
} from '../webhooks/webhook-mode'

/** What a shell needs to build the core. */
export interface CoreConfig {
  /** Folder holding the mirrors and settings; created when missing (unless read-only). */
  dataDir: string
  /**
   * The person's mirror on PostgreSQL (postgres://…) instead of the SQLite file in the
   * data folder, which still keeps the key, exports under way, images and demo data.
   */
  databaseUrl?: string
  shell: AppInfo['shell']
  /**
   * Open the mirrors read-only, beside whichever process writes to the folder: for
   * commands that only read (CLI status, credits, watch list, export). The folder must
   * hold data already; nothing syncs, and nothing in the folder is changed. Without it the
   * core is the folder's one writer: it takes the writer lock, or fails naming who has it.
   */
  isReadOnly?: boolean
  /**
   * What this process is, as a second one that finds the folder taken is told
   * ("`heliograph sync`"); by default the shell's name.
   */
  processName?: string
  version: string
  /**
   * An API key for this run only (CLI `--api-key`, tests); otherwise the key comes from
   * the secret store.
   */
  apiKey?: string | undefined
  /** Where the key is kept: Electron's safeStorage, or a 0600 file in the data folder (default). */
  secretStore?: SecretStore
  /** One base URL for everything, for this run only (CLI `--service`). */
  serviceUrl?: string | undefined
  /**
   * The data source for this run only. Without it: the person's own data with a one-run
   * key or service, else their stored choice, else their own data when a key is stored
   * and demo data when none is.
   */
  dataSource?: DataSource | undefined
  /** Keep watched wallets current in the background (the shells; `cli sync` without --once). */
  isWatching?: boolean
  /** Demo simulator options. */
  demo?: DemoOptions
  /**
   * Told before each migration the person's mirror needs runs: the shell shows it (see
   * migrationNotice), as an update of a large mirror can hold up the start for minutes.
   */
  onMigration?: OnMigration
  /** The shell's save dialog for exports; absent in the web shell (the browser downloads). */
  choosePath?: ChoosePath
  /** Time and timers for everything that waits; tests pass a virtual or fixed one. */
  clock?: Clock
  /**
   * Exports waiting for their browser download: what may wait, per team account and on the
   * disk, and the clock they expire on (real time by default, whatever `clock` is: a
   * download waits for a person). Tests pass their own.
   */
  pendingExports?: { limits?: Partial<PendingExportLimits>; clock?: Clock }
  /** Where outbound channels' secrets are kept: safeStorage (Electron), else a 0600 file. */
  channelSecretStore?: SecretStore
  /**
   * Shows an alert's desktop notification (the Electron shell). Without it the alert is
   * pushed to the renderers as `alerts:desktop` (the web shell's page shows it); with no
   * page connected (the CLI) it is marked delivered unshown: the app's history has it.
   */
  desktopNotifier?: DesktopNotifier
  /**
   * Whether a person with nothing of their own is shown the demo, which is then made (the
   * app, `serve`, `server`; default). A command of the CLI shows the demo only where it was
   * made already, or where `--data-source demo` asks for it.
   */
  isDemoShownToNewUser?: boolean
  /**
   * Serves the folder's other processes while this core holds it (the holder socket):
   * started as soon as the folder is held, with the core still opening, and closed before
   * the folder is let go.
   */
  serveOthers?: (core: Promise<Core>) => Promise<FolderService>
}

/** What serves the other processes of a data folder while its holder runs. */
export interface FolderService {
  close(): Promise<void>
}

/** Who asks for one dispatch, beyond its channel and input. */
export interface DispatchContext {
  /** The team account it runs for: what it spends is checked against its role. */
  role?: TeamRole
  /** Whose read state a request reads and moves (absent: the person at this machine). */
  account?: string
  /** The save dialog of this request (another process's `--out`), instead of the shell's. */
  choosePath?: ChoosePath
}

/** The app's core: one per process, shared by whichever shell hosts it. */
export interface Core {
  info: AppFacts
  events: EventBus
  /**
   * Runs a channel: parses the input with the channel's schema, calls its handler and
   * answers an envelope. Never throws: every failure comes back as `{ ok: false }`.
   * A team server passes the signed-in account as `caller`: what the channel spends is
   * then checked against its role, whatever path the spending takes, and what is the
   * account's own (the alerts it has read) is its own.
   */
  dispatch(channel: string, input: unknown, context?: DispatchContext): Promise<Envelope<unknown>>
  /** Takes a finished export waiting for its one download (web shell), or null. */
  takeExportDownload(id: string): PendingDownload | null
  /** A cached image by its key (`/images/<key>`), fetched once when needed; null if none. */
  readImage(key: string): Promise<CachedImage | null>
  /** Removes every secret the core holds from a piece of text (for logs and errors). */
  redact(text: string): string
  /**
   * Starts webhook mode for a server the service can reach at `publicUrl` (the team
   * server's `--public-url`): returns it, with the delivery route to mount ahead of the
   * server's session checks. It follows the session through reconnects; one per core.
   *
   * @example
   * const mode = await core.startWebhookMode({ publicUrl: 'https://desk.example' })
   * routes.push(mode.route)
   */
  startWebhookMode(options: { publicUrl: string } & WebhookModeTuning): Promise<WebhookMode>
  /** Whether other sync workers may share this mirror (it is on a database server). */
  readonly isSharedMirror: boolean
  /** What the person should be told once, as the core opens (the CLI prints them on stderr). */
  readonly notices: readonly string[]
  /**
   * Syncs each of `addresses` once, sharing the work with the other sync workers on the
   * same mirror through leases: no wallet is synced by two at once, and the wallets of a
   * worker that died are taken over once their leases expire.
   *
   * @example
   * const { outcomes } = await core.syncShared(addresses, { onOutcome: print })
   */
  syncShared(
    addresses: readonly string[],
    options?: SharedSyncOptions,
  ): Promise<SharedSyncRoundResult>
  /**
   * The data source a request of another process works on: `requested` when it names one,
   * else what a command shows on this folder now (the person's own data once it holds a
   * wallet or a key is set, else the demo where it was made).
   */
  sourceFor(requested: DataSource | null): Promise<DataSource>
  /**
   * A core on `source` beside this one, in the process that holds the folder: for another
   * process's command on the data source this core does not show. It writes but does not
   * watch; the caller closes it.
   */
  openForSource(source: DataSource): Promise<Core>
  /**
   * Whether a command given these for its run only (null: not given) may run on this core:
   * each one given must be the one this core runs with (the key and the database URL as
   * their SHA-256 digests).
   */
  runsWith(run: {
    serviceUrl: string | null
    apiKeyDigest: string | null
    databaseUrlDigest: string | null
  }): boolean
  close(): Promise<void>
}

/** How a shared sync round runs. */
export interface SharedSyncOptions {
  /** How long a worker's lease lasts unrenewed: how long a dead worker's wallets wait. */
  leaseTtlMs?: number
  onOutcome?(outcome: WalletSyncOutcome): void
  isCancelled?(): boolean
}

/**
 * Builds the core from a config: opens and migrates the mirror of the data source,
 * starts its session and binds the handlers.
 *
 * @example
 * const core = await createCore({ dataDir: '/tmp/x', shell: 'web', version: '0.1.0' })
 * await core.dispatch('watchlist:list', undefined) // { ok: true, result: [] }
 */
export async function createCore(config: CoreConfig): Promise<Core> {
  if (config.isReadOnly === true) {
    if (config.databaseUrl === undefined && !holdsMirror(config.dataDir)) {
      throw new NotFoundError(`No Heliograph data in ${config.dataDir}.`, {
        dataDir: config.dataDir,
      })
    }
    return buildCore(config, { kind: 'reader' })
  }
  // One writer per folder: two would each sync, and each spend the whole credit budget.
  const lock = acquireWriterLock(
    writerLockPath(config.dataDir),
    config.processName ?? SHELL_NAMES[config.shell],
  )
  // The others are served from the moment the folder is held: a command sent while the
  // mirror still migrates waits for it instead of finding nobody to ask.
  let opened: (core: Core) => void = () => {}
  let failed: (error: unknown) => void = () => {}
  const opening = new Promise<Core>((resolve, reject) => {
    opened = resolve
    failed = reject
  })
  opening.catch(() => {})
  let service: FolderService | null = null
  try {
    service = config.serveOthers ? await config.serveOthers(opening) : null
    const core = await buildCore(config, { kind: 'holder', lock, service })
    opened(core)
    return core
  } catch (error) {
    failed(error)
    await service?.close()
    lock.release()
    throw error
  }
}

/**
 * How a core holds its folder: as the holder (the writer lock, serving the others), beside
 * the holder in its process (another data source for a client), or read-only.
 */
type Holding =
  | { kind: 'holder'; lock: WriterLock; service: FolderService | null }
  | { kind: 'alongside' }
  | { kind: 'reader' }

/** How a second process names the shell that holds the folder. */
const SHELL_NAMES: Record<AppInfo['shell'], string> = {
  electron: 'the Heliograph app',
  web: 'the Heliograph web shell',
}

/** Where the core keeps things: the person's mirror, the key, exports under way, demo data. */
interface CoreStores {
  home: Mirror
  secretStore: SecretStore
  /** The key is read at each use: it can be set or replaced while the app runs. */
  apiKey: () => string | null
  exports: ExportHandoffs
  openDemoMirror: () => Promise<Mirror>
  /** What the person should know from the start (see Core.notices). */
  notices: string[]
}

async function openStores(config: CoreConfig, holding: Holding): Promise<CoreStores> {
  const isReadOnly = holding.kind === 'reader'
  // A folder made before Heliograph made its folders private (or by hand) is made so now.
  const looserMode = tightenDataDir(config.dataDir)
  // The person's own mirror is always open: it keeps the settings, whatever the source.
  // The writer's pages go to a worker thread and the views' reads to reader threads: this
  // one keeps answering, and no read waits for another (a command that only reads, once,
  // keeps everything on its own connection).
  const writeIn = isReadOnly ? 'this-thread' : 'worker'
  const readIn = isReadOnly ? 'this-thread' : 'workers'
  const home = await openMirror({
    file: databasePath(config.dataDir),
    databaseUrl: config.databaseUrl,
    isReadOnly,
    writeIn,
    readIn,
    onMigration: config.onMigration,
  })
  // A one-run service the stored key has never gone to must bring a one-run key: the
  // stored one does not follow a flag or an environment variable to any host.
  const keyWithheldFrom =
    config.apiKey === undefined && config.serviceUrl
      ? newKeyOrigin(await readSettings(home.settings), config.serviceUrl)
      : null
  const secretStore =
    config.apiKey !== undefined || keyWithheldFrom !== null
      ? new MemorySecretStore(config.apiKey ?? null)
      : (config.secretStore ?? new FileSecretStore(config.dataDir))
  const notices: string[] = []
  if (looserMode !== null)
    notices.push(
      `Tightened the permissions of ${config.dataDir} to 0700 (it was 0${looserMode.toString(8)}): what Heliograph keeps is yours alone.`,
    )
  if (keyWithheldFrom !== null)
    notices.push(
      `The stored API key is not sent to ${keyWithheldFrom}, a service it has not been used with; give this run a key of its own with --api-key or HELIOGRAPH_API_KEY.`,
    )
  const exports = new ExportHandoffs(config.dataDir, config.pendingExports)
  // Pending downloads are the holder's: no other core may remove what the holder offers.
  if (holding.kind === 'holder') await exports.removeLeftovers()

  const openDemoMirror = async (): Promise<Mirror> => {
    const path = demoDatabasePath(config.dataDir)
    if (isReadOnly && !existsSync(path)) {
      throw new NotFoundError(
        `No demo data in ${config.dataDir} yet: the app makes it the first time it shows the demo. Your own mirror is read with --data-source service.`,
        { dataDir: config.dataDir },
      )
    }
    // Demo data is always a file of its own, whatever holds the person's mirror.
    return openMirror({ file: path, isReadOnly, writeIn, readIn })
  }
  return {
    home,
    secretStore,
    apiKey: () => secretStore.read(),
    exports,
    openDemoMirror,
    notices,
  }
}

type WebhookModeOptions = { publicUrl: string } & WebhookModeTuning

/** The data source now: its mirror and service session, and webhook mode over them. */
interface CoreSessions {
  readonly mirror: Mirror
  readonly session: ServiceSession
  readonly info: AppFacts
  readonly webhookMode: WebhookMode | null
  webhookSecrets: SecretStore
  startWebhookMode(options: WebhookModeOptions): Promise<WebhookMode>
  switchDataSource(source: DataSource, demoKept?: DemoKept): Promise<void>
  /** What a request of another process works on (see Core.sourceFor). */
  sourceFor(requested: DataSource | null): Promise<DataSource>
  reconnect(): Promise<void>
  /** Stops webhook mode and the session, and closes the demo mirror if it is open. */
  closeCurrent(): Promise<void>
}

async function openSessions(
  config: CoreConfig,
  stores: CoreStores,
  events: EventBus,
  isReadOnly: boolean,
  clock: Clock,
): Promise<CoreSessions> {
  const { home, apiKey } = stores
  const override: ServiceOverride = config.serviceUrl ? { serviceUrl: config.serviceUrl } : {}
  // The demo is shown only while the person has nothing of their own: no choice made, no
  // key, and no wallet in their own mirror (a watchlist can exist before the key does).
  const resolveSource = async (
    requested: DataSource | undefined,
    makesDemo: boolean,
  ): Promise<DataSource> => {
    if (requested) return requested
    if (config.apiKey !== undefined || config.serviceUrl) return 'service'
    const chosen = (await readSettings(home.settings)).dataSource
    if (chosen !== null) return chosen
    if (apiKey() !== null || (await home.watchlist.list()).length > 0) return 'service'
    // Only the app makes the demo for a new person; where none was made, a command (or a
    // reader, which cannot make it) has the own mirror.
    return makesDemo || existsSync(demoDatabasePath(config.dataDir)) ? 'demo' : 'service'
  }
  const makesDemo = !isReadOnly && config.isDemoShownToNewUser !== false
  const chooseSource = (): Promise<DataSource> => resolveSource(config.dataSource, makesDemo)
  const open = async (source: DataSource): Promise<{ mirror: Mirror; session: ServiceSession }> => {
    const mirror = source === 'demo' ? await stores.openDemoMirror() : home
    const session = new ServiceSession({
      source,
      mirror,
      settings: home.settings,
      events,
      apiKey,
      override,
      isWatching: !isReadOnly && config.isWatching === true,
      demo: config.demo ?? {},
      clock,
    })
    return { mirror, session }
  }
  // Webhook mode runs on the current session's engine and scheduler: stopped with it, and
  // started again on the next one.
  let webhookMode: WebhookMode | null = null
  let webhookModeOptions: WebhookModeOptions | null = null
  const webhookSecrets = new FileSecretStore(config.dataDir, WEBHOOK_SECRET_FILE)
  const startMode = async (options: WebhookModeOptions): Promise<WebhookMode> => {
    const { session, mirror } = current
    const runtime = await session.runtime()
    return startWebhookMode({
      ...options,
      mirror,
      engine: runtime.engine,
      scheduler: session.scheduler,
      recordCredits: (entry) => runtime.meter.record(entry),
      // Delivered changes are announced as watching's are (watch:change, sync:activity).
      onSynced: (info) => session.relay.onChecked(info),
      secrets: webhookSecrets,
      onWatchlistChanged: (listener) =>
        events.subscribe((event) => {
          if (event === 'watchlist:changed') listener()
        }),
      checkEverySec: async () => (await readSettings(home.settings)).watch.checkEverySec,
      clock,
    })
  }
  const restartWebhookMode = async (): Promise<void> => {
    if (webhookModeOptions !== null) webhookMode = await startMode(webhookModeOptions)
  }

  const initialSource = await chooseSource()
  let current = await open(initialSource)
  const info: AppFacts = {
    version: config.version,
    shell: config.shell,
    dataSource: initialSource,
    dataDir: config.dataDir,
  }
  const sessions: CoreSessions = {
    get mirror() {
      return current.mirror
    },
    get session() {
      return current.session
    },
    info,
    get webhookMode() {
      return webhookMode
    },
    webhookSecrets,
    async startWebhookMode(options) {
      if (isReadOnly) throw new AppError('Webhook mode needs the process that writes the mirror.')
      if (webhookMode !== null) throw new AppError('Webhook mode is already on.')
      webhookMode = await startMode(options)
      webhookModeOptions = options
      return webhookMode
    },
    async switchDataSource(source, demoKept) {
      if (source === info.dataSource) return sessions.reconnect()
      await sessions.closeCurrent()
      current = await open(source)
      info.dataSource = source
      await current.session.start()
      await restartWebhookMode()
      events.emit('app:data-source', { source, ...(demoKept ? { demoKept } : {}) })
    },
    sourceFor: (requested) => resolveSource(requested ?? undefined, false),
    async reconnect() {
      const source = await chooseSource()
      if (source !== info.dataSource) return sessions.switchDataSource(source)
      await webhookMode?.stop()
      webhookMode = null
      await current.session.reconnect()
      await restartWebhookMode()
    },
    async closeCurrent() {
      await webhookMode?.stop()
      webhookMode = null
      await current.session.close()
      if (current.mirror !== home) await current.mirror.close()
    },
  }
  return sessions
}

/** The save dialog of the request being answered, when it brought its own (see DispatchContext). */
const requestSaveDialog = new AsyncLocalStorage<ChoosePath>()

/** Answers a channel: its input parsed, its handler run, its output held to the contract. */
function dispatcherOf(handlers: HandlerTable, redact: (text: string) => string): Core['dispatch'] {
  const dispatch: Core['dispatch'] = async (channel, input, context) => {
    const { role, account, choosePath } = context ?? {}
    if (role) {
      const rest = { ...context, role: undefined, account: undefined }
      return runAsCaller({ role, account }, () => dispatch(channel, input, rest))
    }
    if (choosePath) return requestSaveDialog.run(choosePath, () => dispatch(channel, input))
    try {
      if (!isChannel(channel)) {
        throw new InvalidInputError(`Unknown channel “${channel}”.`, { channel })
      }
      const spec = contract[channel]
      // Text no channel accepts, refused the same way whatever the field and the engine.
      const unsafe = findUnsafeText(input)
      if (unsafe !== null) throw unsafeTextInput(channel, unsafe)
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
  return dispatch
}

/** Every channel's handler over the context. */
function handlerTableOf(
  ctx: HandlerContext,
  lookups: LookupDesk,
  notify: NotifyDesk,
): HandlerTable {
  return {
    ...appHandlers(ctx),
    ...watchlistHandlers(ctx),
    ...reviewHandlers(ctx),
    ...exportHandlers(ctx),
    ...syncHandlers(ctx),
    ...historyLoadHandlers(ctx),
    ...watchCadenceHandlers(ctx),
    ...settingsHandlers(ctx),
    ...walletHandlers(ctx),
    ...lookupHandlers(ctx, lookups),
    ...webhookHandlers(ctx),
    ...healthHandlers(ctx),
    ...feedHandlers(ctx),
    ...alertHandlers(ctx),
    ...notifyHandlers(notify),
  }
}

/** One shared sync round over `addresses`, this worker's share taken by leases. */
async function syncSharedOn(
  sessions: CoreSessions,
  clock: Clock,
  addresses: readonly string[],
  options: Parameters<Core['syncShared']>[1] = {},
): Promise<SharedSyncRoundResult> {
  const { mirror } = sessions
  const { engine } = await sessions.session.runtime()
  const keeper = new LeaseKeeper({
    store: mirror.leases,
    ttlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    watched: addresses,
    clock,
  })
  return runSharedSyncRound({
    clock,
    keeper,
    addresses,
    syncWallet: (address) => engine.syncWallet(address),
    cancelWallet: (address) => engine.cancel(address),
    isSyncing: (address) => engine.isSyncing(address),
    status: () => mirror.syncState.status(new Set()),
    ...(options.onOutcome ? { onOutcome: options.onOutcome } : {}),
    ...(options.isCancelled ? { isCancelled: options.isCancelled } : {}),
  })
}

/** The core over an open data folder: as its holder, beside the holder, or read-only. */
async function buildCore(config: CoreConfig, holding: Holding): Promise<Core> {
  const isReadOnly = holding.kind === 'reader'
  const events = new EventBus()
  const clock = config.clock ?? systemClock
  const nowSec = (): number => clockNowSec(clock)
  const stores = await openStores(config, holding)
  const { home, secretStore, apiKey, exports } = stores
  const sessions = await openSessions(config, stores, events, isReadOnly, clock)
  const { info } = sessions
  // The database URL's password too: an error of the driver's must not carry it anywhere.
  // (A very short one would blank out ordinary words; the messages never quote it anyway.)
  const password = decodeURIComponent(URL.parse(config.databaseUrl ?? '')?.password ?? '')
  const databasePassword = password.length >= 6 ? password : null
  const channelSecrets = new ChannelSecrets(
    config.channelSecretStore ?? new FileSecretStore(config.dataDir, CHANNEL_SECRETS_FILE),
  )
  const redact = (text: string): string => {
    const secrets = [
      apiKey(),
      sessions.webhookMode !== null ? sessions.webhookSecrets.read() : null,
      databasePassword,
      ...channelSecrets.values(),
    ]
    return redactText(
      text,
      secrets.filter((s): s is string => s !== null),
    )
  }

  // The demo's collectibles name an invented host; the built-in simulator draws them.
  const images = new ImageCache({
    dir: join(config.dataDir, 'images'),
    redirectUri: (uri) => {
      const base = sessions.session.demoServiceUrl
      return base && uri.startsWith(SIM_IMAGE_HOST)
        ? `${base}${SIM_IMAGE_PATH}${uri.slice(SIM_IMAGE_HOST.length)}`
        : null
    },
  })

  const ctx: HandlerContext = {
    get mirror() {
      return sessions.mirror
    },
    get session() {
      return sessions.session
    },
    ownMirror: home,
    settings: home.settings,
    events,
    info,
    secretStore,
    apiKey,
    isKeyNeeded: () => sessions.session.isWaitingForKey,
    exports,
    images,
    get choosePath() {
      return requestSaveDialog.getStore() ?? config.choosePath
    },
    nowSec,
    webhookMode: () => sessions.webhookMode,
    switchDataSource: (source, demoKept) => sessions.switchDataSource(source, demoKept),
    reconnect: () => sessions.reconnect(),
  }
  const lookups = new LookupDesk({
    mirror: () => sessions.mirror,
    engine: async () => (await sessions.session.runtime()).engine,
    imageUrlFor: (uri) => images.urlFor(uri),
    nowSec,
  })
  // Channels are the person's, kept in their own mirror whatever is shown.
  const notify = new NotifyDesk({
    channels: home.notifyChannels,
    secrets: channelSecrets,
    clock,
    redact,
  })
  const dispatch = dispatcherOf(handlerTableOf(ctx, lookups, notify), redact)
  // Wherever alerts can fire (a process that writes and keeps watching), the outbox is
  // drained to its channels, starting with what a previous run left undelivered.
  const deliverer =
    !isReadOnly && config.isWatching === true
      ? new AlertDeliverer({
          outbox: () => sessions.mirror.alerts,
          channels: home.notifyChannels,
          secrets: channelSecrets,
          desktop: config.desktopNotifier ?? ((alert) => events.emit('alerts:desktop', alert)),
          clock,
          redact,
          // An alert that waited for its rule's cool-down reaches the pages as it is sent.
          onShown: (alertIds) => sessions.session.relay.onAlertsFired(alertIds),
        })
      : null

  // A wallet added to the watchlist starts syncing at once; a removed one stops.
  events.subscribe((event, payload) => {
    if (event !== 'watchlist:changed') return
    const { session } = sessions
    const listed = new Set((payload as { address: string }[]).map((w) => w.address))
    for (const address of session.syncingAddresses())
      if (!listed.has(address)) session.runtimeIfConnected()?.engine.cancel(address)
    session.scheduler?.poke()
  })
  // Alerts just written go out now rather than at the deliverer's next look.
  events.subscribe((event) => {
    if (event === 'alerts:fired') deliverer?.poke()
  })
  await sessions.session.start()
  deliverer?.start()

  return {
    info,
    events,
    dispatch,
    takeExportDownload: (id) => exports.takeDownload(id),
    readImage: (key) => images.read(key),
    redact,
    startWebhookMode: (options) => sessions.startWebhookMode(options),
    isSharedMirror: home.isShared,
    notices: stores.notices,
    async syncShared(addresses, options = {}) {
      if (isReadOnly) throw new AppError('Syncing needs the process that writes the mirror.')
      return syncSharedOn(sessions, clock, addresses, options)
    },
    sourceFor: (requested) => sessions.sourceFor(requested),
    runsWith: (run) =>
      (run.serviceUrl === null || run.serviceUrl === (config.serviceUrl ?? null)) &&
      (run.apiKeyDigest === null || run.apiKeyDigest === secretDigest(apiKey())) &&
      (run.databaseUrlDigest === null ||
        run.databaseUrlDigest === secretDigest(config.databaseUrl)),
    openForSource: (source) =>
      buildCore(
        { ...config, dataSource: source, isWatching: false, serveOthers: undefined },
        { kind: 'alongside' },
      ),
    close: async () => {
      // Nobody is served any more before the folder is let go.
      if (holding.kind === 'holder') await holding.service?.close()
      await deliverer?.stop()
      await sessions.closeCurrent()
      await home.close()
      if (holding.kind === 'holder') holding.lock.release()
    },
  }
}
