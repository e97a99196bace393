import { nowSec, type Clock } from '@shared/clock'
import type { HealthKind } from '@shared/domain/alert-rules'
import { healthLine, healthResolvedLine, keptAsideDetail } from '@shared/domain/health-text'
import { walletName } from '@shared/domain/wallet-address'
import { StorageError } from '@shared/ipc/ipc-errors'
import type { NewAlert } from '../db/stores/alert-store'
import type { HealthCondition, HealthStore } from '../db/stores/health-store'
import type { KeptAsideCount } from '../db/stores/kept-aside-store'
import type { CallReport } from '../service/call-report'
import type { SpendingCheck } from '../sync/credit-meter'

/** When 429s count as persistent: this many in a row, or 429s for this long. */
export const RATE_LIMITED_STREAK = 5
export const RATE_LIMITED_FOR_SEC = 60

/** The share of a budget that raises the budget-80 warning. */
const BUDGET_WARNING_SHARE = 0.8

const STORAGE_KINDS: readonly HealthKind[] = [
  'disk-full',
  'database-locked',
  'postgres-unreachable',
]

export interface HealthMonitorOptions {
  store: HealthStore
  clock: Clock
  /** Told after the active conditions changed (the shells' banner follows). */
  onChange?: () => void
  /** Told of each health alert written (the bell, and the deliverer's turn). */
  onAlert?: (alertId: number) => void
}

/**
 * Turns what the engine sees (each call's answer, the network state, the budget checks,
 * storage failures) into health conditions: one place raises and resolves them, so each
 * stop or slow-down is one condition and one health alert to every channel, and its end
 * one "resolved" alert, however many calls saw it.
 *
 * Its work runs one step after another; a step that cannot be written (the disk is full,
 * the database is gone) keeps the condition in memory so the banner still says it.
 */
export class HealthMonitor {
  readonly #o: HealthMonitorOptions
  /** What is active, as this process knows it (loaded from the mirror first). */
  readonly #known = new Map<HealthKind, HealthCondition>()
  /** Conditions raised but not written (the mirror refused the write). */
  readonly #unwritten = new Map<HealthKind, HealthCondition>()
  #work: Promise<void>
  #rateLimited = { streak: 0, firstSec: 0 }
  /** When (performance.now()) this process last raised each condition. */
  readonly #raisedAtMs = new Map<HealthKind, number>()
  /** The budget a refusal was under: only a new period or a higher budget ends it. */
  readonly #refusals = new Map<'daily' | 'monthly', { limit: number; periodStartMs: number }>()

  constructor(options: HealthMonitorOptions) {
    this.#o = options
    this.#work = this.#load()
  }

  /** The active conditions, oldest first (those the mirror could not take included). */
  async active(): Promise<HealthCondition[]> {
    await this.idle()
    const stored = await this.#o.store.active()
    const unwritten = [...this.#unwritten.values()].filter(
      (c) => !stored.some((s) => s.kind === c.kind),
    )
    return [...stored, ...unwritten].sort((a, b) => a.sinceSec - b.sinceSec)
  }

  /** Resolves once every raise and resolve asked so far is written. */
  async idle(): Promise<void> {
    let seen: Promise<void> | null = null
    while (seen !== this.#work) {
      seen = this.#work
      await seen
    }
  }

  /** One service call ended: a rejected key, a 429 streak, or a success that ends them. */
  onCall(report: CallReport): void {
    if (report.status === 'ok') {
      this.#rateLimited.streak = 0
      // Only a call sent after the condition began shows it is over: an answer to one sent
      // before (a slow page) says nothing about the key now. Real time orders them: a
      // test's virtual clock does not move while a call is in flight.
      const sentAtMs = performance.now() - report.durationMs
      for (const kind of ['key-rejected', 'rate-limited', 'unreachable'] as const)
        if (sentAtMs >= (this.#raisedAtMs.get(kind) ?? -Infinity)) this.#resolve(kind)
      return
    }
    if (report.errorName === 'AuthError') {
      this.#raise('key-rejected', 'The service rejected the API key (HTTP 401)')
      return
    }
    if (report.errorName === 'RateLimitedError') {
      const now = this.#nowSec()
      if (this.#rateLimited.streak === 0) this.#rateLimited.firstSec = now
      this.#rateLimited.streak += 1
      const forSec = now - this.#rateLimited.firstSec
      if (this.#rateLimited.streak >= RATE_LIMITED_STREAK || forSec >= RATE_LIMITED_FOR_SEC)
        this.#raise(
          'rate-limited',
          'The service keeps answering 429 (too many requests), so calls wait and retry',
        )
    }
  }

  /** The rate shaper's view of the network. */
  onNetworkState(state: 'online' | 'offline'): void {
    if (state === 'offline') this.#raise('unreachable', 'The data service cannot be reached')
    else this.#resolve('unreachable')
  }

  /** A budget check before a call: a refusal stops syncing, 80% spent warns. */
  onSpending(check: SpendingCheck): void {
    const { day, month, dailyCredits, monthlyCredits } = check
    const warnings: string[] = []
    if (dailyCredits !== null && day >= dailyCredits * BUDGET_WARNING_SHARE)
      warnings.push(`80% of the daily budget of ${creditText(dailyCredits)} is spent`)
    if (monthlyCredits !== null && month >= monthlyCredits * BUDGET_WARNING_SHARE)
      warnings.push(`80% of the monthly budget of ${creditText(monthlyCredits)} is spent`)
    if (warnings.length > 0) this.#raise('budget-80', capitalise(warnings.join('; ')))
    else this.#resolve('budget-80')

    for (const period of ['daily', 'monthly'] as const) {
      const kind = period === 'daily' ? 'budget-100' : 'monthly-credits-spent'
      const limit = period === 'daily' ? dailyCredits : monthlyCredits
      const periodStartMs = period === 'daily' ? check.dayStartMs : check.monthStartMs
      if (check.refused === period && limit !== null) {
        this.#refusals.set(period, { limit, periodStartMs })
        this.#raise(kind, `The ${period} budget of ${creditText(limit)} is spent`)
        continue
      }
      const refusal = this.#refusals.get(period)
      const isOver =
        refusal === undefined
          ? limit === null || (period === 'daily' ? day : month) < limit
          : limit === null || limit > refusal.limit || periodStartMs !== refusal.periodStartMs
      if (isOver) {
        this.#refusals.delete(period)
        this.#resolve(kind)
      }
    }
  }

  /** A stream failed: a storage failure names a condition; others are the stream's own. */
  onStreamFailed(error: unknown): void {
    const kind = storageKindOf(error)
    if (kind !== null) this.#raise(kind, storageDetail(kind))
  }

  /** A wallet's pages were written: the storage works again. */
  onWalletWritten(): void {
    for (const kind of STORAGE_KINDS) this.#resolve(kind)
  }

  /**
   * What the edge keeps aside now, after a wallet's sync: raised once while anything is
   * (its detail following the counts, with no new alert), resolved when nothing is.
   */
  onKeptAside(counts: readonly KeptAsideCount[]): void {
    const kept = counts.filter((c) => c.count > 0)
    if (kept.length === 0) {
      this.#resolve('service-shape')
      return
    }
    const detail = keptAsideDetail(
      kept.map((c) => ({
        wallet: walletName({ address: c.walletAddress, label: c.walletLabel }),
        stream: c.stream,
        count: c.count,
      })),
    )
    this.#raise('service-shape', detail)
  }

  #nowSec(): number {
    return nowSec(this.#o.clock)
  }

  async #load(): Promise<void> {
    try {
      for (const condition of await this.#o.store.active())
        this.#known.set(condition.kind, condition)
    } catch {
      // An unreadable mirror: start with nothing known; raising will try to write again.
    }
  }

  #raise(kind: HealthKind, detail: string): void {
    this.#raisedAtMs.set(kind, performance.now())
    // An unwritten condition is written again at its next sign (the mirror may take it now).
    if (this.#known.get(kind)?.detail === detail && !this.#unwritten.has(kind)) return
    const sinceSec = this.#known.get(kind)?.sinceSec ?? this.#nowSec()
    this.#known.set(kind, { kind, sinceSec, detail })
    this.#queue(async () => {
      try {
        const change = await this.#o.store.raise(kind, detail, this.#nowSec(), raisedAlert)
        this.#unwritten.delete(kind)
        if (change?.alertId != null) this.#o.onAlert?.(change.alertId)
      } catch {
        this.#unwritten.set(kind, { kind, sinceSec, detail })
      }
    })
  }

  #resolve(kind: HealthKind): void {
    if (!this.#known.has(kind)) return
    this.#known.delete(kind)
    this.#unwritten.delete(kind)
    this.#queue(async () => {
      const change = await this.#o.store
        .resolve(kind, this.#nowSec(), resolvedAlert(this.#nowSec()))
        .catch(() => null) // Not written: the condition stays, resolved at the next success.
      if (change?.alertId != null) this.#o.onAlert?.(change.alertId)
    })
  }

  #queue(step: () => Promise<void>): void {
    this.#work = this.#work.then(step).then(() => this.#o.onChange?.())
  }
}

/** The health alert of a newly raised condition, to every channel. */
function raisedAlert(condition: HealthCondition, channels: readonly string[]): NewAlert {
  return {
    kind: 'health',
    ruleId: null,
    ruleName: null,
    healthKind: condition.kind,
    walletAddress: null,
    signature: null,
    firedAtSec: condition.sinceSec,
    text: healthLine(condition, condition.sinceSec),
    detail: { signatures: [], amounts: [], transactionKind: null },
    deliverAfterSec: condition.sinceSec,
    dedupeKey: `health:${condition.kind}:${condition.sinceSec}`,
    channels,
  }
}

/** One line that a condition ended, to the same channels (people want to know it recovered). */
function resolvedAlert(
  resolvedSec: number,
): (condition: HealthCondition, channels: readonly string[]) => NewAlert {
  return (condition, channels) => ({
    ...raisedAlert(condition, channels),
    healthKind: `${condition.kind}-resolved`,
    firedAtSec: resolvedSec,
    deliverAfterSec: resolvedSec,
    text: healthResolvedLine(condition, resolvedSec),
    dedupeKey: `health:${condition.kind}-resolved:${condition.sinceSec}`,
  })
}

/** Which storage condition a failure is, from the code describeStorageError kept, or null. */
export function storageKindOf(error: unknown): HealthKind | null {
  if (!(error instanceof StorageError)) return null
  const detailCode = (error.details as { code?: unknown } | undefined)?.code
  const code = typeof detailCode === 'string' ? detailCode : ''
  if (code.startsWith('SQLITE_FULL') || code === '53100' || code === 'ENOSPC') return 'disk-full'
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'database-locked'
  if (['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', '57P01', '57P03'].includes(code))
    return 'postgres-unreachable'
  return null
}

function storageDetail(kind: HealthKind): string {
  switch (kind) {
    case 'disk-full':
      return 'The disk holding the mirror is full'
    case 'database-locked':
      return 'Another process holds the mirror (the database is locked)'
    default:
      return 'The PostgreSQL server of the mirror cannot be reached'
  }
}

function creditText(credits: number): string {
  return `${credits.toLocaleString('en-US')} credits`
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
