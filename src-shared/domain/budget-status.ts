import { z } from 'zod'

// The credit budgets with what is spent against them and where the month is heading:
// `heliograph budget` and `credits:budget` read it the same way.

const DAY_MS = 86_400_000

/** The budgets, the spending, and the month's projection at the watching cadence. */
export const BudgetStatus = z.object({
  /** Credits a UTC day may spend; null: no daily budget. */
  dailyBudget: z.number().int().nullable(),
  /** Credits a UTC month may spend; null: no monthly budget. */
  monthlyBudget: z.number().int().nullable(),
  todayCredits: z.number(),
  monthCredits: z.number(),
  projection: z.object({
    /** The month's credits at its end: spent so far, and watching's rate until then. */
    monthCredits: z.number(),
    /** What watching the watchlist at the saved cadence spends a day (0 while it is off). */
    watchingPerDay: z.number(),
    /** Days left in the UTC month, with the fraction of today (two decimals). */
    daysLeft: z.number(),
    /** The month's last day, YYYY-MM-DD (UTC). */
    monthEnd: z.string(),
  }),
})
export type BudgetStatus = z.infer<typeof BudgetStatus>

/**
 * The month's projection: what is spent, and `perDay` for the rest of the UTC month.
 *
 * @example
 * projectMonth(12_000, 1_000, Date.parse('2026-11-28T12:00:00Z'))
 * // { monthCredits: 14_500, watchingPerDay: 1_000, daysLeft: 2.5, monthEnd: '2026-11-30' }
 */
export function projectMonth(
  monthSpent: number,
  perDay: number,
  nowMs: number,
): BudgetStatus['projection'] {
  const now = new Date(nowMs)
  const nextMonthMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)
  const daysLeft = (nextMonthMs - nowMs) / DAY_MS
  return {
    monthCredits: Math.round(monthSpent + perDay * daysLeft),
    watchingPerDay: perDay,
    daysLeft: Math.round(daysLeft * 100) / 100,
    monthEnd: new Date(nextMonthMs - DAY_MS).toISOString().slice(0, 10),
  }
}
