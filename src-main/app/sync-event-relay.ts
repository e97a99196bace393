import { walletName } from '@shared/domain/wallet-address'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { Mirror } from '../db/mirror'
import type { SyncEvent } from '../sync/sync-engine'
import type { CheckedWallet } from '../sync/watch-scheduler'
import { describeWatchChange, summarizeNewActivity } from './activity-summary'
import type { EventBus } from './event-bus'

/** How many announced alerts are remembered so that none is announced twice. */
const MAX_ANNOUNCED_REMEMBERED = 10_000

/**
 * Turns what the sync engine and the scheduler report into the contract's push events:
 * progress, wallet states read back from the mirror, network state, and one notice per
 * check that found new transactions. Reads run in the background and are tracked, so the
 * mirror is not closed under them.
 */
export class SyncEventRelay {
  readonly #mirror: Mirror
  readonly #events: EventBus
  readonly #syncing: () => readonly string[]
  readonly #nowSec: () => number
  readonly #withHealth: (statuses: WalletSyncStatus[]) => Promise<WalletSyncStatus[]>
  readonly #work = new Set<Promise<void>>()
  /** The alerts announced already (the evaluation writes them, their desktop delivery shows them). */
  readonly #announced = new Set<number>()
  #isOffline = false
  /** The sidebar figures' read now running, and the one queued behind it (at most one). */
  #summariesRunning: Promise<void> | null = null
  #summariesQueued: Promise<void> | null = null

  constructor(options: {
    mirror: Mirror
    events: EventBus
    /** The wallets the engine runs now. */
    syncing: () => readonly string[]
    nowSec: () => number
    /** Wallet states as the health conditions leave them ("stopped" rather than "up to date"). */
    withHealth?: (statuses: WalletSyncStatus[]) => Promise<WalletSyncStatus[]>
  }) {
    this.#mirror = options.mirror
    this.#events = options.events
    this.#syncing = options.syncing
    this.#nowSec = options.nowSec
    this.#withHealth = options.withHealth ?? (async (statuses) => statuses)
  }

  /** Whether the engine last reported the service unreachable. */
  get isOffline(): boolean {
    return this.#isOffline
  }

  /** Relays one engine event. */
  onSyncEvent(event: SyncEvent): void {
    switch (event.type) {
      case 'progress':
        this.#events.emit('sync:progress', event.progress)
        return
      case 'network':
        this.#isOffline = event.state === 'offline'
        this.#events.emit('app:network', { state: event.state })
        return
      case 'wallet-state':
        this.#track(this.emitStatus(event.address))
        return
      case 'activity':
        this.#events.emit('sync:activity', event.notice)
    }
  }

  /** Announces a finished check's new transactions; the first backfill is not news. */
  onChecked(info: CheckedWallet): void {
    if (!info.reasons.includes('full')) this.#track(this.#announceChange(info))
    if (!info.outcome || !info.wasComplete || info.outcome.newTransactions === 0) return
    this.#track(this.#announce(info.address, info.outcome.newTransactions))
  }

  /**
   * Emits the current state of one wallet, or of all. When a wallet's sync has ended, the
   * sidebar figures (new-activity counts) follow, so "Up to date" never sits beside a count
   * taken halfway through the sync.
   */
  async emitStatus(address?: string): Promise<void> {
    const syncing = new Set(this.#syncing())
    const statuses = await this.#withHealth(await this.#mirror.syncState.status(syncing, address))
    for (const status of statuses) this.#events.emit('sync:wallet-state', status)
    if (statuses.some((s) => s.state !== 'syncing')) await this.#emitSummaries()
  }

  /**
   * Emits the sidebar figures, read after this call. A read covers every wallet, so while one
   * runs, every wallet that ends meanwhile shares the single read queued behind it: 100
   * wallets ending one after another cost a few reads, not one each.
   */
  #emitSummaries(): Promise<void> {
    if (this.#summariesQueued) return this.#summariesQueued
    if (!this.#summariesRunning) return this.#readSummaries()
    const queued = this.#summariesRunning
      .catch(() => undefined)
      .then(() => {
        this.#summariesQueued = null
        return this.#readSummaries()
      })
    this.#summariesQueued = queued
    return queued
  }

  #readSummaries(): Promise<void> {
    const running = (async () => {
      this.#events.emit('watchlist:summaries', await this.#mirror.review.walletSummaries())
    })().finally(() => {
      if (this.#summariesRunning === running) this.#summariesRunning = null
    })
    this.#summariesRunning = running
    return running
  }

  /**
   * Tells the app of alerts just written or just due (the bell, the Alerts page), each once:
   * one gathering matches in its rule's cool-down is told when it fires.
   */
  onAlertsFired(alertIds: readonly number[]): void {
    this.#track(this.#announceAlerts(alertIds))
  }

  async #announceAlerts(alertIds: readonly number[]): Promise<void> {
    // An alert gathering matches in its rule's cool-down fires when the cool-down ends: it
    // is announced then (its desktop delivery), not while it gathers.
    const due = (await this.#mirror.alerts.views(alertIds, { firedBySec: this.#nowSec() })).filter(
      (a) => !this.#announced.has(a.id),
    )
    for (const a of due) {
      this.#announced.add(a.id)
      // Bounded: an alert is announced within moments of firing, never again after.
      if (this.#announced.size > MAX_ANNOUNCED_REMEMBERED)
        this.#announced.delete(this.#announced.values().next().value as number)
    }
    // Each page reads its own reader's unread count when told (read state is per account).
    if (due.length > 0) this.#events.emit('alerts:fired', { alerts: due })
  }

  /** Resolves once no relayed read is still running. */
  async idle(): Promise<void> {
    while (this.#work.size > 0) await Promise.all([...this.#work])
  }

  /** Runs relayed work in the background; a failed read must not take the process down. */
  #track(work: Promise<void>): void {
    const tracked = work.catch(() => {}).finally(() => this.#work.delete(tracked))
    this.#work.add(tracked)
  }

  async #announceChange(info: CheckedWallet): Promise<void> {
    const wallet = (await this.#mirror.watchlist.list()).find((w) => w.address === info.address)
    const reasons = info.reasons.filter((r) => r !== 'full')
    const change = {
      address: info.address,
      label: wallet?.label ?? null,
      reasons,
      newTransactions: info.outcome?.newTransactions ?? 0,
      syncCredits: info.syncCredits,
      latencySec: info.finishedSec - info.detectedSec,
      state: info.outcome?.state ?? 'error',
      atSec: info.finishedSec,
    } as const
    this.#events.emit('watch:change', { ...change, summary: describeWatchChange(change) })
  }

  async #announce(address: string, count: number): Promise<void> {
    const activity = await this.#mirror.activity.newestActivity(address, count)
    if (!activity) return
    const name = walletName({ address, label: activity.label })
    this.#events.emit('sync:activity', {
      address,
      label: activity.label,
      newTransactions: count,
      summary: summarizeNewActivity(activity, name, count),
      atSec: this.#nowSec(),
    })
  }
}
