import { sql, type Expression, type SqlBool } from 'kysely'
import type { HistoryFilters, TransferFilters } from '@shared/ipc/review-schemas'

/**
 * The filters of the History view and of the CSV export in the mirror's terms, written
 * once: both build their `where` from the helpers below, so a row the view shows is a row
 * the export writes.
 */
export interface RowFilters {
  /** Inclusive bounds on block time, UTC seconds. */
  fromSec: number | null
  toSec: number | null
  /**
   * Balance changes of one of these mints (any mint when empty)… The History view lists
   * the transactions that have such a change; the export writes those changes.
   */
  mints: readonly string[]
  /** …whose sign is this (any sign when null). */
  direction: 'in' | 'out' | null
  isFailedOnly: boolean
  /** A signature prefix ('' matches all). */
  signaturePrefix: string
}

/** The History view's filters as row filters. */
export function historyRowFilters(f: HistoryFilters): RowFilters {
  return {
    fromSec: f.fromSec,
    toSec: f.toSec,
    mints: f.mint === null ? [] : [f.mint],
    direction: f.direction === 'any' ? null : f.direction,
    isFailedOnly: f.isFailedOnly,
    signaturePrefix: f.signature,
  }
}

/** The Transfers view's filters as row filters (its counterparty filter aside). */
export function transferRowFilters(f: TransferFilters): RowFilters {
  return {
    fromSec: f.fromSec,
    toSec: f.toSec,
    mints: f.mint === null ? [] : [f.mint],
    direction: f.direction === 'any' ? null : f.direction,
    isFailedOnly: false,
    signaturePrefix: f.signature,
  }
}

// Base58 is ASCII below DEL: every signature starting with `p` sorts in [p, p + DEL).
const PREFIX_END = '\u007f'

/** `column` starts with `prefix` (a range, so the signature index applies). */
export function startsWith(column: Expression<unknown>, prefix: string): Expression<SqlBool> {
  return sql<SqlBool>`(${column} >= ${prefix} and ${column} < ${prefix + PREFIX_END})`
}

/** `time` lies within the filters' dates (true without dates). */
export function withinDates(time: Expression<unknown>, f: RowFilters): Expression<SqlBool> {
  const parts = [
    ...(f.fromSec === null ? [] : [sql<SqlBool>`${time} >= ${f.fromSec}`]),
    ...(f.toSec === null ? [] : [sql<SqlBool>`${time} <= ${f.toSec}`]),
  ]
  return all(parts)
}

/** A signed amount's sign matches the direction (true for any direction). */
export function hasDirection(
  amount: Expression<unknown>,
  direction: RowFilters['direction'],
): Expression<SqlBool> {
  if (direction === null) return sql<SqlBool>`true`
  return direction === 'in' ? sql<SqlBool>`${amount} > 0` : sql<SqlBool>`${amount} < 0`
}

/** `column` is one of `values`. */
export function isOneOf(
  column: Expression<unknown>,
  values: readonly string[],
): Expression<SqlBool> {
  return sql<SqlBool>`${column} in (${sql.join(values)})`
}

/** The balance change `c` (an alias) fits the mint and direction filters (true when neither is set). */
export function changeMatches(c: string, f: RowFilters): Expression<SqlBool> {
  return all([
    ...(f.mints.length === 0 ? [] : [isOneOf(sql.ref(`${c}.mint`), f.mints)]),
    ...(f.direction === null ? [] : [hasDirection(sql.ref(`${c}.amount`), f.direction)]),
  ])
}

/**
 * The transaction `t` (an alias) has a balance change matching the mint and direction
 * filters (true when neither is set): the History view lists such transactions. A
 * direction alone reads the transaction's own `has_change_in`/`has_change_out`, written
 * with it; with mints, the change that has the mint must also have the direction.
 */
export function hasMatchingChange(t: string, f: RowFilters): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = []
  if (f.direction !== null)
    parts.push(
      sql<SqlBool>`${sql.ref(`${t}.${f.direction === 'in' ? 'has_change_in' : 'has_change_out'}`)} = 1`,
    )
  if (f.mints.length > 0)
    parts.push(
      sql<SqlBool>`exists (select 1 from balance_changes as d where d.transaction_id = ${sql.ref(`${t}.id`)} and ${changeMatches('d', f)})`,
    )
  return all(parts)
}

/**
 * The transaction-level filters over a `transactions` alias: failed-only and signature.
 */
export function transactionMatches(t: string, f: RowFilters): Expression<SqlBool> {
  return all([
    ...(f.isFailedOnly ? [sql<SqlBool>`${sql.ref(`${t}.is_failed`)} = 1`] : []),
    ...(f.signaturePrefix === '' ? [] : [startsWith(sql.ref(`${t}.signature`), f.signaturePrefix)]),
  ])
}

/**
 * The filters over a `transfers` alias, for the Transfers view and the transfers export
 * alike: dates, mints, the transfer's own direction, the signature. (Failed-only needs the
 * transaction: the export adds it.)
 */
export function transferMatches(t: string, f: RowFilters): Expression<SqlBool> {
  return all([
    withinDates(sql.ref(`${t}.block_time_sec`), f),
    ...(f.mints.length === 0 ? [] : [isOneOf(sql.ref(`${t}.mint`), f.mints)]),
    ...(f.direction === null ? [] : [sql<SqlBool>`${sql.ref(`${t}.direction`)} = ${f.direction}`]),
    ...(f.signaturePrefix === '' ? [] : [startsWith(sql.ref(`${t}.signature`), f.signaturePrefix)]),
  ])
}

/** Conditions joined with `and` (true when there are none). */
export function all(parts: readonly Expression<SqlBool>[]): Expression<SqlBool> {
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`
}
