import {
  budgetPeriodStarts,
  type CreditLedgerStore,
  type LedgerEntry,
} from '../db/stores/credit-ledger-store'

/** The user's credit limits; null means no limit for that period. */
export interface CreditBudget {
  dailyCredits: number | null
  monthlyCredits: number | null
}

/** Raised before a call that would take spending past a budget; the engine stops and says why. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError'
  constructor(
    readonly period: 'daily' | 'monthly',
    readonly spent: number,
    readonly limit: number,
    readonly nextCallCredits: number,
  ) {
    const when = period === 'daily' ? 'at 00:00 UTC' : 'on the 1st (UTC)'
    super(
      `The ${period} credit budget is reached: ${spent.toLocaleString('en-US')} of ${limit.toLocaleString('en-US')} credits used, and the next call costs ${nextCallCredits}. ` +
        `Sync stopped; raise the budget in Settings or wait until it resets ${when}.`,
    )
  }
}

/** One budget check before a call: what was spent, the budgets, and whether the call was refused. */
export interface SpendingCheck {
  day: number
  month: number
  dailyCredits: number | null
  monthlyCredits: number | null
  /** When the current UTC day and month began (a new period ends a refusal). */
  dayStartMs: number
  monthStartMs: number
  refused: 'daily' | 'monthly' | null
}

/**
 * Keeps the credit ledger and enforces the budgets. Every call first reserves its price
 * (so calls running in parallel cannot overshoot together), then records what it cost.
 *
 * The period's totals are read from the ledger once and then kept here, which is exact
 * because this meter is the ledger's only writer: only the process holding the data
 * folder's writer lock syncs (db/writer-lock.ts), and it runs one meter per mirror.
 * Re-reading the ledger before each call would not make two writers safe anyway: their
 * reservations live in memory, so both could pass the same check at once.
 */
export class CreditMeter {
  readonly #ledger: CreditLedgerStore
  readonly #budget: () => Promise<CreditBudget>
  readonly #nowMs: () => number
  #reserved = 0
  #period = { dayStartMs: -1, monthStartMs: -1, day: 0, month: 0 }
  /** Ledger reads and writes run one after another, so a refresh never counts a row twice. */
  #ledgerWork: Promise<void> = Promise.resolve()
  #writeError: unknown = null
  readonly #onChecked: ((check: SpendingCheck) => void) | undefined

  constructor(
    ledger: CreditLedgerStore,
    budget: () => Promise<CreditBudget>,
    nowMs: () => number = Date.now,
    /** Told of every budget check (health: the budget warning and the stop). */
    onChecked?: (check: SpendingCheck) => void,
  ) {
    this.#ledger = ledger
    this.#budget = budget
    this.#nowMs = nowMs
    this.#onChecked = onChecked
  }

  /** Credits spent in the current UTC day and month (from the ledger). */
  async spent(): Promise<{ day: number; month: number }> {
    // Within the period the totals here are exact already (see record): a call does not
    // wait for the rows of the calls before it to reach the ledger, which on a busy
    // writer would hold each page's fetch behind the last page's write.
    if (!this.#isPeriodCurrent()) await this.#queue(() => this.#refreshPeriod())
    return { day: this.#period.day, month: this.#period.month }
  }

  /** Reserves `credits` for a call about to start, or rejects with BudgetExceededError. */
  async reserve(credits: number): Promise<() => void> {
    const budget = await this.#budget()
    const { day, month } = await this.spent()
    // From here to the reservation nothing awaits: parallel calls see each other's share.
    const { dailyCredits, monthlyCredits } = budget
    const check = (refused: SpendingCheck['refused']): void =>
      this.#onChecked?.({
        day,
        month,
        dailyCredits,
        monthlyCredits,
        dayStartMs: this.#period.dayStartMs,
        monthStartMs: this.#period.monthStartMs,
        refused,
      })
    if (dailyCredits !== null && day + this.#reserved + credits > dailyCredits) {
      check('daily')
      throw new BudgetExceededError('daily', day, dailyCredits, credits)
    }
    if (monthlyCredits !== null && month + this.#reserved + credits > monthlyCredits) {
      check('monthly')
      throw new BudgetExceededError('monthly', month, monthlyCredits, credits)
    }
    check(null)
    this.#reserved += credits
    let released = false
    return () => {
      if (!released) this.#reserved -= credits
      released = true
    }
  }

  /**
   * Writes one call to the ledger. The service has already answered, so a failed write
   * does not fail the call: {@link idle} reports it.
   */
  record(entry: LedgerEntry): void {
    const count = (): void => {
      if (entry.atMs >= this.#period.dayStartMs) this.#period.day += entry.credits
      if (entry.atMs >= this.#period.monthStartMs) this.#period.month += entry.credits
    }
    const isCounted = this.#isPeriodCurrent()
    if (isCounted) count()
    void this.#queue(async () => {
      // Otherwise the period is brought up to date before the row exists: a refresh
      // re-reads the ledger and would count the new row twice. A refresh queued later
      // runs after this write and reads the row instead of this count.
      if (!isCounted) {
        await this.#refreshPeriod()
        count()
      }
      await this.#ledger.record(entry)
    }).catch((error: unknown) => {
      this.#writeError ??= error
    })
  }

  /** Resolves once every recorded call is in the ledger; rejects with a failed write's error. */
  async idle(): Promise<void> {
    await this.#ledgerWork
    const error = this.#writeError
    this.#writeError = null
    if (error !== null) throw error
  }

  /** Whether the totals here are of the day and month it is now (false before first use). */
  #isPeriodCurrent(): boolean {
    const { dayStartMs, monthStartMs } = budgetPeriodStarts(this.#nowMs())
    return dayStartMs === this.#period.dayStartMs && monthStartMs === this.#period.monthStartMs
  }

  async #refreshPeriod(): Promise<void> {
    if (this.#isPeriodCurrent()) return
    const { dayStartMs, monthStartMs } = budgetPeriodStarts(this.#nowMs())
    // A new period (or first use): re-read from the ledger, which other processes share.
    const day = await this.#ledger.spentSince(dayStartMs)
    const month = await this.#ledger.spentSince(monthStartMs)
    this.#period = { dayStartMs, monthStartMs, day, month }
  }

  #queue(work: () => Promise<void>): Promise<void> {
    const run = this.#ledgerWork.then(work)
    this.#ledgerWork = run.catch(() => {})
    return run
  }
}
