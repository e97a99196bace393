import { AppError } from '@shared/ipc/ipc-errors'

// How deep a wallet's history goes, as typed after `watch add`, `sync` and `sync --deeper`:
// a number of transactions, a date, or all of it. Each parser names its option when the
// value is wrong, so a script's mistake says which flag to fix.

/** Most transactions a depth may name (DepthLimit's bound). */
const MAX_TRANSACTIONS = 10_000_000

/**
 * A parser of a whole number of transactions (1–10,000,000) for `option`.
 *
 * @example
 * transactionCount('--transactions')('2000') // 2000
 */
export function transactionCount(option: string): (text: string) => number {
  return (text) => {
    const n = Number(text)
    if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 1 || n > MAX_TRANSACTIONS)
      throw new AppError(`${option} must be a whole number from 1 to 10,000,000 (got “${text}”).`)
    return n
  }
}

/**
 * A parser of a UTC date (YYYY-MM-DD, or a full ISO time) into Unix seconds, for `option`.
 *
 * @example
 * utcDate('--since')('2025-01-31') // 1738281600
 */
export function utcDate(option: string): (text: string) => number {
  return (text) => {
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
    if (Number.isNaN(ms))
      throw new AppError(`${option} must be a date such as 2025-01-31 (got “${text}”).`)
    return Math.floor(ms / 1000)
  }
}

/** `--depth all | N`: all of the history, or the newest N transactions. */
export function parseDepth(text: string): number | 'all' {
  // Not null for all: commander turns a parser's null into an empty string.
  if (text.trim().toLowerCase() === 'all') return 'all'
  try {
    return transactionCount('--depth')(text)
  } catch {
    throw new AppError(
      `--depth must be “all” or a whole number of transactions from 1 to 10,000,000 (got “${text}”).`,
    )
  }
}
