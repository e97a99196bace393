import { nowSec, type Cancel, type Clock } from '@shared/clock'
import { planMonthlyCredits } from '@shared/domain/credit-prices'
import { healthAction, healthHeadline, isSyncStoppedBy } from '@shared/domain/health-text'
import type { HealthKind } from '@shared/domain/alert-rules'
import type { HealthStatus } from '@shared/ipc/health-schemas'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DataSource } from '@shared/ipc/settings-schemas'
import type { DemoWalletsAdded } from '@shared/ipc/watchlist-schemas'
import { AppError, SyncStoppedError } from '@shared/ipc/ipc-errors'
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
import { budgetPeriodStarts } from '../db/stores/credit-ledger-store'
import { CadenceFitter, clearStoredBudgetFit, storedBudgetFit } from '../alerts/cadence-fitter'
import { HealthMonitor } from '../alerts/health-monitor'
import { DEFAULT_LEASE_TTL_MS, LeaseKeeper } from '../sync/lease-keeper'
import { AlertEvaluator } from '../alerts/alert-evaluator'

/** The budget's stops: asking to sync cannot help until the budget or the period changes. */
const BUDGET_STOPS: readonly HealthKind[] = ['budget-100', 'monthly-credits-spent']
/** The conditions under which "Sync now" cannot help until something changes. */
const REFUSING_SYNC_NOW: readonly HealthKind[] = [...BUDGET_STOPS, 'key-rejected', 'unreachable']

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1)
}

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
  /** What stops or slows syncing: raised and resolved from what the engine sees. */
  readonly health: HealthMonitor
  readonly #fitter: CadenceFitter
  /** Wakes a budget-stopped scheduler when the next UTC day or month begins. */
  #budgetTimer: Cancel | null = null
  /** The settings or key changed since the last health change: "Sync now" tries again. */
  #isRetryAllowed = false
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
      withHealth: (statuses) => this.withHealth(statuses),
    })
    const announceHealth = (): void => {
      this.#isRetryAllowed = false
      void this.healthStatus()
        .then((status) => options.events.emit('health:changed', status))
        .then(() => this.relay.emitStatus())
        .catch(() => {})
    }
    this.health = new HealthMonitor({
      store: options.mirror.health,
      clock: options.clock,
      onChange: announceHealth,
      onAlert: (alertId) => this.relay.onAlertsFired([alertId]),
    })
    this.#fitter = new CadenceFitter({
      mirror: options.mirror,
      clock: options.clock,
      inputs: async () => {
        const stored = await readSettings(options.settings)
        // From the ledger, not the meter: a command that only reads has no meter.
        const { monthStartMs } = budgetPeriodStarts(options.clock.nowMs())
        const month = await options.mirror.ledger.spentSince(monthStartMs)
        return {
          watch: stored.watch,
          isFitToBudget: stored.fitToBudget,
          monthlyAllowance:
            stored.monthlyBudget ?? planMonthlyCredits(stored.plan, stored.customMonthlyCredits),
          monthSpent: month,
        }
      },
      onChange: announceHealth,
    })
    this.alerts = new AlertEvaluator({
      mirror: options.mirror,
      clock: options.clock,
      onFired: (report) => this.relay.onAlertsFired(report.alertIds),
    })
  }

  /** What stops or slows syncing now, with the words to show, and watching's fit to budget. */
  async healthStatus(): Promise<HealthStatus> {
    const now = nowSec(this.#o.clock)
    const conditions = (await this.health.active()).map((c) => ({
      kind: c.kind,
      since: new Date(c.sinceSec * 1000).toISOString(),
      sinceSec: c.sinceSec,
      detail: c.detail,
      headline: healthHeadline(c, now),
      action: healthAction(c.kind),
      isSyncStopped: isSyncStoppedBy(c.kind),
    }))
    // Only a watching process fits the cadence; another (a `status`) reads what it kept.
    const budgetFit = this.#o.isWatching
      ? await this.#fitter.currentFit()
      : await storedBudgetFit(this.#o.mirror)
    return { conditions, budgetFit }
  }

  /** The headline of the first condition that stops syncing, or null while syncing can run. */
  async stoppedBy(): Promise<string | null> {
    const { conditions } = await this.healthStatus()
    const stop = conditions.find((c) => c.isSyncStopped)
    return stop ? `${stop.headline} ${stop.action}` : null
  }

  /**
   * Why a sync asked for now is refused (the error to throw), or null. The budget is checked afresh first (a
   * new day, or a budget raised in another process, ends its stop). A new run (`sync
   * --once`) is refused only by the budget: it may carry a new key or service. "Sync now"
   * in the app is refused also while the key is rejected or the service unreachable, until
   * the key or settings change (they reconnect the session, and syncing is tried again).
   * Storage conditions refuse neither: a sync is how a freed disk is found out.
   */
  async refusalOfSyncNow(options: { isNewRun?: boolean } = {}): Promise<SyncStoppedError | null> {
    await this.#recheckBudget()
    const kinds = options.isNewRun || this.#isRetryAllowed ? BUDGET_STOPS : REFUSING_SYNC_NOW
    const { conditions } = await this.healthStatus()
    const stop = conditions.find((c) => kinds.includes(c.kind))
    if (stop === undefined) return null
    return new SyncStoppedError(`Not synced: ${lowerFirst(stop.headline)} ${stop.action}`, {
      kind: stop.kind,
      since: stop.since,
    })
  }

  /**
   * Ends the budget stops that no longer hold (a new day or month, a budget raised or
   * removed) and resolves once the health conditions say so.
   */
  async #recheckBudget(): Promise<void> {
    const runtime = await this.runtime()
    const { dailyBudget, monthlyBudget } = await readSettings(this.#o.settings)
    const { day, month } = await runtime.meter.spent()
    const { dayStartMs, monthStartMs } = budgetPeriodStarts(this.#o.clock.nowMs())
    this.health.onSpending({
      day,
      month,
      dailyCredits: dailyBudget,
      monthlyCredits: monthlyBudget,
      dayStartMs,
      monthStartMs,
      refused: null,
    })
    await this.health.idle()
  }

  /** Wallet states with "up to date" replaced by "stopped" and why, while syncing is stopped. */
  async withHealth(statuses: WalletSyncStatus[]): Promise<WalletSyncStatus[]> {
    const reason = await this.stoppedBy()
    if (reason === null) return statuses
    return statuses.map((s) =>
      s.state === 'up-to-date' ? { ...s, state: 'stopped', message: reason } : s,
    )
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
   * Makes the demo data where none was made yet (a command asked for the demo on a folder
   * that never showed it): the first-run demo wallets, each synced once from the built-in
   * simulator. Says how many wallets the demo has and how many were synced now.
   */
  async makeDemoData(): Promise<{ wallets: number; synced: number }> {
    await this.seedDemoWallets({ onlyFirstRun: true })
    const runtime = await this.runtime()
    const statuses = await this.#o.mirror.syncState.status(new Set())
    const unsynced = statuses.filter((s) => s.state === 'never')
    for (const wallet of unsynced) await runtime.engine.syncWallet(wallet.address)
    return { wallets: statuses.length, synced: unsynced.length }
  }

  /**
   * After the budget was raised or removed: when spending is under every budget again,
   * the wallets the budget stopped sync again by themselves (and watching restarts if the
   * budget had stopped it). Returns the wallets resumed.
   */
  async resumeBudgetStops(): Promise<string[]> {
    const runtime = this.#runtime
    if (!runtime) return []
    await this.#recheckBudget()
    const { dailyBudget, monthlyBudget } = await readSettings(this.#o.settings)
    const { day, month } = await runtime.meter.spent()
    if (
      (dailyBudget !== null && day >= dailyBudget) ||
      (monthlyBudget !== null && month >= monthlyBudget)
    ) {
      if (this.#scheduler?.stoppedReason != null) this.#wakeAtNextBudgetPeriod()
      return []
    }
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
    this.#isRetryAllowed = true
    await this.close()
    await this.start()
  }

  /**
   * Stops the scheduler and every sync after the pages in flight (they are paid for), and
   * waits until nothing reads the mirror.
   */
  async close(): Promise<void> {
    await this.#connecting?.catch(() => null)
    this.#budgetTimer?.()
    this.#budgetTimer = null
    this.#scheduler?.stop()
    await this.#leaseKeeper?.stop()
    this.#leaseKeeper = null
    await this.#runtime?.engine.finishPagesAndStop()
    await this.#scheduler?.idle()
    await this.#runtime?.meter.idle().catch(() => {})
    await this.relay.idle()
    await this.health.idle()
    if (this.#scheduler !== null && this.#o.isWatching)
      await clearStoredBudgetFit(this.#o.mirror, nowSec(this.#o.clock)).catch(() => {})
    this.#scheduler = null
    this.#runtime = null
    await this.#simulator?.close()
    this.#simulator = null
  }

  /**
   * The budget stopped watching: when the next UTC day begins (the daily budget's period;
   * a month also begins on a day), spending is checked again and watching resumes if it fits.
   */
  #wakeAtNextBudgetPeriod(): void {
    this.#budgetTimer?.()
    const nowMs = this.#o.clock.nowMs()
    const date = new Date(nowMs)
    const nextDayMs = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
    this.#budgetTimer = this.#o.clock.setTimeout(
      () => {
        this.#budgetTimer = null
        void this.resumeBudgetStops().catch(() => {})
      },
      nextDayMs - nowMs,
      { keepsAlive: false },
    )
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
      health: this.health,
      afterWalletWritten: async () => {
        await this.alerts.evaluatePending()
      },
    })
    this.#runtime = runtime
    this.#scheduler = new WatchScheduler({
      schedule: mirror.schedule,
      watchState: mirror.watchState,
      engine: runtime.engine,
      cadence: () => this.#fitter.cadence(),
      clock: this.#o.clock,
      onChecked: (info) => this.relay.onChecked(info),
      onStopped: () => {
        this.#wakeAtNextBudgetPeriod()
        void this.relay.emitStatus().catch(() => {})
      },
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
    if (this.#o.source === 'demo') return this.#o.demo.rate ?? 'developer'
    if (stored.plan === 'custom')
      return stored.customRates ? { custom: stored.customRates } : 'free'
    return stored.plan
  }
}
