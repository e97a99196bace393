import { nowSec, type Clock } from '@shared/clock'
import type { DataSource } from '@shared/ipc/settings-schemas'
import type { DemoWalletsAdded } from '@shared/ipc/watchlist-schemas'
import { AppError } from '@shared/ipc/ipc-errors'
import { describeInputIssues } from '@shared/validation/input-issues'
import type { Mirror } from '../db/mirror'
import type { SettingsStore } from '../db/stores/settings-store'
import { singleOriginServiceSettings, ServiceSettings } from '../service/service-settings'
import type { RunningSimulator } from '../simulator/simulator-server'
import { createSyncRuntime, type RateSetting, type SyncRuntime } from '../sync/sync-runtime'
import { WatchScheduler } from '../sync/watch-scheduler'
import { readSettings, type StoredSettings } from './app-settings'
import {
  DEMO_KEY,
  demoWalletAddresses,
  seedDemoWallets,
  startDemoSimulator,
  type DemoOptions,
} from './demo-data'
import type { EventBus } from './event-bus'
import { SyncEventRelay } from './sync-event-relay'
import { DEFAULT_LEASE_TTL_MS, LeaseKeeper } from '../sync/lease-keeper'
import { AlertEvaluator } from '../alerts/alert-evaluator'

/** Overrides for one run (CLI flags and environment), never stored. */
export interface ServiceOverride {
  /** One base URL serving the REST paths and JSON-RPC at `/` (as the simulator does). */
  serviceUrl?: string
  apiKey?: string
}

export interface ServiceSessionOptions {
  /** Where the data comes from; decides the service and the mirror. */
  source: DataSource
  /** The mirror of that source: pages, cursors, schedule and ledger go here. */
  mirror: Mirror
  /** The app's settings (plan, budgets, cadence, service URLs), kept in the home mirror. */
  settings: SettingsStore
  events: EventBus
  /** The key in use for the person's own data (one-run override, else stored). */
  apiKey: () => string | null
  override: ServiceOverride
  /** Start the watch scheduler (the shells, `cli sync` without --once). */
  isWatching: boolean
  demo: DemoOptions
  clock: Clock
}

/**
 * The core's link to the data service for one data source: builds the sync engine over
 * the service (the in-process simulator in demo mode), runs the watch scheduler, and
 * relays what they report. Rebuilt when the service settings change.
 */
export class ServiceSession {
  readonly #o: ServiceSessionOptions
  readonly relay: SyncEventRelay
  /** The alert rules' turn after each wallet's sync (and at start, for what a crash left). */
  readonly alerts: AlertEvaluator
  #runtime: SyncRuntime | null = null
  #scheduler: WatchScheduler | null = null
  #simulator: RunningSimulator | null = null
  /** On a mirror shared by sync workers: the leases on this worker's share of the wallets. */
  #leaseKeeper: LeaseKeeper | null = null
  #connecting: Promise<SyncRuntime> | null = null

  constructor(options: ServiceSessionOptions) {
    this.#o = options
    this.relay = new SyncEventRelay({
      mirror: options.mirror,
      events: options.events,
      syncing: () => this.syncingAddresses(),
      nowSec: () => nowSec(options.clock),
    })
    this.alerts = new AlertEvaluator({
      mirror: options.mirror,
      clock: options.clock,
      onFired: (report) => this.relay.onAlertsFired(report.alertIds),
    })
  }

  get scheduler(): WatchScheduler | null {
    return this.#scheduler
  }

  get isOffline(): boolean {
    return this.relay.isOffline
  }

  /** The wallets syncing now (none before the first connection). */
  syncingAddresses(): string[] {
    return this.#runtime?.engine.syncingAddresses() ?? []
  }

  /** The sync runtime if connected, without connecting. */
  runtimeIfConnected(): SyncRuntime | null {
    return this.#runtime
  }

  /** The built-in demo simulator's URL while it runs, else null. */
  get demoServiceUrl(): string | null {
    return this.#simulator?.url ?? null
  }

  /** The sync runtime, connecting on first use (starts the demo simulator if needed). */
  runtime(): Promise<SyncRuntime> {
    if (this.#runtime) return Promise.resolve(this.#runtime)
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null
    })
    return this.#connecting
  }

  /** Whether syncing the person's own data waits for a key they have not entered yet. */
  get isWaitingForKey(): boolean {
    const { source, override, apiKey } = this.#o
    return source === 'service' && !override.serviceUrl && apiKey() === null
  }

  /**
   * Starts watching: seeds the demo wallets on first run, then starts the scheduler. Without
   * a key the person's own data waits: entering one rebuilds the session and starts it.
   */
  async start(): Promise<void> {
    if (!this.#o.isWatching || this.isWaitingForKey) return
    // What sync wrote before a crash or a kill is evaluated now, not at the next change.
    await this.alerts.evaluatePending()
    await this.runtime()
    if (this.#o.source === 'demo') await this.seedDemoWallets({ onlyFirstRun: true })
    this.#scheduler?.start()
  }

  /** Whether `address` is one of the demo chain's wallets (never with the person's own data). */
  async isDemoChainWallet(address: string): Promise<boolean> {
    if (this.#o.source !== 'demo') return false
    await this.runtime()
    return this.#simulator?.chain.walletByAddress(address) !== undefined
  }

  /** The demo wallets' addresses; none with the person's own data. */
  async demoWalletAddresses(): Promise<string[]> {
    if (this.#o.source !== 'demo') return []
    await this.runtime()
    return this.#simulator ? demoWalletAddresses(this.#simulator) : []
  }

  /** Adds the demo profile wallets to the demo mirror; says what it added and what was there. */
  async seedDemoWallets(options: { onlyFirstRun: boolean }): Promise<DemoWalletsAdded> {
    if (this.#o.source !== 'demo')
      throw new AppError('Demo wallets exist only with demo data; switch to it in Settings.')
    await this.runtime()
    if (!this.#simulator) return { added: [], alreadyWatched: [] }
    const result = await seedDemoWallets(this.#o.mirror, this.#simulator, {
      ...options,
      nowSec: nowSec(this.#o.clock),
    })
    if (result.added.length > 0) {
      this.#o.events.emit('watchlist:changed', await this.#o.mirror.watchlist.list())
      this.#scheduler?.roundSoon()
    }
    return result
  }

  /**
   * After the budget was raised or removed: when spending is under every budget again,
   * the wallets the budget stopped sync again by themselves (and watching restarts if the
   * budget had stopped it). Returns the wallets resumed.
   */
  async resumeBudgetStops(): Promise<string[]> {
    const runtime = this.#runtime
    if (!runtime) return []
    const { dailyBudget, monthlyBudget } = await readSettings(this.#o.settings)
    const { day, month } = await runtime.meter.spent()
    if (
      (dailyBudget !== null && day >= dailyBudget) ||
      (monthlyBudget !== null && month >= monthlyBudget)
    )
      return []
    const statuses = await this.#o.mirror.syncState.status(new Set(this.syncingAddresses()))
    const stopped = statuses.filter((w) => w.streams.some((s) => s.state === 'budget'))
    for (const wallet of stopped) {
      for (const s of wallet.streams.filter((st) => st.state === 'budget'))
        await runtime.engine.retryStream(wallet.address, s.stream)
    }
    const scheduler = this.#scheduler
    if (scheduler?.stoppedReason != null && this.#o.isWatching) scheduler.start()
    for (const wallet of stopped) await scheduler?.syncNow(wallet.address)
    if (stopped.length > 0) await this.relay.emitStatus()
    return stopped.map((w) => w.address)
  }

  /** Drops the connection and builds a new one from the current settings and key. */
  async reconnect(): Promise<void> {
    await this.close()
    await this.start()
  }

  /**
   * Stops the scheduler and every sync after the pages in flight (they are paid for), and
   * waits until nothing reads the mirror.
   */
  async close(): Promise<void> {
    await this.#connecting?.catch(() => null)
    this.#scheduler?.stop()
    await this.#leaseKeeper?.stop()
    this.#leaseKeeper = null
    await this.#runtime?.engine.finishPagesAndStop()
    await this.#scheduler?.idle()
    await this.#runtime?.meter.idle().catch(() => {})
    await this.relay.idle()
    this.#scheduler = null
    this.#runtime = null
    await this.#simulator?.close()
    this.#simulator = null
  }

  /** This worker's share of the watchlist, leased afresh (a shared mirror's watching). */
  async #ownWallets(): Promise<ReadonlySet<string>> {
    const addresses = (await this.#o.mirror.watchlist.list()).map((w) => w.address)
    return (this.#leaseKeeper as LeaseKeeper).shareOf(addresses)
  }

  async #connect(): Promise<SyncRuntime> {
    const { mirror, settings } = this.#o
    // Budgets and cadence are read fresh on each use: changing them needs no reconnect.
    const current = (): Promise<StoredSettings> => readSettings(settings)
    const stored = await current()
    // Several workers may share a mirror on a database server: each watches its share.
    this.#leaseKeeper =
      mirror.isShared && this.#o.isWatching
        ? new LeaseKeeper({
            store: mirror.leases,
            ttlMs: DEFAULT_LEASE_TTL_MS,
            watched: [],
            clock: this.#o.clock,
          })
        : null
    await this.#leaseKeeper?.start()
    const runtime = createSyncRuntime({
      mirror,
      service: await this.#serviceSettings(stored),
      rate: this.#rate(stored),
      budget: async () => {
        const now = await current()
        return { dailyCredits: now.dailyBudget, monthlyCredits: now.monthlyBudget }
      },
      namesRefreshSec: async () => (await current()).namesRefreshDays * 86_400,
      emit: (event) => this.relay.onSyncEvent(event),
      clock: this.#o.clock,
      afterWalletWritten: async () => {
        await this.alerts.evaluatePending()
      },
    })
    this.#runtime = runtime
    this.#scheduler = new WatchScheduler({
      schedule: mirror.schedule,
      watchState: mirror.watchState,
      engine: runtime.engine,
      cadence: async () => (await current()).watch,
      clock: this.#o.clock,
      onChecked: (info) => this.relay.onChecked(info),
      onStopped: () => void this.relay.emitStatus().catch(() => {}),
      ...(this.#leaseKeeper ? { ownWallets: () => this.#ownWallets() } : {}),
    })
    return runtime
  }

  async #serviceSettings(stored: StoredSettings): Promise<ServiceSettings> {
    const { override, source } = this.#o
    if (source === 'demo') {
      this.#simulator = await startDemoSimulator({ nowSec: nowSec(this.#o.clock), ...this.#o.demo })
      return singleOriginServiceSettings(this.#simulator.url, DEMO_KEY)
    }
    const key = this.#o.apiKey()
    if (override.serviceUrl)
      return singleOriginServiceSettings(override.serviceUrl, key ?? DEMO_KEY)
    if (key === null)
      throw new AppError('No API key is set: enter your key in Settings to sync your own data.')
    // URLs stored before the https rule may break it: say which, rather than send the key.
    const parsed = ServiceSettings.safeParse({
      walletRestBaseUrl: stored.walletRestBaseUrl,
      v0RestBaseUrl: stored.v0RestBaseUrl,
      jsonRpcUrl: stored.jsonRpcUrl,
      apiKey: key,
      timeoutMs: 30_000,
    })
    if (!parsed.success)
      throw new AppError(
        `Service settings: ${describeInputIssues(parsed.error)} Change it in Settings.`,
      )
    return parsed.data
  }

  #rate(stored: StoredSettings): RateSetting {
    // Demo: the simulator runs unlimited; pace it like a Developer plan so it looks real.
    if (this.#o.source === 'demo') return 'developer'
    if (stored.plan === 'custom')
      return stored.customRates ? { custom: stored.customRates } : 'free'
    return stored.plan
  }
}
