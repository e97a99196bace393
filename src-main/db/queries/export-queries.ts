import { sql, type Compilable, type Kysely } from 'kysely'
import type { ExportKind } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { engineOf } from '../engine-of'
import type { Database } from '../schema'
import { exportWalletsStatement, mintSymbolsStatement } from './export-lookups'
import {
  all,
  changeMatches,
  isOneOf,
  transactionMatches,
  transferMatches,
  withinDates,
  type RowFilters,
} from './row-filters'

/** An export's filters: the History view's row filters over a set of wallets (all when empty). */
export interface ExportRowFilters extends RowFilters {
  walletAddresses: readonly string[]
}

/** A compiled statement as plain data (it crosses to a worker thread). */
export interface PlainStatement {
  sql: string
  parameters: unknown[]
}

/**
 * What one read of export rows runs, in one snapshot: the count, the mint symbols, the
 * wallets, the rows.
 */
export interface PlainExportStatements {
  count: PlainStatement
  symbols: PlainStatement
  wallets: PlainStatement
  rows: PlainStatement
  /** The rows' `symbol` is filled from the mint symbols (see ExportStatements). */
  symbolsFromMints: boolean
  /** The rows' `wallet` and `walletLabel` are filled from the wallets (see ExportStatements). */
  walletsFromIds: boolean
}

/**
 * One time range of an export split into parts (its rows are the export's rows in that
 * range, in the same order): block times at least `fromSec` (when not null) and below
 * `belowSec` (when not null). Undated rows sort first, so they belong to the first range.
 */
export interface ExportTimeRange {
  fromSec: number | null
  belowSec: number | null
}

/** The two statements of an export: how many source rows, and the rows themselves. */
export interface ExportStatements {
  count: Compilable<{ n: number }>
  rows: Compilable<unknown>
  /**
   * The rows leave their `symbol` column null for the reader to fill from the snapshot's
   * mint symbols (readExportLookups): a join per row was a third of SQLite's time for
   * a million balance changes, a lookup in a map of a few thousand mints costs nothing.
   */
  symbolsFromMints: boolean
  /**
   * The rows carry `walletId` and leave `wallet` and `walletLabel` for the reader to fill
   * from the snapshot's wallets (readExportLookups): two strings fewer per row to convert,
   * most of a tenth of SQLite's reading time for a million balance changes.
   */
  walletsFromIds: boolean
}

/**
 * The count and row statements of an export, built from the same filter helpers as the
 * History view. Rows come oldest first; the rows of one transaction are adjacent and in
 * the service's order, which the tax layouts rely on to see a transaction whole.
 *
 * @example
 * const { count, rows } = exportStatements(db, 'transfers', filters)
 * const { sql, parameters } = rows.compile()
 */
export function exportStatements(
  db: Kysely<Database>,
  kind: ExportKind,
  f: ExportRowFilters,
  range?: ExportTimeRange,
): ExportStatements {
  switch (kind) {
    case 'balance-changes':
      return balanceChangeStatements(db, f, range)
    case 'transfers':
      return transferStatements(db, f, range)
    case 'balances':
      return balanceStatements(db, f)
    case 'balances-at':
      // Rebuilt per wallet from balance changes (or asked of the service): app/balances-at.ts.
      throw new InvalidInputError('Balances at a date are not read by one statement.')
  }
}

/**
 * What one read of an export runs, compiled to plain SQL and parameters for the engine of
 * `db`: its count, the mint symbols and its rows, within `range` when given.
 *
 * @example
 * const { rows } = compileExportStatements(db, 'transfers', filters)
 * sqlite.prepare(rows.sql).iterate(...rows.parameters)
 */
export function compileExportStatements(
  db: Kysely<Database>,
  kind: ExportKind,
  filters: ExportRowFilters,
  range?: ExportTimeRange,
): PlainExportStatements {
  const statements = exportStatements(db, kind, filters, range)
  const plain = (statement: Compilable<unknown>): PlainStatement => {
    const { sql: text, parameters } = statement.compile()
    return { sql: text, parameters: [...parameters] }
  }
  return {
    count: plain(statements.count),
    symbols: plain(mintSymbolsStatement(db)),
    wallets: plain(exportWalletsStatement(db)),
    rows: plain(statements.rows),
    symbolsFromMints: statements.symbolsFromMints,
    walletsFromIds: statements.walletsFromIds,
  }
}

/** Wallets become ids first, so the per-wallet time indexes apply. */
function walletIdIn(db: Kysely<Database>, column: string, addresses: readonly string[]) {
  if (addresses.length === 0) return sql<boolean>`true`
  const ids = db.selectFrom('wallets').select('id').where('address', 'in', addresses)
  return sql<boolean>`${sql.ref(column)} in (${ids})`
}

/**
 * The rows of a time range: undated rows are in the range that starts nowhere. A range is
 * one part of an export, a large share of the rows it reads: the unary `+` keeps it off the
 * per-wallet time indexes, which SQLite's planner, once it had statistics, skip-scanned
 * wallet by wallet for a whole part (a 1M-row export's parts took twice as long as reading
 * the table in order, their counts eight times).
 */
function inRange(time: string, range: ExportTimeRange | undefined) {
  if (range === undefined) return sql<boolean>`true`
  const column = sql`+${sql.ref(time)}`
  const from =
    range.fromSec === null ? sql<boolean>`true` : sql<boolean>`${column} >= ${range.fromSec}`
  const below =
    range.belowSec === null
      ? sql<boolean>`true`
      : range.fromSec === null
        ? sql<boolean>`(${column} < ${range.belowSec} or ${column} is null)`
        : sql<boolean>`${column} < ${range.belowSec}`
  return all([from, below])
}

/** The balance changes an export of these filters reads, before any order. */
function balanceChangesFrom(db: Kysely<Database>, f: ExportRowFilters, range?: ExportTimeRange) {
  // The view lists the transactions that have a matching change; the export writes exactly
  // those changes (a LUMN-incoming view exports LUMN inflows, not the SOL paid for them).
  const where = all([
    walletIdIn(db, 'bc.wallet_id', f.walletAddresses),
    withinDates(sql.ref('bc.block_time_sec'), f),
    transactionMatches('t', f),
    changeMatches('bc', f),
    inRange('bc.block_time_sec', range),
  ])
  // The changes lead (CROSS JOIN fixes SQLite's join order): every filter but failed-only
  // and the signature is on them, and read in table order they are one pass over the file.
  // Led by the transactions' feed index instead, SQLite looked each change up by its
  // transaction: a third slower for the rows, three times for the count.
  return db
    .selectFrom('balance_changes as bc')
    .crossJoin('transactions as t')
    .whereRef('t.id', '=', 'bc.transaction_id')
    .where(where)
}

function balanceChangeStatements(
  db: Kysely<Database>,
  f: ExportRowFilters,
  range?: ExportTimeRange,
): ExportStatements {
  const from = balanceChangesFrom(db, f, range)
  // SQLite: the sort holds only the order keys and row ids; the wide columns are joined
  // after it, in that order. Sorting whole rows made a 300 MB sorter for a million rows
  // (spilled to temporary files), twice the time of sorting ids and looking the rows up by
  // them. The materialized CTE is the outer loop (CROSS JOIN fixes the join order), so the
  // rows come out in the order it was filled. PostgreSQL hashes those joins and so sorts
  // the joined rows again at the end (it promises no order without ORDER BY): there the
  // rows are joined and sorted once, which took a sixth less time than both sorts.
  // Undated changes first, on both engines (PostgreSQL puts nulls last by default).
  const exportOrder = sql`bc.block_time_sec asc nulls first, bc.slot, bc.transaction_id, bc.ordinal`
  const columns = [
    'bc.transaction_id as transactionId',
    'bc.block_time_sec as blockTimeSec',
    'bc.slot as slot',
    't.signature as signature',
    'bc.wallet_id as walletId',
    'bc.mint as mint',
    sql<string | null>`null`.as('symbol'),
    'bc.amount_text as amountText',
    'bc.amount_raw as amountRaw',
    'bc.decimals as decimals',
    't.fee_text as feeText',
    't.fee_payer as feePayer',
    't.is_failed as isFailed',
  ] as const
  const ordered = from.select('bc.id as changeId').orderBy(exportOrder)
  const rows =
    engineOf(db) === 'postgres'
      ? from.select([...columns]).orderBy(exportOrder)
      : db
          .with(
            (cte) => cte('ordered').materialized(),
            () => ordered,
          )
          .selectFrom('ordered as o')
          .crossJoin('balance_changes as bc')
          .innerJoin('transactions as t', 't.id', 'bc.transaction_id')
          .whereRef('bc.id', '=', 'o.changeId')
          .select([...columns])
  return {
    count: from.select((eb) => eb.fn.countAll<number>().as('n')),
    rows,
    symbolsFromMints: true,
    walletsFromIds: true,
  }
}

/** The transfers an export of these filters reads, before any order. */
function transfersFrom(db: Kysely<Database>, f: ExportRowFilters, range?: ExportTimeRange) {
  const failed = f.isFailedOnly
    ? sql<boolean>`exists (select 1 from transactions as t where t.wallet_id = tr.wallet_id and t.signature = tr.signature and t.is_failed = 1)`
    : sql<boolean>`true`
  const where = all([
    walletIdIn(db, 'tr.wallet_id', f.walletAddresses),
    transferMatches('tr', f),
    failed,
    inRange('tr.block_time_sec', range),
  ])
  return db.selectFrom('transfers as tr').where(where)
}

function transferStatements(
  db: Kysely<Database>,
  f: ExportRowFilters,
  range?: ExportTimeRange,
): ExportStatements {
  const from = transfersFrom(db, f, range)
  return {
    count: from.select((eb) => eb.fn.countAll<number>().as('n')),
    rows: from
      .innerJoin('wallets as w', 'w.id', 'tr.wallet_id')
      .leftJoin('mints as m', 'm.mint', 'tr.mint')
      .select((eb) => [
        'tr.block_time_sec as blockTimeSec',
        'w.address as wallet',
        'w.label as walletLabel',
        'tr.signature as signature',
        'tr.direction as direction',
        'tr.counterparty as counterparty',
        'tr.mint as mint',
        eb.fn.coalesce('tr.symbol', 'm.symbol').as('symbol'),
        'tr.amount_text as amountText',
        'tr.amount_raw as amountRaw',
        'tr.decimals as decimals',
      ])
      .orderBy('tr.block_time_sec')
      .orderBy('tr.signature')
      .orderBy('tr.wallet_id')
      .orderBy('tr.id'),
    symbolsFromMints: false,
    walletsFromIds: false,
  }
}

/**
 * Where an export's rows lie in time, for splitting it into parts of about equal size: the
 * ids its rows can have (the table's smallest and largest), and the block times of the rows
 * among some of those ids. Null for a kind that is not split (current balances: a row per
 * holding, never many).
 *
 * @example
 * const sample = exportTimeSample(db, 'balance-changes', filters)
 * const { lo, hi } = (await sample.idSpan.execute())[0]
 * const times = await sample.timesOf([lo, (lo + hi) / 2, hi]).execute()
 */
export function exportTimeSample(
  db: Kysely<Database>,
  kind: ExportKind,
  f: ExportRowFilters,
): {
  idSpan: Compilable<{ lo: number | null; hi: number | null }>
  timesOf(ids: readonly number[]): Compilable<{ t: number | null }>
} | null {
  switch (kind) {
    case 'balance-changes':
      return {
        idSpan: db
          .selectFrom('balance_changes')
          .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')]),
        timesOf: (ids) =>
          balanceChangesFrom(db, f)
            .where('bc.id', 'in', [...ids])
            .select('bc.block_time_sec as t'),
      }
    case 'transfers':
      return {
        idSpan: db
          .selectFrom('transfers')
          .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')]),
        timesOf: (ids) =>
          transfersFrom(db, f)
            .where('tr.id', 'in', [...ids])
            .select('tr.block_time_sec as t'),
      }
    case 'balances':
    case 'balances-at':
      return null
  }
}

/**
 * Balances come from each wallet's latest snapshot (taken at or before `to` when given:
 * "balances as of"): its token holdings, then its NFTs (one each, unpriced). Direction,
 * `from` and failed-only do not apply to holdings.
 */
function balanceStatements(db: Kysely<Database>, f: ExportRowFilters): ExportStatements {
  const asOf = f.toSec === null ? sql<boolean>`true` : sql<boolean>`s2.taken_at_sec <= ${f.toSec}`
  const latest = sql<number>`(select s2.id from balance_snapshots as s2 where s2.wallet_id = w.id and ${asOf} order by s2.taken_at_sec desc, s2.id desc limit 1)`
  const wallets =
    f.walletAddresses.length === 0
      ? sql<boolean>`true`
      : isOneOf(sql.ref('w.address'), f.walletAddresses)
  const ofMints = (column: string) =>
    f.mints.length === 0 ? sql<boolean>`true` : isOneOf(sql.ref(column), f.mints)
  const snapshots = db
    .selectFrom('wallets as w')
    .innerJoin('balance_snapshots as s', (join) => join.on(sql<boolean>`s.id = ${latest}`))
  const tokens = snapshots
    .innerJoin('balance_snapshot_items as i', 'i.snapshot_id', 's.id')
    .leftJoin('mints as m', 'm.mint', 'i.mint')
    .where(all([wallets, ofMints('i.mint')]))
    .select([
      'w.position as walletPosition',
      'w.id as walletId',
      's.taken_at_sec as takenAtSec',
      'w.address as wallet',
      'w.label as walletLabel',
      'i.mint as mint',
      'm.symbol as symbol',
      'm.name as name',
      'i.balance_text as balanceText',
      'i.decimals as decimals',
      sql<number | null>`i.price_usd`.as('priceUsd'),
      sql<number | null>`i.usd_value`.as('usdValue'),
      'i.token_program as tokenProgram',
      sql<number>`0`.as('isNft'),
      sql<number>`0`.as('isCompressed'),
    ])
  const nfts = snapshots
    .innerJoin('balance_snapshot_nfts as n', 'n.snapshot_id', 's.id')
    .leftJoin('mints as m', 'm.mint', 'n.mint')
    .where(all([wallets, ofMints('n.mint')]))
    .select([
      'w.position as walletPosition',
      'w.id as walletId',
      's.taken_at_sec as takenAtSec',
      'w.address as wallet',
      'w.label as walletLabel',
      'n.mint as mint',
      'm.symbol as symbol',
      'n.name as name',
      sql<string>`'1'`.as('balanceText'),
      sql<number>`0`.as('decimals'),
      sql<number | null>`null`.as('priceUsd'),
      sql<number | null>`null`.as('usdValue'),
      sql<string>`coalesce(m.token_program, '')`.as('tokenProgram'),
      sql<number>`1`.as('isNft'),
      'n.is_compressed as isCompressed',
    ])
  const holdings = db.selectFrom(tokens.unionAll(nfts).as('b'))
  return {
    count: holdings.select((eb) => eb.fn.countAll<number>().as('n')),
    rows: holdings
      .selectAll()
      .orderBy('b.walletPosition')
      .orderBy('b.walletId')
      .orderBy('b.isNft')
      .orderBy('b.usdValue', 'desc')
      .orderBy('b.mint'),
    symbolsFromMints: false,
    walletsFromIds: false,
  }
}

/** How many source rows an export of these filters reads now, on either engine. */
export async function countExportRows(
  db: Kysely<Database>,
  kind: ExportKind,
  filters: ExportRowFilters,
): Promise<number> {
  const { rows } = await db.executeQuery(exportStatements(db, kind, filters).count.compile())
  return Number((rows[0] as { n?: unknown } | undefined)?.n ?? 0)
}
