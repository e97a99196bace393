import { sql, type Compilable, type Kysely } from 'kysely'
import type { ExportKind } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { engineOf } from '../engine-of'
import type { Database } from '../schema'
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

/** The two statements of an export: how many source rows, and the rows themselves. */
export interface ExportStatements {
  count: Compilable<{ n: number }>
  rows: Compilable<unknown>
  /**
   * The rows leave their `symbol` column null for the reader to fill from the snapshot's
   * mint symbols ({@link mintSymbolOf}): a join per row was a third of SQLite's time for
   * a million balance changes, a lookup in a map of a few thousand mints costs nothing.
   */
  symbolsFromMints: boolean
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
): ExportStatements {
  switch (kind) {
    case 'balance-changes':
      return balanceChangeStatements(db, f)
    case 'transfers':
      return transferStatements(db, f)
    case 'balances':
      return balanceStatements(db, f)
    case 'balances-at':
      // Rebuilt per wallet from balance changes (or asked of the service): app/balances-at.ts.
      throw new InvalidInputError('Balances at a date are not read by one statement.')
  }
}

/** Wallets become ids first, so the per-wallet time indexes apply. */
function walletIdIn(db: Kysely<Database>, column: string, addresses: readonly string[]) {
  if (addresses.length === 0) return sql<boolean>`true`
  const ids = db.selectFrom('wallets').select('id').where('address', 'in', addresses)
  return sql<boolean>`${sql.ref(column)} in (${ids})`
}

function balanceChangeStatements(db: Kysely<Database>, f: ExportRowFilters): ExportStatements {
  // The view lists the transactions that have a matching change; the export writes exactly
  // those changes (a LUMN-incoming view exports LUMN inflows, not the SOL paid for them).
  const where = all([
    walletIdIn(db, 'bc.wallet_id', f.walletAddresses),
    withinDates(sql.ref('bc.block_time_sec'), f),
    transactionMatches('t', f),
    changeMatches('bc', f),
  ])
  const from = db
    .selectFrom('balance_changes as bc')
    .innerJoin('transactions as t', 't.id', 'bc.transaction_id')
    .where(where)
  // The sort holds only the order keys and row ids; the wide columns are joined after it,
  // in that order. Sorting whole rows made a 300 MB sorter for a million rows (spilled to
  // temporary files), twice the time of sorting ids and looking the rows up by them. The
  // materialized CTE is the outer loop (CROSS JOIN fixes the join order in SQLite), so the
  // rows come out in the order it was filled.
  // Undated changes first, on both engines (PostgreSQL puts nulls last by default).
  const exportOrder = sql`bc.block_time_sec asc nulls first, bc.slot, bc.transaction_id, bc.ordinal`
  const ordered = from.select('bc.id as changeId').orderBy(exportOrder)
  const rows = db
    .with(
      (cte) => cte('ordered').materialized(),
      () => ordered,
    )
    .selectFrom('ordered as o')
    .crossJoin('balance_changes as bc')
    .innerJoin('transactions as t', 't.id', 'bc.transaction_id')
    .innerJoin('wallets as w', 'w.id', 'bc.wallet_id')
    .whereRef('bc.id', '=', 'o.changeId')
    .select([
      'bc.transaction_id as transactionId',
      'bc.block_time_sec as blockTimeSec',
      'bc.slot as slot',
      't.signature as signature',
      'w.address as wallet',
      'w.label as walletLabel',
      'bc.mint as mint',
      sql<string | null>`null`.as('symbol'),
      'bc.amount_text as amountText',
      'bc.amount_raw as amountRaw',
      'bc.decimals as decimals',
      't.fee_text as feeText',
      't.fee_payer as feePayer',
      't.is_failed as isFailed',
    ])
  return {
    count: from.select((eb) => eb.fn.countAll<number>().as('n')),
    // PostgreSQL promises no order without ORDER BY (its joins may hash); it sorts again.
    rows: engineOf(db) === 'postgres' ? rows.orderBy(exportOrder) : rows,
    symbolsFromMints: true,
  }
}

function transferStatements(db: Kysely<Database>, f: ExportRowFilters): ExportStatements {
  const failed = f.isFailedOnly
    ? sql<boolean>`exists (select 1 from transactions as t where t.wallet_id = tr.wallet_id and t.signature = tr.signature and t.is_failed = 1)`
    : sql<boolean>`true`
  const where = all([
    walletIdIn(db, 'tr.wallet_id', f.walletAddresses),
    transferMatches('tr', f),
    failed,
  ])
  const from = db.selectFrom('transfers as tr').where(where)
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
