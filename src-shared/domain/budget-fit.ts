import { projectWatchCost, type WatchClocks, type WatchedWalletFootprint } from './watch-cost'
import { spanText } from './watch-bounds'

// Fit to budget: when watching at the person's cadence would spend more than what is left
// of the month's credits, every clock of watching is stretched by one factor, so that
// monitoring goes on, slower, to the end of the month instead of stopping mid-month.

const DAY_SEC = 86_400

/** The longest each clock may be stretched to (the cadence settings' own bounds). */
const LONGEST_SEC: WatchClocks = {
  checkEverySec: DAY_SEC,
  tokenAccountsEverySec: 7 * DAY_SEC,
  compressedEverySec: 7 * DAY_SEC,
  backstopEverySec: 30 * DAY_SEC,
}

/** A cadence stretched to last the month. */
export interface BudgetFit {
  clocks: WatchClocks
  /** How many times slower than the person's cadence (> 1). */
  factor: number
}

/**
 * The person's clocks stretched so that the projected spending until the month ends fits
 * `remainingCredits`, or null when it already fits. Syncs of changes are not slowed (a
 * change found is synced), so only the looks' share of the projection is stretched; where
 * even the slowest looks do not fit, every clock goes to its longest.
 *
 * @example
 * fitCadenceToBudget(wallets, cadence, { remainingCredits: 2_000, daysLeft: 10 })
 * // { clocks: { checkEverySec: 240, … }, factor: 4 }
 */
export function fitCadenceToBudget(
  wallets: readonly WatchedWalletFootprint[],
  clocks: WatchClocks,
  left: { remainingCredits: number; daysLeft: number },
): BudgetFit | null {
  const projection = projectWatchCost(wallets, clocks, { plan: 'off', monthlyBudget: null })
  const daysLeft = Math.max(left.daysLeft, 1 / 24)
  if (projection.perDay * daysLeft <= left.remainingCredits) return null
  const looksPerDay = projection.perDay - projection.changeSyncs
  const affordablePerDay = left.remainingCredits / daysLeft - projection.changeSyncs
  // Stretch up to a whole minute of the balance look, so the line reads in whole minutes.
  const rawFactor =
    affordablePerDay > 0 && looksPerDay > 0 ? looksPerDay / affordablePerDay : Infinity
  const checkEverySec = Math.min(
    LONGEST_SEC.checkEverySec,
    Math.ceil((clocks.checkEverySec * rawFactor) / 60) * 60,
  )
  const factor = checkEverySec / clocks.checkEverySec
  if (factor <= 1) return null
  const stretch = (key: keyof WatchClocks): number =>
    Math.min(LONGEST_SEC[key], Math.ceil(clocks[key] * factor))
  return {
    clocks: {
      checkEverySec,
      tokenAccountsEverySec: stretch('tokenAccountsEverySec'),
      compressedEverySec: stretch('compressedEverySec'),
      backstopEverySec: Math.max(checkEverySec, stretch('backstopEverySec')),
    },
    factor,
  }
}

/** "every 4 min", "every 45 s", "every 2 h". */
export function everyText(sec: number): string {
  return `every ${spanText(sec)}`
}

/** "Watching every 4 min instead of every 1 min to last the month." */
export function budgetFitLine(baseCheckEverySec: number, fittedCheckEverySec: number): string {
  return `Watching ${everyText(fittedCheckEverySec)} instead of ${everyText(baseCheckEverySec)} to last the month's credits.`
}
