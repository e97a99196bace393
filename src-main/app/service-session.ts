import type { OpenDatabase } from '../db/database'
import { readSyncStatus } from '../db/queries/sync-status'
import { addWatchedWallet, listWatchedWallets } from '../db/queries/watchlist-queries'
import { singleOriginServiceSettings, ServiceSettings } from '../service/service-settings'
import { startSimulator, type RunningSimulator } from '../simulator/simulator-server'
import type { ProfileId } from '../simulator/chain/wallet-profiles'
import { createSyncRuntime, type RateSetting, type SyncRuntime } from '../sync/sync-runtime'
import type { SyncEvent } from '../sync/sync-engine'
import { WatchScheduler } from '../sync/watch-scheduler'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { shortAddress } from '@shared/domain/wallet-address'
import { summarizeNewActivity } from './activity-summary'
import type { EventBus } from './event-bus'
import type { SecretStore } from './secret-store'
import { readSettings, readSettingsNow, writeSettings, type StoredSettings } from './settings-store'

/** The simulator seed of demo mode: every new user sees the same demo chain. */
export const DEMO_SEED = 42

/** The key the in-process simulator accepts. */
export const DEMO_KEY = 'demo'

/** Profile wallets offered on first run, so a new user sees a living app at once. */
export const DEMO_PROFILES: readonly ProfileId[] = [
  'casual',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
]

/** Overrides for one run (CLI flags and environment), never stored. */
export interface ServiceOverride {
  /** One base URL serving the REST paths and JSON-RPC at `/` (as the simulator does). */
  serviceUrl?: string
  apiKey?: string
}

export interface ServiceSessionOptions {
  database: OpenDatabase
  events: EventBus
  secretStore: SecretStore
  override?: ServiceOverride
  /** Start the watch scheduler (the shells, `cli sync` without --once). */
  isWatching: boolean
  /** Demo simulator options (tests stop its clock, or turn live mode off). */
  demo?: { live?: boolean }
  nowSec: () => number
}

/**
 * The core's link to the data service: decides where data comes from (the stored key and
 * URLs, a one-run override, or the in-process simulator when there is no key), builds the
 * sync engine over it and runs the watch scheduler. Rebuilt whenever the key or the
 * service settings change.
 */
export class ServiceSession {
  readonly #o: ServiceSessionOptions
  #runtime: SyncRuntime | null = null
  #scheduler: WatchScheduler | null = null
  #simulator: RunningSimulator | null = null
  #connecting: Promise<SyncRuntime> | null = null
  #offline = false
  /** Event forwards still reading the mirror; awaited before the database may close. */
  readonly #forwarding = new Set<Promise<void>>()

  constructor(options: ServiceSessionOptions) {
    this.#o = options
  }

  /** The key in use (override, else stored), or null in demo mode. Never leaves main. */
  apiKey(): string | null {
    return this.#o.override?.apiKey ?? this.#o.secretStore.read()
  }

  /** Whether data comes from the in-process simulator. */
  isDemo(): boolean {
    return this.apiKey() === null && this.#o.override?.serviceUrl === undefined
  }

  /** The in-process simulator in demo mode, once started. */
  get simulator(): RunningSimulator | null {
    return this.#simulator
  }

  get scheduler(): WatchScheduler | null {
    return this.#scheduler
  }

  get isOffline(): boolean {
    return this.#offline
  }

  /** The sync runtime if connected, without connecting. */
  runtimeIfConnected(): SyncRuntime | null {
    return this.#runtime
  }

  /** The sync runtime, connecting on first use (starts the demo simulator if needed). */
  runtime(): Promise<SyncRuntime> {
    if (this.#runtime) return Promise.resolve(this.#runtime)
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null
    })
    return this.#connecting
  }

  /** Starts watching: seeds the demo wallets on first run, then starts the scheduler. */
  async start(): Promise<void> {
    if (!this.#o.isWatching) return
    await this.runtime()
    if (this.isDemo()) await this.seedDemoWallets({ onlyFirstRun: true })
    this.#scheduler?.start()
  }

  /**
   * Adds the demo profile wallets (labelled "Demo: …"). On first run this happens by
   * itself; later only when asked. Returns the wallets added.
   */
  async seedDemoWallets(options: { onlyFirstRun: boolean }): Promise<WatchedWallet[]> {
    const { db } = this.#o.database
    const settings = await readSettings(db)
    if (
      options.onlyFirstRun &&
      (settings.isDemoSeeded || (await listWatchedWallets(db)).length > 0)
    )
      return []
    await this.runtime()
    const simulator = this.#simulator
    if (!simulator) return []
    const known = new Set((await listWatchedWallets(db)).map((w) => w.address))
    const added: WatchedWallet[] = []
    for (const profile of DEMO_PROFILES) {
      const address = simulator.chain.walletByProfile(profile).address
      if (known.has(address)) continue
      added.push(
        await addWatchedWallet(db, { address, label: `Demo: ${profile}` }, this.#o.nowSec()),
      )
    }
    await writeSettings(db, { isDemoSeeded: true })
    if (added.length > 0) this.#o.events.emit('watchlist:changed', await listWatchedWallets(db))
    this.#scheduler?.poke()
    return added
  }

  /** Drops the current connection and builds a new one from the current settings and key. */
  async reconnect(): Promise<void> {
    await this.#disconnect()
    if (this.#o.isWatching) await this.start()
  }

  async close(): Promise<void> {
    await this.#disconnect()
  }

  async #disconnect(): Promise<void> {
    await this.#connecting?.catch(() => null)
    this.#scheduler?.stop()
    this.#runtime?.engine.cancel()
    await this.#scheduler?.idle()
    await Promise.all([...this.#forwarding])
    this.#scheduler = null
    this.#runtime = null
    await this.#simulator?.close()
    this.#simulator = null
  }

  async #connect(): Promise<SyncRuntime> {
    const { database } = this.#o
    const settings = await readSettings(database.db)
    // Budgets and cadence are read fresh on each use: changing them needs no reconnect.
    const current = (): StoredSettings => readSettingsNow(database.sqlite)
    const service = await this.#serviceSettings(settings)
    const runtime = createSyncRuntime({
      sqlite: database.sqlite,
      service,
      rate: this.#rate(settings),
      budget: () => {
        const now = current()
        return { dailyCredits: now.dailyBudget, monthlyCredits: now.monthlyBudget }
      },
      emit: (event) => this.#track(this.#forward(event)),
      nowSec: this.#o.nowSec,
    })
    this.#runtime = runtime
    this.#scheduler = new WatchScheduler({
      sqlite: database.sqlite,
      engine: runtime.engine,
      cadence: () => current().watch,
      nowSec: this.#o.nowSec,
      onChecked: (info) => this.#track(this.#announceActivity(info)),
      onStopped: () => this.#track(this.#emitStatus()),
    })
    return runtime
  }

  async #serviceSettings(settings: StoredSettings): Promise<ServiceSettings> {
    const override = this.#o.override
    const key = this.apiKey()
    if (override?.serviceUrl)
      return singleOriginServiceSettings(override.serviceUrl, key ?? DEMO_KEY)
    if (key === null) {
      this.#simulator = await startSimulator({ seed: DEMO_SEED, live: this.#o.demo?.live ?? true })
      return singleOriginServiceSettings(this.#simulator.url, DEMO_KEY)
    }
    return ServiceSettings.parse({
      walletRestBaseUrl: settings.walletRestBaseUrl,
      v0RestBaseUrl: settings.v0RestBaseUrl,
      jsonRpcUrl: settings.jsonRpcUrl,
      apiKey: key,
      timeoutMs: 30_000,
    })
  }

  #rate(settings: StoredSettings): RateSetting {
    // Demo: the simulator runs unlimited; pace it like a Developer plan so it looks real.
    if (this.isDemo()) return 'developer'
    if (settings.plan === 'custom')
      return settings.customRates ? { custom: settings.customRates } : 'free'
    return settings.plan
  }

  #track(work: Promise<void>): void {
    // A failed status read must not take the process down; the next event reads again.
    const tracked = work.catch(() => {}).finally(() => this.#forwarding.delete(tracked))
    this.#forwarding.add(tracked)
  }

  async #forward(event: SyncEvent): Promise<void> {
    const { events } = this.#o
    switch (event.type) {
      case 'progress':
        events.emit('sync:progress', event.progress)
        return
      case 'network':
        this.#offline = event.state === 'offline'
        events.emit('app:network', { state: event.state })
        return
      case 'wallet-state':
        await this.#emitStatus(event.address)
        return
      case 'activity':
        events.emit('sync:activity', event.notice)
    }
  }

  async #emitStatus(address?: string): Promise<void> {
    const syncing = new Set(this.#runtime?.engine.syncingAddresses() ?? [])
    for (const status of await readSyncStatus(this.#o.database.db, syncing, address)) {
      this.#o.events.emit('sync:wallet-state', status)
    }
  }

  async #announceActivity(info: {
    address: string
    outcome: { newTransactions: number } | null
    wasComplete: boolean
  }): Promise<void> {
    // Only news counts: the first backfill of a wallet is not "new activity".
    if (!info.outcome || !info.wasComplete || info.outcome.newTransactions === 0) return
    const { sqlite } = this.#o.database
    const wallet = sqlite
      .prepare('select id, label from wallets where address = ?')
      .get(info.address) as { id: number; label: string | null } | undefined
    if (!wallet) return
    const count = info.outcome.newTransactions
    // The new transactions are the newest `count` by slot.
    const row = sqlite
      .prepare(
        'select slot from transactions where wallet_id = ? order by slot desc limit 1 offset ?',
      )
      .get(wallet.id, count) as { slot: number } | undefined
    const name = wallet.label ?? shortAddress(info.address)
    this.#o.events.emit('sync:activity', {
      address: info.address,
      label: wallet.label,
      newTransactions: count,
      summary: summarizeNewActivity(sqlite, wallet.id, name, row?.slot ?? -1, count),
      atSec: this.#o.nowSec(),
    })
  }
}
