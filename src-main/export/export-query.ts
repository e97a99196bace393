import type { DateBound, ExportFilters, ExportKind } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'

/** Filters in the mirror's terms: addresses, UTC seconds (both bounds inclusive), flags. */
export interface ResolvedFilters {
  walletAddresses: readonly string[]
  fromSec: number | null
  toSec: number | null
  mints: readonly string[]
  direction: 'in' | 'out' | null
  isFailedOnly: boolean
  signaturePrefix: string
}

/** A piece of SQL with its positional parameters, in order. */
export interface SqlFragment {
  sql: string
  params: (string | number)[]
}

/** The two statements of an export: how many source rows, and the rows themselves. */
export interface ExportQuery {
  countSql: string
  rowsSql: string
  params: (string | number)[]
}

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
export function resolveFilters(filters: ExportFilters): ResolvedFilters {
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

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ')
}

/** Joins conditions with `and`; an empty list is `1`. */
function conjunction(parts: SqlFragment[]): SqlFragment {
  return parts.length === 0
    ? { sql: '1', params: [] }
    : { sql: parts.map((p) => `(${p.sql})`).join(' and '), params: parts.flatMap((p) => p.params) }
}

/** Sorts after every base58 character: `prefix <= s < prefix + PREFIX_END` is a prefix match. */
const PREFIX_END = '\uffff'

/**
 * The History view's filters over `balance_changes bc` joined to `transactions t`, with
 * the view's meaning: wallet, dates, failed-only and signature select transactions, and
 * mints and direction select the transactions that have such a change (all of a matching
 * transaction's changes are kept). Wallets become ids first so the
 * `balance_changes_wallet_time` index applies.
 */
export function balanceChangeFilterSql(f: ResolvedFilters): SqlFragment {
  const parts: SqlFragment[] = []
  if (f.walletAddresses.length > 0) {
    parts.push({
      sql: `bc.wallet_id in (select id from wallets where address in (${placeholders(f.walletAddresses)}))`,
      params: [...f.walletAddresses],
    })
  }
  if (f.fromSec !== null) parts.push({ sql: 'bc.block_time_sec >= ?', params: [f.fromSec] })
  if (f.toSec !== null) parts.push({ sql: 'bc.block_time_sec <= ?', params: [f.toSec] })
  if (f.isFailedOnly) parts.push({ sql: 't.is_failed = 1', params: [] })
  if (f.signaturePrefix !== '') {
    parts.push({
      sql: 't.signature >= ? and t.signature < ?',
      params: [f.signaturePrefix, f.signaturePrefix + PREFIX_END],
    })
  }
  if (f.mints.length > 0 || f.direction !== null) {
    const mint = f.mints.length > 0 ? ` and d.mint in (${placeholders(f.mints)})` : ''
    const sign =
      f.direction === 'in' ? ' and d.amount > 0' : f.direction === 'out' ? ' and d.amount < 0' : ''
    parts.push({
      sql: `exists (select 1 from balance_changes d where d.transaction_id = bc.transaction_id${mint}${sign})`,
      params: [...f.mints],
    })
  }
  return conjunction(parts)
}

/** The filters over `transfers tr`; failed-only keeps transfers of failed transactions. */
export function transferFilterSql(f: ResolvedFilters): SqlFragment {
  const parts: SqlFragment[] = []
  if (f.walletAddresses.length > 0) {
    parts.push({
      sql: `tr.wallet_id in (select id from wallets where address in (${placeholders(f.walletAddresses)}))`,
      params: [...f.walletAddresses],
    })
  }
  if (f.fromSec !== null) parts.push({ sql: 'tr.block_time_sec >= ?', params: [f.fromSec] })
  if (f.toSec !== null) parts.push({ sql: 'tr.block_time_sec <= ?', params: [f.toSec] })
  if (f.mints.length > 0) {
    parts.push({ sql: `tr.mint in (${placeholders(f.mints)})`, params: [...f.mints] })
  }
  if (f.direction !== null) parts.push({ sql: 'tr.direction = ?', params: [f.direction] })
  if (f.signaturePrefix !== '') {
    parts.push({
      sql: 'tr.signature >= ? and tr.signature < ?',
      params: [f.signaturePrefix, f.signaturePrefix + PREFIX_END],
    })
  }
  if (f.isFailedOnly) {
    parts.push({
      sql: 'exists (select 1 from transactions t where t.wallet_id = tr.wallet_id and t.signature = tr.signature and t.is_failed = 1)',
      params: [],
    })
  }
  return conjunction(parts)
}

/**
 * Balances come from each wallet's latest snapshot (taken at or before `to` when given:
 * "balances as of"). Direction, `from` and failed-only do not apply to holdings.
 */
function balancesQuery(f: ResolvedFilters): ExportQuery {
  const asOf: SqlFragment =
    f.toSec === null
      ? { sql: '', params: [] }
      : { sql: 'and s2.taken_at_sec <= ?', params: [f.toSec] }
  const where: SqlFragment[] = []
  if (f.walletAddresses.length > 0) {
    where.push({
      sql: `w.address in (${placeholders(f.walletAddresses)})`,
      params: [...f.walletAddresses],
    })
  }
  if (f.mints.length > 0) {
    where.push({ sql: `i.mint in (${placeholders(f.mints)})`, params: [...f.mints] })
  }
  const filter = conjunction(where)
  const from = `
    from wallets w
    join balance_snapshots s on s.id = (
      select s2.id from balance_snapshots s2
      where s2.wallet_id = w.id ${asOf.sql}
      order by s2.taken_at_sec desc, s2.id desc limit 1)
    join balance_snapshot_items i on i.snapshot_id = s.id
    left join mints m on m.mint = i.mint
    where ${filter.sql}`
  return {
    countSql: `select count(*) as n ${from}`,
    rowsSql: `
      select s.taken_at_sec as takenAtSec, w.address as wallet, w.label as walletLabel,
        i.mint as mint, m.symbol as symbol, m.name as name, i.balance_text as balanceText,
        i.decimals as decimals, i.price_usd as priceUsd, i.usd_value as usdValue,
        i.token_program as tokenProgram
      ${from}
      order by w.position, w.id, i.usd_value desc, i.mint`,
    params: [...asOf.params, ...filter.params],
  }
}

/**
 * The count and row statements of an export. Rows come oldest first; the rows of one
 * transaction are adjacent and in the service's order, which the tax layouts rely on to
 * see a transaction whole.
 */
export function buildExportQuery(kind: ExportKind, f: ResolvedFilters): ExportQuery {
  switch (kind) {
    case 'balance-changes': {
      const where = balanceChangeFilterSql(f)
      const from = `
        from balance_changes bc
        join transactions t on t.id = bc.transaction_id
        where ${where.sql}`
      return {
        countSql: `select count(*) as n ${from}`,
        rowsSql: `
          select bc.transaction_id as transactionId, bc.block_time_sec as blockTimeSec,
            bc.slot as slot, t.signature as signature, w.address as wallet,
            w.label as walletLabel, bc.mint as mint, m.symbol as symbol,
            bc.amount_text as amountText, bc.amount_raw as amountRaw, bc.decimals as decimals,
            t.fee_text as feeText, t.fee_payer as feePayer, t.is_failed as isFailed
          from balance_changes bc
          join transactions t on t.id = bc.transaction_id
          join wallets w on w.id = bc.wallet_id
          left join mints m on m.mint = bc.mint
          where ${where.sql}
          order by bc.block_time_sec, bc.slot, bc.transaction_id, bc.ordinal`,
        params: where.params,
      }
    }
    case 'transfers': {
      const where = transferFilterSql(f)
      return {
        countSql: `select count(*) as n from transfers tr where ${where.sql}`,
        rowsSql: `
          select tr.block_time_sec as blockTimeSec, w.address as wallet, w.label as walletLabel,
            tr.signature as signature, tr.direction as direction, tr.counterparty as counterparty,
            tr.mint as mint, coalesce(tr.symbol, m.symbol) as symbol, tr.amount_text as amountText,
            tr.amount_raw as amountRaw, tr.decimals as decimals
          from transfers tr
          join wallets w on w.id = tr.wallet_id
          left join mints m on m.mint = tr.mint
          where ${where.sql}
          order by tr.block_time_sec, tr.signature, tr.wallet_id, tr.id`,
        params: where.params,
      }
    }
    case 'balances':
      return balancesQuery(f)
  }
}
