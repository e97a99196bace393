import { nowSec, systemClock, type Cancel, type Clock } from '@shared/clock'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import type { StreamName } from '../db/mirror-writer'
import { STREAM_NAMES } from '../db/mirror-writer'
import type { WatchScheduleStore } from '../db/stores/watch-schedule-store'
import type { WatchStateStore } from '../db/stores/watch-state-store'
import {
  ChangeDetector,
  type ChangeReason,
  type WalletFindings,
  type WatchTarget,
} from './change-detector'
import { ApprovalNeededError, type ApprovalNeeded } from '@shared/ipc/history-load-schemas'
import type { SyncEngine, WalletSyncOutcome } from './sync-engine'
import type { ChangeEvidence, MissingSince } from './streams/change-stream'
import type { LookedAccounts } from './holdings-from-look'
import { COMPRESSED_STREAMS, holdsCompressedState } from './watch-footprint'
import { runAsApp } from './spender'

const WALLET_STREAMS: readonly StreamName[] = ['history', 'transfers', 'balances']

/** What the scheduler tells the shells after a wallet's sync. */
export interface CheckedWallet {
  address: string
  outcome: WalletSyncOutcome | null
  /** Whether the wallet's history was complete before this sync (false: a backfill ran). */
  wasComplete: boolean
  /** Why it was synced: what watching detected, or `full` (new, incomplete or asked for). */
  reasons: readonly (ChangeReason | 'full')[]
  /** When the round that found it started, and when its sync ended. */
  detectedSec: number
  finishedSec: number
  /** Credits the sync's pages cost. */
  syncCredits: number
}

/**
 * What webhook deliveries tell watching while they work: polling slows to a floor cadence,
 * and a change the balance probe finds in a wallet a delivery named since the last round
 * is already being synced by that delivery.
 */
export interface DeliveryCover {
  /**
   * The probe's slowest clocks while deliveries are trusted: a delivery names the wallet
   * for what the balance look and the token-account listing would find, so both slow down;
   * compressed transfers, which no delivery may name, are compared less often too.
   */
  floors: Pick<WatchCadence, 'checkEverySec' | 'tokenAccountsEverySec' | 'compressedEverySec'>
  /**
   * Whether deliveries since `sinceSec` account for what the round read of the wallet: one
   * named it, and the holdings they left are the amounts read (else one went missing).
   */
  explains(address: string, sinceSec: number, looked: LookedAccounts | null): Promise<boolean>
  /** Whether a delivery named the wallet at or after `sinceSec`. */
  isDeliveredSince(address: string, sinceSec: number): boolean
  /** Signatures written from deliveries that no read of the service has confirmed yet. */
  unverifiedSignatures(address: string): string[]
  /** The wallet's history was read past every delivered signature. */
  markVerified(address: string): void
  /** Wallets that changed with no delivery naming them: deliveries may have stopped. */
  onUnexplained(addresses: string[]): void
}

export interface WatchSchedulerOptions {
  schedule: WatchScheduleStore
  watchState: WatchStateStore
  engine: SyncEngine
  /** The person's cadence, read at each round (it can change at any time). */
  cadence: () => Promise<WatchCadence>
  /** Time and the round timer (the system clock unless a test drives it). */
  clock?: Clock
  /** Wallets synced at once after a round. */
  concurrency?: number
  /** How often the timer asks whether a round is due. */
  tickMs?: number
  onChecked?: (info: CheckedWallet) => void
  /** Told when the scheduler stops itself (budget reached). */
  onStopped?: (reason: string) => void
  /**
   * Told when a wallet's first sync asks first (more than a tenth of what is left this
   * month): it waits, unsynced, until the person agrees and asks for it (syncNow).
   */
  onAskedFirst?: (address: string, details: ApprovalNeeded) => void
  /**
   * On a mirror shared by several sync workers: the wallets this worker holds leases on,
   * asked at each round; the others' wallets are theirs to watch. All wallets without it.
   */
  ownWallets?: () => Promise<ReadonlySet<string>>
}

/**
 * Keeps watched wallets current for almost nothing. Every `checkEverySec` one round looks
 * at all unpaused wallets together (change-detector.ts: balances, and on slower clocks
 * token-account lists, compressed balances and the backstop), then syncs only the wallets
 * that changed, only the streams that can have changed, from the newest item they hold.
 * New wallets, unfinished backfills and wallets the person asked for get a full sync; the
 * round observes them first, so anything that moves during that sync shows next round.
 */
export class WatchScheduler {
  readonly #o: WatchSchedulerOptions
  readonly #detector: ChangeDetector
  readonly #forceFull = new Set<string>()
  /** Wallets whose last sync failed: not retried before `retrySec`. */
  readonly #failures = new Map<string, { count: number; retrySec: number }>()
  /** Wallets whose first sync asks first: left alone until the person asks for them. */
  readonly #askedFirst = new Set<string>()
  #stopTimer: Cancel | null = null
  #round: Promise<void> | null = null
  #lastRoundSec: number | null = null
  #lastNamesPassSec: number | null = null
  #isRoundAsked = false
  #stoppedReason: string | null = null
  /** Counts syncs asked for after a stop: a budget outcome from before one is stale. */
  #restarts = 0
  #abort = new AbortController()
  #cover: DeliveryCover | null = null

  constructor(options: WatchSchedulerOptions) {
    this.#o = options
    const engine = options.engine
    this.#detector = new ChangeDetector({
      store: options.watchState,
      writer: engine.writer,
      call: (operation, input, signal) => engine.callFor(null, operation, input, signal),
    })
  }

  get #now(): number {
    return nowSec(this.#o.clock ?? systemClock)
  }

  /** Why the scheduler stopped by itself, or null while it runs. */
  get stoppedReason(): string | null {
    return this.#stoppedReason
  }

  /**
   * Lets webhook deliveries stand in for most polling (null: poll at the person's cadence).
   * The probe keeps running, slower: it is the only way to see that deliveries stopped.
   */
  setDeliveryCover(cover: DeliveryCover | null): void {
    this.#cover = cover
  }

  /** Starts rounds on a timer. */
  start(): void {
    this.#stoppedReason = null
    if (this.#abort.signal.aborted) this.#abort = new AbortController()
    if (this.#stopTimer) return
    const clock = this.#o.clock ?? systemClock
    this.#stopTimer = clock.setInterval(() => this.poke(), this.#o.tickMs ?? 1_000, {
      keepsAlive: false,
    })
    this.poke()
  }

  /** Stops the timer and any round's looks; syncs in flight finish (cancel them through the engine). */
  stop(): void {
    this.#stopTimer?.()
    this.#stopTimer = null
    this.#abort.abort()
  }

  /** Syncs a wallet fully in the next round, which starts now (the person asked). */
  async syncNow(address: string): Promise<void> {
    this.#forceFull.add(address)
    this.#failures.delete(address)
    this.#askedFirst.delete(address)
    if (this.#stoppedReason !== null) this.#restarts++
    this.#stoppedReason = null
    this.#isRoundAsked = true
    this.poke()
  }

  /** Runs a round soon while watching (a wallet was added: its first sync should not wait a cadence). */
  roundSoon(): void {
    if (!this.#stopTimer) return
    this.#isRoundAsked = true
    this.poke()
  }

  /** Starts a round when one is due and none is running. */
  poke(): void {
    if (this.#stoppedReason !== null || this.#round !== null) return
    // Not watching (never started, or stopped): only a sync someone asked for runs.
    if (this.#stopTimer === null && !this.#isRoundAsked) return
    this.#round = this.#maybeRound()
      .catch(() => {})
      .finally(() => {
        this.#round = null
        // A sync asked for during the round runs next, watching or not (until stop()).
        if (this.#isRoundAsked && !this.#abort.signal.aborted) setImmediate(() => this.poke())
      })
  }

  /** Resolves once no round is running (after `stop()`, before closing the database). */
  async idle(): Promise<void> {
    while (this.#round) await this.#round
  }

  /**
   * Runs one round now, whether or not it is due, and resolves when its syncs are done.
   * A virtual-clock run (the watch-day benchmark, tests) drives the scheduler with it.
   *
   * @example
   * clock.advance(60); await scheduler.runRound()
   */
  async runRound(): Promise<CheckedWallet[]> {
    await this.idle()
    const round = this.#runRound(await this.#o.cadence())
    this.#round = round.then(() => {})
    try {
      return await round
    } finally {
      this.#round = null
    }
  }

  async #maybeRound(): Promise<void> {
    const cadence = await this.#o.cadence()
    const now = this.#now
    const everySec = this.#withFloors(cadence).checkEverySec
    const isDue = this.#lastRoundSec === null || now - this.#lastRoundSec >= everySec
    if (!this.#isRoundAsked && (!isDue || !cadence.isWatching)) return
    await this.#runRound(cadence)
  }

  /** A round spends on the watchlist's behalf, whoever's request started the scheduler. */
  #runRound(cadence: WatchCadence): Promise<CheckedWallet[]> {
    return runAsApp(() => this.#watchRound(this.#withFloors(cadence)))
  }

  /** The person's cadence, slowed to the delivery cover's floors while it stands. */
  #withFloors(cadence: WatchCadence): WatchCadence {
    const floors = this.#cover?.floors
    if (!floors) return cadence
    return {
      ...cadence,
      checkEverySec: Math.max(cadence.checkEverySec, floors.checkEverySec),
      tokenAccountsEverySec: Math.max(cadence.tokenAccountsEverySec, floors.tokenAccountsEverySec),
      compressedEverySec: Math.max(cadence.compressedEverySec, floors.compressedEverySec),
    }
  }

  async #watchRound(cadence: WatchCadence): Promise<CheckedWallet[]> {
    const { engine, schedule } = this.#o
    const now = this.#now
    const previousRoundSec = this.#lastRoundSec
    this.#lastRoundSec = now
    this.#isRoundAsked = false
    const restarts = this.#restarts
    const forced = new Set(this.#forceFull)
    this.#forceFull.clear()
    // With watching switched off, only what the person asks for runs.
    const owned = (await this.#o.ownWallets?.()) ?? null
    const wallets = (await schedule.unpaused()).filter(
      (w) =>
        (cadence.isWatching || forced.has(w.address)) &&
        !engine.isSyncing(w.address) &&
        (owned === null || owned.has(w.address)),
    )
    const targets: (WatchTarget & { wasComplete: boolean })[] = []
    // One read for the whole watchlist: a round runs every minute, for every wallet.
    const allRows = await engine.writer.streams(wallets.map((w) => w.walletId))
    for (const [i, w] of wallets.entries()) {
      const rows = allRows.slice(i * STREAM_NAMES.length, (i + 1) * STREAM_NAMES.length)
      const row = (s: StreamName) => rows[STREAM_NAMES.indexOf(s)]
      const failure = this.#failures.get(w.address)
      if (failure && failure.retrySec > now && !forced.has(w.address)) continue
      if (this.#askedFirst.has(w.address)) continue
      const isComplete = rows.every((r) => r.isBackfillComplete || r.isPaused)
      targets.push({
        walletId: w.walletId,
        address: w.address,
        hasCompressedState: holdsCompressedState(rows),
        syncsFully: forced.has(w.address) || !isComplete || failure !== undefined,
        wasComplete: row('history')?.isBackfillComplete === true,
      })
    }
    if (targets.length === 0) return []

    const findings = await this.#detector.round(targets, cadence, now, this.#abort.signal)
    const work: { target: (typeof targets)[number]; found: WalletFindings }[] = []
    const unexplained: string[] = []
    const cover = this.#cover
    for (const found of findings) {
      const target = targets.find((t) => t.walletId === found.walletId)
      if (!target) continue
      if (!target.syncsFully && found.reasons.length === 0) {
        await found.commit()
        continue
      }
      // A balance change a delivery already named is that delivery's sync; the full
      // check's findings (a signature the mirror lacks) are synced whatever was delivered.
      const isExplained =
        cover !== null &&
        !target.syncsFully &&
        previousRoundSec !== null &&
        !found.reasons.includes('backstop-signature') &&
        (await cover.explains(target.address, previousRoundSec, found.looked))
      if (isExplained) {
        await found.commit()
        continue
      }
      // Balances that moved with no delivery naming the wallet: deliveries may have stopped.
      // (Compressed transfers and failed transactions are never delivered.)
      if (
        cover !== null &&
        !target.syncsFully &&
        previousRoundSec !== null &&
        found.reasons.some((r) => r === 'balance' || r === 'new-token-account') &&
        !cover.isDeliveredSince(target.address, previousRoundSec)
      )
        unexplained.push(target.address)
      work.push({ target, found })
    }
    if (unexplained.length > 0) cover?.onUnexplained(unexplained)

    const checked: CheckedWallet[] = []
    const queue = [...work]
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (this.#stoppedReason !== null || this.#abort.signal.aborted) return
        // Paused since the round began: its sync would make calls the person stopped.
        if (await schedule.isPaused(next.target.address)) continue
        checked.push(await this.#syncFound(next.target, next.found, now, cadence, restarts))
      }
    }
    await Promise.all(Array.from({ length: this.#o.concurrency ?? 2 }, worker))
    // Syncs the person asked for that a stop (the budget) kept from running stay asked for:
    // the next round after a restart runs them.
    for (const left of queue)
      if (forced.has(left.target.address)) this.#forceFull.add(left.target.address)
    await this.#maybeNameCounterparties(checked, cadence)
    return checked
  }

  /**
   * Each wallet's sync names its counterparties in full batches of 100 only; the rest are
   * named after a round that synced, at most once per backstop period (daily by default).
   */
  async #maybeNameCounterparties(checked: CheckedWallet[], cadence: WatchCadence): Promise<void> {
    const now = this.#now
    if (!checked.some((c) => c.outcome?.state === 'ok')) return
    if (this.#lastNamesPassSec !== null && now - this.#lastNamesPassSec < cadence.backstopEverySec)
      return
    if (this.#stoppedReason !== null || this.#abort.signal.aborted) return
    this.#lastNamesPassSec = now
    await this.#o.engine.nameCounterparties(this.#abort.signal).catch(() => 0)
  }

  /** Syncs what a round found for one wallet, then saves the round's observations. */
  async #syncFound(
    target: WatchTarget & { wasComplete: boolean },
    found: WalletFindings,
    detectedSec: number,
    cadence: WatchCadence,
    /** `#restarts` when the round began. */
    restarts: number,
  ): Promise<CheckedWallet> {
    const reasons: (ChangeReason | 'full')[] = target.syncsFully ? ['full'] : found.reasons
    // What the looks saw move names the new transactions (a compressed change moves none of
    // the wallet's accounts); the full sync and the backstop's findings read the endpoints.
    const cover = this.#cover
    const change = reasons.every(
      (r) => r === 'balance' || r === 'new-token-account' || r === 'compressed',
    )
      ? {
          moved: found.moved,
          looked: found.looked,
          ...(cover ? { delivered: cover.unverifiedSignatures(target.address) } : {}),
        }
      : undefined
    const outcome = await this.#syncStreams(target, reasons, change, found.missingSince)
    // Asked first: not a failure; it waits for the person (no round retries it).
    if (this.#askedFirst.has(target.address)) {
      const info = {
        address: target.address,
        outcome: null,
        wasComplete: target.wasComplete,
        reasons,
        detectedSec,
        finishedSec: this.#now,
        syncCredits: 0,
      }
      this.#o.onChecked?.(info)
      return info
    }
    // A sync that read the history past the deliveries confirms them (or found the missing).
    if (outcome?.state === 'ok') cover?.markVerified(target.address)
    const syncCredits = outcome ? outcomeCredits(outcome) : 0
    if (outcome?.state === 'ok') {
      this.#failures.delete(target.address)
      await found.commit()
      if (found.reasons.length > 0) {
        await this.#o.watchState.recordChange({
          walletId: target.walletId,
          detectedSec,
          reasons: found.reasons,
          syncCredits,
        })
      }
    } else if (outcome?.state !== 'cancelled') {
      // Tried again after one round, then backing off, never longer than the backstop.
      const count = (this.#failures.get(target.address)?.count ?? 0) + 1
      const waitSec = Math.min(cadence.backstopEverySec, cadence.checkEverySec * 2 ** (count - 1))
      this.#failures.set(target.address, { count, retrySec: detectedSec + waitSec })
    }
    await this.#o.schedule.recordCheck(target.walletId, {
      checkedSec: this.#now,
      activitySec: (outcome?.newTransactions ?? 0) > 0 ? this.#now : null,
    })
    const info: CheckedWallet = {
      address: target.address,
      outcome,
      wasComplete: target.wasComplete,
      reasons,
      detectedSec,
      finishedSec: this.#now,
      syncCredits,
    }
    this.#o.onChecked?.(info)
    // A budget stop counts unless the person raised the budget and asked again meanwhile.
    if (outcome?.state === 'budget' && restarts === this.#restarts) {
      this.#stoppedReason =
        outcome.streams.find((s) => s.state === 'budget')?.error ?? 'The credit budget is reached.'
      this.stop()
      // Stopped by the budget, not closed: a later syncNow (budget raised, Retry) may run.
      this.#abort = new AbortController()
      this.#o.onStopped?.(this.#stoppedReason)
    }
    return info
  }

  /** Syncs the streams `reasons` point at; null when the sync threw (counted as a failure). */
  async #syncStreams(
    target: WatchTarget,
    reasons: readonly (ChangeReason | 'full')[],
    change: ChangeEvidence | undefined,
    missingSince: MissingSince | null,
  ): Promise<WalletSyncOutcome | null> {
    const { engine } = this.#o
    try {
      return await engine.syncWallet(target.address, {
        streams: streamsFor(reasons, target.hasCompressedState),
        ...(change ? { change } : {}),
        ...(missingSince ? { missingSince } : {}),
      })
    } catch (error) {
      if (error instanceof ApprovalNeededError) {
        this.#askedFirst.add(target.address)
        this.#o.onAskedFirst?.(target.address, error.details as ApprovalNeeded)
      }
      return null
    }
  }
}

/** The streams a change can have touched. */
function streamsFor(
  reasons: readonly (ChangeReason | 'full')[],
  hasCompressedState: boolean,
): StreamName[] {
  const out = new Set<StreamName>()
  const compressed = hasCompressedState ? COMPRESSED_STREAMS : []
  for (const reason of reasons) {
    switch (reason) {
      case 'full':
      case 'backstop-signature':
        STREAM_NAMES.forEach((s) => out.add(s))
        break
      case 'balance':
      case 'new-token-account':
        ;[...WALLET_STREAMS, ...compressed].forEach((s) => out.add(s))
        break
      case 'compressed':
        ;['history', ...COMPRESSED_STREAMS].forEach((s) => out.add(s as StreamName))
        break
      case 'delivery':
        WALLET_STREAMS.forEach((s) => out.add(s))
        break
    }
  }
  return STREAM_NAMES.filter((s) => out.has(s))
}

/** Credits a sync's pages cost (each page is one call of its stream's operation). */
export function outcomeCredits(outcome: WalletSyncOutcome): number {
  return outcome.streams.reduce((sum, s) => sum + s.credits, 0)
}
