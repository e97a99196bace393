import type BetterSqlite3 from 'better-sqlite3'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { STREAM_NAMES, type StreamName } from '../db/ingest/mirror-writer'
import { isProbeWorthIt, ProbeBaseline, probeWallet } from './change-probe'
import type { SyncEngine, WalletSyncOutcome } from './sync-engine'

/** A balances snapshot is refreshed at least this often, even when nothing moved (prices do). */
export const BALANCES_REFRESH_SEC = 6 * 3_600

/** Streams the probe does not cover (compressed transfers need not name the owner): always checked. */
const UNPROBED_STREAMS: StreamName[] = ['compressed-owner', 'compressed-token-owner']

export interface WatchSchedulerOptions {
  sqlite: BetterSqlite3.Database
  engine: SyncEngine
  cadence: () => WatchCadence
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

interface Due {
  walletId: number
  address: string
  intervalSec: number | null
}

/**
 * Keeps watched wallets current. Each wallet has its next check time: a wallet with new
 * activity is checked again at the shortest interval, a quiet one backs off (doubling, up
 * to the longest). A check probes first where that is cheaper (change-probe.ts) and runs
 * the full sync only when something moved; at the longest interval it syncs regardless.
 */
export class WatchScheduler {
  readonly #o: WatchSchedulerOptions
  readonly #baseline: ProbeBaseline
  readonly #s: ReturnType<typeof prepare>
  readonly #active = new Set<string>()
  readonly #checks = new Set<Promise<unknown>>()
  readonly #forceFull = new Set<string>()
  #timer: NodeJS.Timeout | null = null
  #stoppedReason: string | null = null

  constructor(options: WatchSchedulerOptions) {
    this.#o = options
    this.#baseline = new ProbeBaseline(options.sqlite)
    this.#s = prepare(options.sqlite)
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
  syncNow(address: string): void {
    this.#forceFull.add(address)
    this.#s.resumeAndDue.run(address)
    this.#stoppedReason = null
    this.poke()
  }

  /** Stops checking a wallet until resumed (a running sync is cancelled). */
  pause(address: string): void {
    this.#s.ensureRow.run(this.#now, 0, address)
    this.#s.setPaused.run(1, address)
    this.#o.engine.cancel(address)
  }

  /** Checks a paused wallet again, now. */
  resume(address: string): void {
    this.#s.ensureRow.run(this.#now, 0, address)
    this.#s.setPaused.run(0, address)
    this.syncNow(address)
  }

  /** Whether a wallet is paused. */
  isPaused(address: string): boolean {
    const row = this.#s.paused.get(address) as { is_paused: number } | undefined
    return row?.is_paused === 1
  }

  /** Starts whatever checks are due, up to the concurrency. */
  poke(): void {
    if (this.#stoppedReason !== null) return
    const free = (this.#o.concurrency ?? 2) - this.#active.size
    if (free <= 0) return
    const due = (
      this.#s.due.all(this.#now) as {
        wallet_id: number
        address: string
        interval_sec: number | null
      }[]
    )
      .filter((d) => !this.#active.has(d.address) && !this.#o.engine.isSyncing(d.address))
      // With watching switched off in Settings, only what the person asks for runs.
      .filter((d) => this.#o.cadence().isWatching || this.#forceFull.has(d.address))
      .slice(0, free)
    for (const d of due) {
      this.#track(
        this.#check({ walletId: d.wallet_id, address: d.address, intervalSec: d.interval_sec }),
      )
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
    const walletId = this.#o.engine.writer.walletId(address)
    if (walletId === null) return null
    const check = this.#check({ walletId, address, intervalSec: null })
    this.#track(check)
    return check
  }

  async #check(due: Due): Promise<WalletSyncOutcome | null> {
    const { engine } = this.#o
    this.#active.add(due.address)
    const now = this.#now
    const cadence = this.#o.cadence()
    try {
      const history = engine.writer.stream(due.walletId, 'history')
      const wasComplete = history.isBackfillComplete && history.newestKey !== null
      const isComplete = STREAM_NAMES.every(
        (s) => engine.writer.stream(due.walletId, s).isBackfillComplete,
      )
      const lastFull =
        (this.#s.lastFull.get(due.walletId) as { sec: number | null } | undefined)?.sec ?? null
      const isStale = lastFull === null || now - lastFull >= cadence.maxIntervalSec
      const tokenAccounts = this.#baseline.tokenAccounts(due.walletId).addresses.size
      const isForced = this.#forceFull.delete(due.address)
      let probed = false
      let outcome: WalletSyncOutcome
      if (!isForced && isComplete && !isStale && isProbeWorthIt(tokenAccounts)) {
        probed = true
        const probe = await probeWallet(
          engine,
          this.#baseline,
          { id: due.walletId, address: due.address },
          now,
        )
        if (probe.hasChanges) {
          outcome = await engine.syncWallet(due.address)
          if (outcome.state === 'ok')
            this.#baseline.saveObservation(due.walletId, probe.observation)
        } else {
          const balances = engine.writer.stream(due.walletId, 'balances')
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
      if (this.#o.engine.writer.walletId(due.address) === null) return outcome
      this.#s.plan.run({
        walletId: due.walletId,
        next: now + interval,
        interval,
        checked: now,
        activity: hadActivity ? now : null,
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
      this.#s.plan.run({
        walletId: due.walletId,
        next: now + cadence.maxIntervalSec,
        interval: cadence.maxIntervalSec,
        checked: now,
        activity: null,
      })
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

function prepare(sqlite: BetterSqlite3.Database) {
  return {
    due: sqlite.prepare(`
      select w.id as wallet_id, w.address, s.interval_sec
      from wallets w left join watch_schedule s on s.wallet_id = w.id
      where coalesce(s.is_paused, 0) = 0 and coalesce(s.next_check_sec, 0) <= ?
      order by coalesce(s.next_check_sec, 0), w.position`),
    plan: sqlite.prepare(`
      insert into watch_schedule (wallet_id, next_check_sec, interval_sec, last_checked_sec, last_activity_sec)
      values (@walletId, @next, @interval, @checked, @activity)
      on conflict (wallet_id) do update set next_check_sec = excluded.next_check_sec, interval_sec = excluded.interval_sec,
        last_checked_sec = excluded.last_checked_sec, last_activity_sec = coalesce(excluded.last_activity_sec, last_activity_sec)`),
    ensureRow: sqlite.prepare(`
      insert into watch_schedule (wallet_id, next_check_sec, interval_sec)
      select id, ?, ? from wallets where address = ? on conflict do nothing`),
    setPaused: sqlite.prepare(
      'update watch_schedule set is_paused = ? where wallet_id = (select id from wallets where address = ?)',
    ),
    paused: sqlite.prepare(
      'select s.is_paused from watch_schedule s join wallets w on w.id = s.wallet_id where w.address = ?',
    ),
    resumeAndDue: sqlite.prepare(
      'update watch_schedule set next_check_sec = 0 where wallet_id = (select id from wallets where address = ?)',
    ),
    lastFull: sqlite.prepare(
      "select min(last_success_sec) as sec from sync_streams where wallet_id = ? and stream in ('history', 'transfers')",
    ),
  }
}
