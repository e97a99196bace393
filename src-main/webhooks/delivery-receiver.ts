import type { Mirror } from '../db/mirror'
import type { LedgerEntry } from '../db/stores/credit-ledger-store'
import type { SyncEngine } from '../sync/sync-engine'
import type { CheckedWallet } from '../sync/watch-scheduler'
import { createDeliveryRoute, type ServerRoute } from './delivery-route'
import { DeliverySync } from './delivery-sync'

export interface DeliveryReceiverDeps {
  mirror: Mirror
  engine: SyncEngine
  /** The secret a delivery must carry. */
  secret: string
  /** Writes one ledger row (delivered events are charged by the service). */
  recordCredits: (entry: LedgerEntry) => void
  nowSec: () => number
  /** When the last delivery before this start arrived (from the mirror), or null. */
  lastDeliverySec: number | null
  /** Told before each delivery is synced (webhook mode resumes on it). */
  onDelivery: () => Promise<void>
  maxBodyBytes?: number
  onSynced?: (info: CheckedWallet) => void
  onError?: (error: unknown) => void
}

/**
 * Webhook mode's receiving end: the delivery route a server mounts, and the syncs that
 * deliveries start (each signature once, the wallets it names from their newest items).
 * Remembers when the last delivery came, which is how the mode tells deliveries working
 * from deliveries stopped.
 */
export class DeliveryReceiver {
  readonly route: ServerRoute & { idle(): Promise<void> }
  #deliveries: DeliverySync
  #lastDeliverySec: number | null

  constructor(deps: DeliveryReceiverDeps) {
    const { mirror } = deps
    this.#lastDeliverySec = deps.lastDeliverySec
    this.#deliveries = new DeliverySync({
      engine: deps.engine,
      store: mirror.webhookDeliveries,
      syncedAddresses: async () => {
        const out: string[] = []
        for (const { address } of await mirror.watchlist.list())
          if (!(await mirror.schedule.isPaused(address))) out.push(address)
        return out
      },
      recordCredits: deps.recordCredits,
      recordChange: (change) => mirror.watchState.recordChange(change),
      nowSec: deps.nowSec,
      ...(deps.onSynced ? { onSynced: deps.onSynced } : {}),
    })
    this.route = createDeliveryRoute({
      secret: () => deps.secret,
      ...(deps.maxBodyBytes !== undefined ? { maxBodyBytes: deps.maxBodyBytes } : {}),
      ...(deps.onError ? { onError: deps.onError } : {}),
      onDelivery: async (delivery) => {
        this.#lastDeliverySec = deps.nowSec()
        await deps.onDelivery()
        await this.#deliveries.accept(delivery)
      },
    })
  }

  get lastDeliverySec(): number | null {
    return this.#lastDeliverySec
  }

  /** Whether a delivery since `sinceSec` named `address` (so the probe need not sync it). */
  isDeliveredSince(address: string, sinceSec: number): boolean {
    return this.#deliveries.isDeliveredSince(address, sinceSec)
  }

  /** Resolves once the deliveries received so far are read and synced. */
  async idle(): Promise<void> {
    await this.route.idle()
    await this.#deliveries.idle()
  }
}
