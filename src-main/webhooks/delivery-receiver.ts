import type { Mirror } from '../db/mirror'
import type { HoldingsStore } from '../db/stores/holdings-store'
import { holdingsMatchLook, type LookedAccounts } from '../sync/holdings-from-look'
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
  readonly #holdings: HoldingsStore
  readonly #walletId: (address: string) => Promise<number | null>

  constructor(deps: DeliveryReceiverDeps) {
    const { mirror } = deps
    this.#lastDeliverySec = deps.lastDeliverySec
    this.#walletId = (address) => deps.engine.writer.walletId(address)
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
      direct: {
        writer: deps.engine.writer,
        mints: mirror.mints,
        holdings: mirror.holdings,
        watchState: mirror.watchState,
        nowSec: deps.nowSec,
        nowMs: () => deps.nowSec() * 1_000,
      },
    })
    this.#holdings = mirror.holdings
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

  /**
   * Whether deliveries since `sinceSec` account for what the probe read of `address`: one
   * named it, and the holdings the mirror holds now are the amounts read. A delivery the
   * service never sent leaves them apart, and the probe syncs.
   */
  async explains(
    address: string,
    sinceSec: number,
    looked: LookedAccounts | null,
  ): Promise<boolean> {
    if (!this.#deliveries.isDeliveredSince(address, sinceSec) || looked === null) return false
    const walletId = await this.#walletId(address)
    const holdings = walletId === null ? null : await this.#holdings.latest(walletId)
    return holdings !== null && holdingsMatchLook(holdings, looked)
  }

  /** Whether a delivery since `sinceSec` named `address`. */
  isDeliveredSince(address: string, sinceSec: number): boolean {
    return this.#deliveries.isDeliveredSince(address, sinceSec)
  }

  unverifiedSignatures(address: string): string[] {
    return this.#deliveries.unverifiedSignatures(address)
  }

  markVerified(address: string): void {
    this.#deliveries.markVerified(address)
  }

  /** Resolves once the deliveries received so far are read and synced. */
  async idle(): Promise<void> {
    await this.route.idle()
    await this.#deliveries.idle()
  }
}
