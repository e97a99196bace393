import { CREDITS_PER_WEBHOOK_EVENT } from '@shared/api/prices'
import {
  deliveredTransaction,
  EnhancedTransaction,
  serviceDescriptionOf,
  type ServiceDescription,
  type WebhookDelivery,
} from '@shared/api/webhook-delivery'
import type { StreamName } from '../db/mirror-writer'
import type { LedgerEntry } from '../db/stores/credit-ledger-store'
import type { WebhookDeliveryStore } from '../db/stores/webhook-delivery-store'
import type { DetectedChange } from '../db/stores/watch-state-store'
import type { StreamOutcome, SyncEngine, WalletSyncOutcome } from '../sync/sync-engine'
import { outcomeCredits, type CheckedWallet } from '../sync/watch-scheduler'
import { writeDelivered, type DeliveryWriterDeps } from './delivery-writer'

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
  /** Writes enhanced deliveries into the mirror as they come (else each one syncs). */
  direct?: DeliveryWriterDeps
}

/** A wallet's next run: when its first delivery came, and the enhanced events it carried. */
interface Pending {
  receivedSec: number
  events: EnhancedTransaction[]
  /** An event could not be read whole (a raw delivery): the run syncs. */
  mustSync: boolean
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
  readonly #runs = new Map<string, { run: Promise<void>; next: Pending | null }>()
  /** When a delivery last named each wallet (UTC seconds). */
  readonly #deliveredSec = new Map<string, number>()
  /** Signatures written from deliveries since the wallet's history was last read from the service. */
  readonly #unverified = new Map<string, Set<string>>()

  constructor(deps: DeliverySyncDeps) {
    this.#d = deps
  }

  /** Whether a delivery named the wallet at or after `sinceSec`. */
  isDeliveredSince(address: string, sinceSec: number): boolean {
    return (this.#deliveredSec.get(address) ?? -Infinity) >= sinceSec
  }

  /**
   * Signatures written from deliveries that no read of the service has confirmed since: a
   * sync of the wallet reads these again, since one the service never delivered may sit
   * among them.
   */
  unverifiedSignatures(address: string): string[] {
    return [...(this.#unverified.get(address) ?? [])]
  }

  /** The wallet's history was read from the service past every delivered signature. */
  markVerified(address: string): void {
    this.#unverified.delete(address)
  }

  /** Acts on one checked delivery; resolves when the syncs it asked for are done. */
  async accept(delivery: WebhookDelivery): Promise<void> {
    const now = this.#d.nowSec()
    const watched = new Set(await this.#d.syncedAddresses())
    const touched = new Map<string, Pending>()
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
      const whole = EnhancedTransaction.safeParse(event)
      for (const w of wallets) {
        const pending = touched.get(w) ?? { receivedSec: now, events: [], mustSync: false }
        if (whole.success) pending.events.push(whole.data)
        else pending.mustSync = true
        touched.set(w, pending)
        this.#deliveredSec.set(w, now)
      }
    }
    await Promise.all([...touched].map(([address, pending]) => this.#syncSoon(address, pending)))
  }

  /** Resolves once no delivery's sync runs. */
  async idle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs.values()].map((r) => r.run))
  }

  #syncSoon(address: string, pending: Pending): Promise<void> {
    const current = this.#runs.get(address)
    if (current) {
      if (current.next === null) current.next = pending
      else {
        current.next.events.push(...pending.events)
        current.next.mustSync ||= pending.mustSync
      }
      return current.run
    }
    const entry: { run: Promise<void>; next: Pending | null } = {
      run: Promise.resolve(),
      next: pending,
    }
    entry.run = (async () => {
      try {
        for (let next = entry.next; next !== null; next = entry.next) {
          entry.next = null
          await this.#syncOnce(address, next)
        }
      } finally {
        this.#runs.delete(address)
      }
    })()
    this.#runs.set(address, entry)
    return entry.run
  }

  async #syncOnce(address: string, pending: Pending): Promise<void> {
    const { engine } = this.#d
    const { receivedSec } = pending
    // Another sync of the wallet (watching's, the person's) may have started before the
    // transaction existed: run after it.
    while (engine.isSyncing(address)) await new Promise((r) => setTimeout(r, BUSY_WAIT_MS))
    const walletId = await engine.writer.walletId(address)
    if (walletId === null) return
    const wasComplete = (await engine.writer.stream(walletId, 'history')).isBackfillComplete
    const outcome = await this.#writeOrSync(address, walletId, pending)
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

  /**
   * Writes the delivered transactions as they are when it can (no call), the holdings by
   * the balances stream when the deliveries cannot move them; else syncs the wallet's
   * delivery streams from the service. Null when the sync threw.
   */
  async #writeOrSync(
    address: string,
    walletId: number,
    pending: Pending,
  ): Promise<WalletSyncOutcome | null> {
    const { engine, direct } = this.#d
    const written =
      direct && !pending.mustSync
        ? await writeDelivered(direct, walletId, address, pending.events).catch(() => null)
        : null
    if (written === null) {
      const synced = await engine
        .syncWallet(address, { streams: DELIVERY_STREAMS })
        .catch((): null => null)
      // The history endpoint says none of what the delivery said of each transaction.
      if (synced !== null) await this.#d.store.describe(walletId, describedEvents(pending.events))
      return synced
    }
    const known = this.#unverified.get(address) ?? new Set<string>()
    for (const e of pending.events) known.add(e.signature)
    this.#unverified.set(address, known)
    const wrote = (stream: StreamName, newItems: number): StreamOutcome => ({
      stream,
      state: 'ok',
      pages: 0,
      newItems,
      credits: 0,
    })
    const streams: StreamOutcome[] = [
      wrote('history', written.newTransactions),
      wrote('transfers', written.newTransfers),
    ]
    if (!written.wroteHoldings) {
      const balances = await engine
        .syncWallet(address, { streams: ['balances'] })
        .catch((): null => null)
      if (balances === null) return null
      streams.push(...balances.streams)
    }
    const state = streams.find((s) => s.state !== 'ok')?.state ?? 'ok'
    return { address, streams, state, newTransactions: written.newTransactions }
  }
}

/** The delivered events that say something of themselves, with what they say. */
function describedEvents(
  events: readonly EnhancedTransaction[],
): { signature: string; described: ServiceDescription }[] {
  return events.flatMap((e) => {
    const described = serviceDescriptionOf(e)
    return described ? [{ signature: e.signature, described }] : []
  })
}
