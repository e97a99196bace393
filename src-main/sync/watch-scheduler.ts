import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { STREAM_NAMES, type StreamName } from '../db/ingest/mirror-writer'
import type { ProbeBaselineStore } from '../db/stores/probe-baseline-store'
import type { DueWallet, WatchScheduleStore } from '../db/stores/watch-schedule-store'
import { isProbeWorthIt, probeWallet } from './change-probe'
import type { SyncEngine, WalletSyncOutcome } from './sync-engine'

/** A balances snapshot is refreshed at least this often, even when nothing moved (prices do). */
const BALANCES_REFRESH_SEC = 6 * 3_600

/** Streams the probe does not cover (compressed transfers need not name the owner): always checked. */
const UNPROBED_STREAMS: StreamName[] = ['compressed-owner', 'compressed-token-owner']

export interface WatchSchedulerOptions {
  schedule: WatchScheduleStore
  baseline: ProbeBaselineStore
  engine: SyncEngine
  /** The person's cadence, read at each use (it can change at any time). */
  cadence: () => Promise<WatchCadence>
  nowSec?: () => number
  /** Wallets checked at once. */
  concurrency?: number
  tickMs?: number
  /** Told after each wallet's check, with whether the history had been complete before it. */
  onChecked?: (info: {
    address: string
    outcome: WalletSyncOutcome | null
    wasComplete: boolean
    probed: boolean
  }) => void
  /** Told when the scheduler stops itself (budget reached). */
  onStopped?: (reason: string) => void
}

/**
 * Keeps watched wallets current. Each wallet has its next check time: a wallet with new
 * activity is checked again at the shortest interval, a quiet one backs off (doubling, up
 * to the longest). A check probes first where that is cheaper (change-probe.ts) and runs
 * the full sync only when something moved; at the longest interval it syncs regardless.
 */
export class WatchScheduler {
  readonly #o: WatchSchedulerOptions
  readonly #active = new Set<string>()
  readonly #checks = new Set<Promise<unknown>>()
  readonly #forceFull = new Set<string>()
  #timer: NodeJS.Timeout | null = null
  #stoppedReason: string | null = null
  #isPoking = false
  #isPokeAgain = false

  constructor(options: WatchSchedulerOptions) {
    this.#o = options
  }

  get #now(): number {
    return (this.#o.nowSec ?? (() => Math.floor(Date.now() / 1000)))()
  }

  /** Why the scheduler stopped by itself, or null while it runs. */
  get stoppedReason(): string | null {
    return this.#stoppedReason
  }

  /** Starts checking on a timer. */
  start(): void {
    this.#stoppedReason = null
    if (this.#timer) return
    this.#timer = setInterval(() => this.poke(), this.#o.tickMs ?? 1_000)
    this.#timer.unref()
    this.poke()
  }

  /** Stops the timer; checks in flight finish (cancel them through the engine). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
  }

  /** Checks a wallet now, with a full sync (the person asked: no probe). */
  async syncNow(address: string): Promise<void> {
    this.#forceFull.add(address)
    await this.#o.schedule.markDue(address)
    this.#stoppedReason = null
    this.poke()
  }

  /** Starts whatever checks are due, up to the concurrency. */
  poke(): void {
    if (this.#stoppedReason !== null) return
    // One look at the schedule at a time; a poke meanwhile asks for one more look.
    if (this.#isPoking) {
      this.#isPokeAgain = true
      return
    }
    this.#isPoking = true
    const look = this.#startDue()
      .catch(() => {})
      .finally(() => {
        this.#isPoking = false
        if (this.#isPokeAgain) {
          this.#isPokeAgain = false
          this.poke()
        }
      })
    this.#track(look)
  }

  async #startDue(): Promise<void> {
    const free = (this.#o.concurrency ?? 2) - this.#active.size
    if (free <= 0) return
    const cadence = await this.#o.cadence()
    const due = (await this.#o.schedule.due(this.#now))
      .filter((d) => !this.#active.has(d.address) && !this.#o.engine.isSyncing(d.address))
      // With watching switched off in Settings, only what the person asks for runs.
      .filter((d) => cadence.isWatching || this.#forceFull.has(d.address))
      .slice(0, free)
    for (const d of due) {
      // Marked active before the check's first await, so the next look skips it.
      this.#active.add(d.address)
      this.#track(this.#check(d))
    }
  }

  /** Resolves once no check is running (after `stop()` and cancelling, before closing the database). */
  async idle(): Promise<void> {
    while (this.#checks.size > 0) await Promise.all([...this.#checks])
  }

  #track(check: Promise<unknown>): void {
    const tracked: Promise<unknown> = check.finally(() => this.#checks.delete(tracked))
    this.#checks.add(tracked)
  }

  /**
   * Runs one wallet's check: probe or full sync, then plans the next one.
   *
   * @example
   * await scheduler.checkWallet('86xC…2MMY') // what the timer does when it is due
   */
  async checkWallet(address: string): Promise<WalletSyncOutcome | null> {
    const walletId = await this.#o.engine.writer.walletId(address)
    if (walletId === null) return null
    this.#active.add(address)
    const check = this.#check({ walletId, address, intervalSec: null })
    this.#track(check)
    return check
  }

  async #check(due: DueWallet): Promise<WalletSyncOutcome | null> {
    const { engine, baseline } = this.#o
    this.#active.add(due.address)
    const now = this.#now
    let cadence: WatchCadence | null = null
    try {
      cadence = await this.#o.cadence()
      const rows = await Promise.all(STREAM_NAMES.map((s) => engine.writer.stream(due.walletId, s)))
      const history = rows[STREAM_NAMES.indexOf('history')]
      const wasComplete = history?.isBackfillComplete === true && history.newestKey !== null
      const isComplete = rows.every((r) => r.isBackfillComplete)
      const lastFull = await this.#o.schedule.lastFullSyncSec(due.walletId)
      const isStale = lastFull === null || now - lastFull >= cadence.maxIntervalSec
      const tokenAccounts = (await baseline.tokenAccounts(due.walletId)).addresses.size
      const isForced = this.#forceFull.delete(due.address)
      let probed = false
      let outcome: WalletSyncOutcome
      if (!isForced && isComplete && !isStale && isProbeWorthIt(tokenAccounts)) {
        probed = true
        const probe = await probeWallet(
          (operation, input, signal) => engine.callFor(due.address, operation, input, signal),
          baseline,
          { id: due.walletId, address: due.address },
          now,
        )
        if (probe.hasChanges) {
          outcome = await engine.syncWallet(due.address)
          if (outcome.state === 'ok')
            await baseline.saveObservation(due.walletId, probe.observation)
        } else {
          const balances = await engine.writer.stream(due.walletId, 'balances')
          const isBalancesDue =
            balances.newestKey === null || now - Number(balances.newestKey) >= BALANCES_REFRESH_SEC
          outcome = await engine.syncWallet(due.address, {
            streams: [...UNPROBED_STREAMS, ...(isBalancesDue ? (['balances'] as const) : [])],
          })
        }
      } else {
        outcome = await engine.syncWallet(due.address)
      }
      const hadActivity = outcome.newTransactions > 0
      const previous = due.intervalSec ?? cadence.minIntervalSec
      const interval =
        hadActivity || !isComplete
          ? cadence.minIntervalSec
          : Math.min(cadence.maxIntervalSec, Math.max(cadence.minIntervalSec, previous * 2))
      if ((await engine.writer.walletId(due.address)) === null) return outcome
      await this.#o.schedule.plan({
        walletId: due.walletId,
        nextCheckSec: now + interval,
        intervalSec: interval,
        checkedSec: now,
        activitySec: hadActivity ? now : null,
      })
      this.#o.onChecked?.({ address: due.address, outcome, wasComplete, probed })
      if (outcome.state === 'budget') {
        this.#stoppedReason =
          outcome.streams.find((s) => s.state === 'budget')?.error ??
          'The credit budget is reached.'
        this.stop()
        this.#o.onStopped?.(this.#stoppedReason)
      }
      return outcome
    } catch (error) {
      // The wallet vanished or the engine refused: try again at the longest interval.
      if (this.#timer === null) return null
      const retrySec = cadence?.maxIntervalSec ?? 3_600
      await this.#o.schedule
        .plan({
          walletId: due.walletId,
          nextCheckSec: now + retrySec,
          intervalSec: retrySec,
          checkedSec: now,
          activitySec: null,
        })
        .catch(() => {})
      this.#o.onChecked?.({
        address: due.address,
        outcome: null,
        wasComplete: false,
        probed: false,
      })
      void error
      return null
    } finally {
      this.#active.delete(due.address)
      if (this.#timer) setImmediate(() => this.poke())
    }
  }
}
