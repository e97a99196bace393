import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type {
  HistoryChange,
  HistoryCursor,
  HistoryFilters,
  HistoryPage,
  HistoryRow,
  MintOption,
  RowCount,
  SortOrder,
} from '@shared/ipc/review-schemas'
import type { Database } from '../schema'
import { addressNameOf } from './address-names'
import { SERVICE_SAID_COLUMNS, serviceSaidOf } from './service-said-columns'
import {
  hasDirection,
  hasMatchingChange,
  historyRowFilters,
  transactionMatches,
  withinDates,
  type RowFilters,
} from './row-filters'

/** What `fetchHistoryPage` needs besides the wallet. */
export interface HistoryQuery {
  order: SortOrder
  filters: HistoryFilters
  cursor: HistoryCursor | null
  limit: number
}

/**
 * A page of a wallet's history in keyset order (block time, slot, signature), newest or
 * oldest first, filtered in SQLite. Rows without a block time sort below every dated row,
 * as SQLite orders NULL; they are read in a second pass so both passes stay on an index.
 *
 * @example
 * const page = await fetchHistoryPage(db, walletId, { order: 'newest', filters, cursor: null, limit: 100 })
 * const next = await fetchHistoryPage(db, walletId, { ...query, cursor: page.nextCursor })
 */
export async function fetchHistoryPage(
  db: Kysely<Database>,
  walletId: number,
  query: HistoryQuery,
): Promise<HistoryPage> {
  const want = query.limit + 1
  const found: TxRow[] = []
  for (const pass of passesFor(query)) {
    if (found.length >= want) break
    found.push(...(await selectTransactions(db, walletId, query, pass, want - found.length)))
  }
  const hasMore = found.length > query.limit
  const page = found.slice(0, query.limit)
  const changes = await selectChanges(
    db,
    page.map((r) => r.id),
  )
  const rows: HistoryRow[] = page.map((r) => ({
    signature: r.signature,
    slot: r.slot,
    blockTimeSec: r.block_time_sec,
    fee: r.fee,
    feeText: r.fee_text,
    feePayer: r.fee_payer,
    feePayerName: r.fee_payer_name,
    isFailed: r.is_failed === 1,
    error: r.error,
    changes: changes.get(r.id) ?? [],
    kind: r.kind ?? 'UNKNOWN',
    said: serviceSaidOf(r),
  }))
  const last = page.at(-1)
  return {
    rows,
    nextCursor:
      hasMore && last
        ? { blockTimeSec: last.block_time_sec, slot: last.slot, signature: last.signature }
        : null,
  }
}

/**
 * How many transactions match the filters, counting at most `cap` so that a wallet with
 * a million rows still answers at once.
 */
export async function countHistory(
  db: Kysely<Database>,
  walletId: number,
  filters: HistoryFilters,
  cap = 10_000,
): Promise<RowCount> {
  const query = { order: 'newest', filters, cursor: null, limit: cap } as const
  let count = 0
  for (const pass of passesFor(query)) {
    const matching = isChangeCount(filters)
      ? changesOfMint(db, walletId, filters, pass)
      : baseQuery(db, walletId, filters, pass, 'newest')
    const inner = matching.select(sql<number>`1`.as('one')).limit(cap + 1 - count)
    const row = await db
      .selectFrom(inner.as('matches'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    count += Number(row.n)
    if (count > cap) break
  }
  return { count: Math.min(count, cap), isCapped: count > cap }
}

/**
 * Whether the count is of a mint's balance changes that no filter of their transactions
 * narrows (failed only, a signature): those are counted on the changes' index alone,
 * where joined to their transactions, ten thousand of them were looked up to be counted.
 */
function isChangeCount(filters: HistoryFilters): boolean {
  return filters.mint !== null && filters.signature === '' && !filters.isFailedOnly
}

/** The wallet's balance changes of the filter's mint in one pass, by their own columns (History's walk of a mint joins their transactions). */
function changesOfMint(
  db: Kysely<Database>,
  walletId: number,
  filters: HistoryFilters,
  pass: Pass,
) {
  const f = historyRowFilters(filters)
  return db
    .selectFrom('balance_changes as bc')
    .where('bc.wallet_id', '=', walletId)
    .where('bc.mint', '=', filters.mint as string)
    .where(hasDirection(sql.ref('bc.amount'), f.direction))
    .where(withinPass(sql.ref('bc.block_time_sec'), f, pass))
}

/** The pass's rows by their block time `time`: undated ones, or dated ones within the dates. */
function withinPass(time: Expression<unknown>, f: RowFilters, pass: Pass): Expression<SqlBool> {
  if (pass.isUndated) return sql<SqlBool>`${time} is null`
  // `is not null` keeps the dated pass from also returning undated rows (a keyset bound
  // already does).
  if (pass.after !== null) return withinDates(time, f)
  return sql<SqlBool>`(${withinDates(time, f)} and ${time} is not null)`
}

/** The mints that occur in a wallet's balance changes, for the mint filter (by symbol). */
export async function listHistoryMints(
  db: Kysely<Database>,
  walletId: number,
): Promise<MintOption[]> {
  // One index seek per distinct mint (a hand-made skip-scan over (wallet_id, mint, …)):
  // GROUP BY would read every balance change of the wallet.
  const { rows } = await sql<MintOption>`
    with recursive seen(mint) as (
      select (select min(mint) from balance_changes where wallet_id = ${walletId})
      union all
      select (select min(mint) from balance_changes where wallet_id = ${walletId} and mint > seen.mint)
      from seen where seen.mint is not null
    )
    select seen.mint as mint, m.symbol as symbol, m.name as name
    from seen left join mints as m on m.mint = seen.mint
    where seen.mint is not null`.execute(db)
  return rows.sort((a, b) =>
    (a.symbol ?? a.mint).localeCompare(b.symbol ?? b.mint, 'en', { sensitivity: 'base' }),
  )
}

interface TxRow {
  id: number
  signature: string
  slot: number
  block_time_sec: number | null
  fee: number
  fee_text: string
  fee_payer: string
  fee_payer_name: string | null
  error: string | null
  is_failed: number
  kind: string | null
  source: string | null
  description: string | null
  nft_event_json: string | null
}

/** One pass of a page: dated rows, or rows without a block time; with its keyset bound. */
interface Pass {
  isUndated: boolean
  after: HistoryCursor | null
}

function passesFor(query: Pick<HistoryQuery, 'order' | 'filters' | 'cursor'>): Pass[] {
  const { order, filters, cursor } = query
  // A date range never matches an undated row.
  const canBeUndated = filters.fromSec === null && filters.toSec === null
  const dated: Pass = { isUndated: false, after: cursor?.blockTimeSec == null ? null : cursor }
  const undated: Pass = { isUndated: true, after: cursor?.blockTimeSec === null ? cursor : null }
  const cursorIsUndated = cursor !== null && cursor.blockTimeSec === null
  if (order === 'newest') {
    // Dated rows first, then undated ones (NULL sorts lowest).
    const passes: Pass[] = cursorIsUndated ? [] : [dated]
    if (canBeUndated) passes.push(undated)
    return passes
  }
  const passes: Pass[] = []
  if (canBeUndated && (cursor === null || cursorIsUndated)) passes.push(undated)
  passes.push(cursorIsUndated ? { isUndated: false, after: null } : dated)
  return passes
}

/** The filtered rows of one pass, without columns yet. */
function baseQuery(
  db: Kysely<Database>,
  walletId: number,
  filters: HistoryFilters,
  pass: Pass,
  order: SortOrder,
) {
  const { time, slot, isMintDriven } = sortColumns(filters)
  const f = historyRowFilters(filters)
  const q = isMintDriven
    ? changesOfMint(db, walletId, filters, pass).innerJoin(
        'transactions as t',
        't.id',
        'bc.transaction_id',
      )
    : db
        .selectFrom('transactions as t')
        .where('t.wallet_id', '=', walletId)
        .where(hasMatchingChange('t', f))
        .where(withinPass(time, f, pass))
  return q
    .where(transactionMatches('t', f))
    .where(keysetBound(pass, order, time, slot, isMintDriven))
}

/**
 * The columns the walk sorts on. With a mint filter the walk is driven by the (wallet,
 * mint, time, slot) index of balance changes, so a rare mint costs as little as a common
 * one; otherwise by the (wallet, time, slot, signature) index of transactions (or its
 * partial twin for failed ones). A signature search instead narrows by the (wallet,
 * signature) index: the unary `+` keeps SQLite from walking time for it.
 */
function sortColumns(filters: HistoryFilters): {
  time: Expression<unknown>
  slot: Expression<unknown>
  isMintDriven: boolean
} {
  if (filters.signature !== '') {
    return { time: sql`+t.block_time_sec`, slot: sql`+t.slot`, isMintDriven: false }
  }
  if (filters.mint !== null) {
    return { time: sql.ref('bc.block_time_sec'), slot: sql.ref('bc.slot'), isMintDriven: true }
  }
  return { time: sql.ref('t.block_time_sec'), slot: sql.ref('t.slot'), isMintDriven: false }
}

/**
 * True for rows after the cursor in the direction of the walk. On a mint's changes the
 * exact bound mixes the change's columns with its transaction's signature: its time and
 * slot are kept from the planner (unary `+`), which otherwise, on sampled statistics, took
 * the wallet's (time, slot) index of every change for it and read the whole wallet.
 */
function keysetBound(
  pass: Pass,
  order: SortOrder,
  time: Expression<unknown>,
  slot: Expression<unknown>,
  isMintDriven: boolean,
): Expression<SqlBool> {
  const c = pass.after
  if (c === null) return sql<SqlBool>`true`
  const op = order === 'newest' ? sql`<` : sql`>`
  if (pass.isUndated) return sql<SqlBool>`(${slot}, t.signature) ${op} (${c.slot}, ${c.signature})`
  // The two-column bound lets SQLite seek the index; the three-column one is exact.
  const seek = order === 'newest' ? sql`<=` : sql`>=`
  const [exactTime, exactSlot] = isMintDriven ? [sql`+(${time})`, sql`+(${slot})`] : [time, slot]
  return sql<SqlBool>`(${time}, ${slot}) ${seek} (${c.blockTimeSec}, ${c.slot}) and (${exactTime}, ${exactSlot}, t.signature) ${op} (${c.blockTimeSec}, ${c.slot}, ${c.signature})`
}

async function selectTransactions(
  db: Kysely<Database>,
  walletId: number,
  query: HistoryQuery,
  pass: Pass,
  limit: number,
): Promise<TxRow[]> {
  const { time, slot } = sortColumns(query.filters)
  const dir = query.order === 'newest' ? sql`desc` : sql`asc`
  const q = baseQuery(db, walletId, query.filters, pass, query.order)
    .select([
      't.id',
      't.signature',
      't.slot',
      't.block_time_sec',
      't.fee',
      't.fee_text',
      't.fee_payer',
      addressNameOf('t.fee_payer').as('fee_payer_name'),
      't.error',
      't.is_failed',
      't.kind',
      ...SERVICE_SAID_COLUMNS,
    ])
    .orderBy(sql`${time} ${dir}, ${slot} ${dir}, t.signature ${dir}`)
    .limit(limit)
  return q.execute()
}

async function selectChanges(
  db: Kysely<Database>,
  transactionIds: number[],
): Promise<Map<number, HistoryChange[]>> {
  const byTransaction = new Map<number, HistoryChange[]>()
  if (transactionIds.length === 0) return byTransaction
  const rows = await db
    .selectFrom('balance_changes as bc')
    .leftJoin('mints as m', 'm.mint', 'bc.mint')
    .select([
      'bc.transaction_id',
      'bc.mint',
      'm.symbol',
      'bc.amount',
      'bc.amount_text',
      'bc.amount_raw',
      'bc.decimals',
    ])
    .where('bc.transaction_id', 'in', transactionIds)
    .orderBy('bc.transaction_id')
    .orderBy('bc.ordinal')
    .execute()
  for (const r of rows) {
    const list = byTransaction.get(r.transaction_id) ?? []
    list.push({
      mint: r.mint,
      symbol: r.symbol,
      amount: r.amount,
      amountText: r.amount_text,
      amountRaw: r.amount_raw,
      decimals: r.decimals,
    })
    byTransaction.set(r.transaction_id, list)
  }
  return byTransaction
}
