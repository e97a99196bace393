import type BetterSqlite3 from 'better-sqlite3'
import {
  budgetPeriodStarts,
  creditsSpentSince,
  prepareLedgerInsert,
  type LedgerEntry,
} from '../db/queries/credit-ledger'

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

/**
 * Keeps the credit ledger and enforces the budgets. Every call first reserves its price
 * (so calls running in parallel cannot overshoot together), then records what it cost.
 */
export class CreditMeter {
  readonly #insert: (entry: LedgerEntry) => void
  readonly #sqlite: BetterSqlite3.Database
  readonly #budget: () => CreditBudget
  readonly #nowMs: () => number
  #reserved = 0
  #period = { dayStartMs: -1, monthStartMs: -1, day: 0, month: 0 }

  constructor(
    sqlite: BetterSqlite3.Database,
    budget: () => CreditBudget,
    nowMs: () => number = Date.now,
  ) {
    this.#sqlite = sqlite
    this.#insert = prepareLedgerInsert(sqlite)
    this.#budget = budget
    this.#nowMs = nowMs
  }

  /** Credits spent in the current UTC day and month (from the ledger). */
  spent(): { day: number; month: number } {
    const { dayStartMs, monthStartMs } = budgetPeriodStarts(this.#nowMs())
    if (dayStartMs !== this.#period.dayStartMs || monthStartMs !== this.#period.monthStartMs) {
      // A new period (or first use): re-read from the ledger, which other processes share.
      this.#period = {
        dayStartMs,
        monthStartMs,
        day: creditsSpentSince(this.#sqlite, dayStartMs),
        month: creditsSpentSince(this.#sqlite, monthStartMs),
      }
    }
    return { day: this.#period.day, month: this.#period.month }
  }

  /** Reserves `credits` for a call about to start, or throws BudgetExceededError. */
  reserve(credits: number): () => void {
    const { day, month } = this.spent()
    const { dailyCredits, monthlyCredits } = this.#budget()
    if (dailyCredits !== null && day + this.#reserved + credits > dailyCredits) {
      throw new BudgetExceededError('daily', day, dailyCredits, credits)
    }
    if (monthlyCredits !== null && month + this.#reserved + credits > monthlyCredits) {
      throw new BudgetExceededError('monthly', month, monthlyCredits, credits)
    }
    this.#reserved += credits
    let released = false
    return () => {
      if (!released) this.#reserved -= credits
      released = true
    }
  }

  /** Writes one call to the ledger. */
  record(entry: LedgerEntry): void {
    // Bring the period up to date before the row exists: a refresh re-reads the ledger,
    // and would count the new row twice (first use, or a call answering after 00:00 UTC).
    this.spent()
    this.#insert(entry)
    if (entry.atMs >= this.#period.dayStartMs) this.#period.day += entry.credits
    if (entry.atMs >= this.#period.monthStartMs) this.#period.month += entry.credits
  }
}
