import { CREDITS_PER_WEBHOOK_EVENT } from '@shared/api/prices'
import { deliveredTransaction, type WebhookDelivery } from '@shared/api/webhook-delivery'
import type { StreamName } from '../db/mirror-writer'
import type { LedgerEntry } from '../db/stores/credit-ledger-store'
import type { WebhookDeliveryStore } from '../db/stores/webhook-delivery-store'
import type { DetectedChange } from '../db/stores/watch-state-store'
import type { SyncEngine } from '../sync/sync-engine'
import { outcomeCredits, type CheckedWallet } from '../sync/watch-scheduler'

/**
 * The streams a delivered transaction can have changed: its history, its transfers and the
 * balances it moved. Each runs from the newest item it holds (history `after` the newest
 * signature), so a delivery costs one page per stream, never a refetch.
 */
export const DELIVERY_STREAMS: readonly StreamName[] = ['history', 'transfers', 'balances']

/** How often a wallet another sync holds is looked at again before its delivery's sync runs. */
const BUSY_WAIT_MS = 200

export interface DeliverySyncDeps {
  engine: SyncEngine
  store: WebhookDeliveryStore
  /** Watched wallets whose sync the person has not paused. */
  syncedAddresses: () => Promise<string[]>
  /** Writes a ledger row: the service charges each delivered event 1 credit. */
  recordCredits: (entry: LedgerEntry) => void
  /** Keeps a change watching found (the Activity page's count of changes and their cost). */
  recordChange: (change: DetectedChange) => Promise<void>
  nowSec: () => number
  /** Told after each delivery's sync of one wallet, as the scheduler tells of its syncs. */
  onSynced?: (info: CheckedWallet) => void
}

/**
 * Turns deliveries into syncs: each transaction's signature is recorded once, the watched
 * wallets it names are synced incrementally, and a wallet named again while its sync runs
 * is synced once more after it (the running one may have read the history before the new
 * transaction). A repeated delivery, or a signature in two deliveries, syncs nothing new.
 */
export class DeliverySync {
  readonly #d: DeliverySyncDeps
  /**
   * Per wallet: the sync under way for a delivery, and when the first delivery the next
   * sync is for arrived (null: none asked after the one running).
   */
  readonly #runs = new Map<string, { run: Promise<void>; nextReceivedSec: number | null }>()
  /** When a delivery last named each wallet (UTC seconds). */
  readonly #deliveredSec = new Map<string, number>()

  constructor(deps: DeliverySyncDeps) {
    this.#d = deps
  }

  /** Whether a delivery named the wallet at or after `sinceSec`. */
  isDeliveredSince(address: string, sinceSec: number): boolean {
    return (this.#deliveredSec.get(address) ?? -Infinity) >= sinceSec
  }

  /** Acts on one checked delivery; resolves when the syncs it asked for are done. */
  async accept(delivery: WebhookDelivery): Promise<void> {
    const now = this.#d.nowSec()
    const watched = new Set(await this.#d.syncedAddresses())
    const touched = new Set<string>()
    for (const event of delivery) {
      const { signature, addresses } = deliveredTransaction(event)
      const wallets = [...addresses].filter((a) => watched.has(a))
      // Every event the service delivered is charged, repeats included.
      this.#d.recordCredits({
        atMs: Date.now(),
        operation: 'webhooks.delivery',
        endpointClass: 'webhook',
        walletAddress: wallets[0] ?? null,
        stream: 'webhooks',
        credits: CREDITS_PER_WEBHOOK_EVENT,
        status: 'ok',
        errorName: null,
        durationMs: 0,
        httpStatus: 200,
      })
      if (!(await this.#d.store.claim(signature, wallets, now))) continue
      for (const w of wallets) {
        touched.add(w)
        this.#deliveredSec.set(w, now)
      }
    }
    await Promise.all([...touched].map((address) => this.#syncSoon(address, now)))
  }

  /** Resolves once no delivery's sync runs. */
  async idle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs.values()].map((r) => r.run))
  }

  #syncSoon(address: string, receivedSec: number): Promise<void> {
    const current = this.#runs.get(address)
    if (current) {
      current.nextReceivedSec ??= receivedSec
      return current.run
    }
    const entry: { run: Promise<void>; nextReceivedSec: number | null } = {
      run: Promise.resolve(),
      nextReceivedSec: receivedSec,
    }
    entry.run = (async () => {
      try {
        for (let next = entry.nextReceivedSec; next !== null; next = entry.nextReceivedSec) {
          entry.nextReceivedSec = null
          await this.#syncOnce(address, next)
        }
      } finally {
        this.#runs.delete(address)
      }
    })()
    this.#runs.set(address, entry)
    return entry.run
  }

  async #syncOnce(address: string, receivedSec: number): Promise<void> {
    const { engine } = this.#d
    // Another sync of the wallet (watching's, the person's) may have started before the
    // transaction existed: run after it.
    while (engine.isSyncing(address)) await new Promise((r) => setTimeout(r, BUSY_WAIT_MS))
    const walletId = await engine.writer.walletId(address)
    if (walletId === null) return
    const wasComplete = (await engine.writer.stream(walletId, 'history')).isBackfillComplete
    const outcome = await engine
      .syncWallet(address, { streams: DELIVERY_STREAMS })
      .catch((): null => null)
    const syncCredits = outcome ? outcomeCredits(outcome) : 0
    if (outcome?.state === 'ok')
      await this.#d.recordChange({
        walletId,
        detectedSec: receivedSec,
        reasons: ['delivery'],
        syncCredits,
      })
    this.#d.onSynced?.({
      address,
      outcome,
      wasComplete,
      reasons: ['delivery'],
      detectedSec: receivedSec,
      finishedSec: this.#d.nowSec(),
      syncCredits,
    })
  }
}
