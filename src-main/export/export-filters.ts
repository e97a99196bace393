import type { DateBound, ExportFilters } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { ExportRowFilters } from '../db/queries/export-queries'

// An export request's filters in the mirror's terms: addresses, UTC seconds (both bounds
// inclusive), flags — the same row filters the History view uses.

const DAY_SEC = 86_400
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * UTC seconds of a date bound. A plain `to` date covers its whole UTC day, so
 * `from: '2026-10-01', to: '2026-10-31'` is all of October.
 *
 * @example
 * resolveDateBound('2026-11-01', 'from') // 1793491200
 * resolveDateBound('2026-11-01', 'to')   // 1793577599
 */
export function resolveDateBound(bound: DateBound, edge: 'from' | 'to'): number {
  if (typeof bound === 'number') return bound
  const text = bound.trim()
  if (PLAIN_DATE.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`) / 1000
    return edge === 'from' ? start : start + DAY_SEC - 1
  }
  // A date-time without an offset is read as UTC, never as the machine's local time.
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text)
  const ms = Date.parse(hasZone ? text : `${text.replace(' ', 'T')}Z`)
  if (Number.isNaN(ms)) throw new InvalidInputError(`Not a date: “${bound}”.`)
  return Math.floor(ms / 1000)
}

/** The filters of a parsed request in the mirror's terms; rejects `from` after `to`. */
export function resolveFilters(filters: ExportFilters): ExportRowFilters {
  const fromSec = filters.from === undefined ? null : resolveDateBound(filters.from, 'from')
  const toSec = filters.to === undefined ? null : resolveDateBound(filters.to, 'to')
  if (fromSec !== null && toSec !== null && fromSec > toSec) {
    throw new InvalidInputError('The date range ends before it starts.', { fromSec, toSec })
  }
  return {
    walletAddresses: [...new Set(filters.wallets)],
    fromSec,
    toSec,
    mints: [...new Set(filters.mints)],
    direction: filters.direction ?? null,
    isFailedOnly: filters.failedOnly,
    signaturePrefix: filters.signature,
  }
}
