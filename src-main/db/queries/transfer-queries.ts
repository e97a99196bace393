import { sql, type Kysely, type SqlBool } from 'kysely'
import type {
  LatestTransfer,
  RowCount,
  SortOrder,
  TransferCursor,
  TransferFilters,
  TransferPage,
  TransferRow,
} from '@shared/ipc/review-schemas'
import type { Database } from '../schema'
import { addressNameOf } from './address-names'
import { transferMatches, transferRowFilters } from './row-filters'

/** What `fetchTransferPage` needs besides the wallet. */
export interface TransferQuery {
  order: SortOrder
  filters: TransferFilters
  cursor: TransferCursor | null
  limit: number
}

/** A transfer row's columns as the views read them (`t` transfers, `m` its mint). */
const TRANSFER_COLUMNS = [
  't.id',
  't.signature',
  't.block_time_sec',
  't.direction',
  't.counterparty',
  addressNameOf('t.counterparty').as('counterparty_name'),
  't.mint',
  sql<string | null>`coalesce(t.symbol, m.symbol)`.as('symbol'),
  't.amount',
  't.amount_text',
  't.amount_raw',
  't.decimals',
] as const

/** What TRANSFER_COLUMNS select. */
interface TransferColumns {
  id: number
  signature: string
  block_time_sec: number
  direction: string
  counterparty: string
  counterparty_name: string | null
  mint: string
  symbol: string | null
  amount: number
  amount_text: string
  amount_raw: string
  decimals: number
}

/** A row of TRANSFER_COLUMNS as the views get it. */
function transferRowOf(r: TransferColumns): TransferRow {
  return {
    id: r.id,
    signature: r.signature,
    blockTimeSec: r.block_time_sec,
    direction: r.direction === 'in' ? 'in' : 'out',
    counterparty: r.counterparty,
    counterpartyName: r.counterparty_name,
    mint: r.mint,
    symbol: r.symbol,
    amount: r.amount,
    amountText: r.amount_text,
    amountRaw: r.amount_raw,
    decimals: r.decimals,
  }
}

/**
 * A page of a wallet's transfers in keyset order (block time, signature, id), filtered in
 * SQLite on the (wallet, time, signature) or (wallet, mint, time) index. The counterparty
 * carries its name: a watched wallet's label, else the service's name for it.
 *
 * @example
 * const page = await fetchTransferPage(db, walletId, { order: 'newest', filters, cursor: null, limit: 100 })
 */
export async function fetchTransferPage(
  db: Kysely<Database>,
  walletId: number,
  query: TransferQuery,
): Promise<TransferPage> {
  const { filters, cursor, order } = query
  const dir = order === 'newest' ? sql`desc` : sql`asc`
  let q = db
    .selectFrom('transfers as t')
    .leftJoin('mints as m', 'm.mint', 't.mint')
    .where('t.wallet_id', '=', walletId)
    .where(transferMatches('t', transferRowFilters(filters)))
  if (filters.counterparty !== '') q = q.where('t.counterparty', '=', filters.counterparty)
  if (cursor !== null) {
    const op = order === 'newest' ? sql`<` : sql`>`
    const seek = order === 'newest' ? '<=' : '>='
    q = q
      .where('t.block_time_sec', seek, cursor.blockTimeSec)
      .where(
        sql<SqlBool>`(t.block_time_sec, t.signature, t.id) ${op} (${cursor.blockTimeSec}, ${cursor.signature}, ${cursor.id})`,
      )
  }
  const rows = await q
    .select(TRANSFER_COLUMNS)
    .orderBy(sql`t.block_time_sec ${dir}, t.signature ${dir}, t.id ${dir}`)
    .limit(query.limit + 1)
    .execute()
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    rows: page.map(transferRowOf),
    nextCursor:
      rows.length > query.limit && last
        ? { blockTimeSec: last.block_time_sec, signature: last.signature, id: last.id }
        : null,
  }
}

/**
 * How many of a wallet's transfers the Transfers view's filters select (the rows its
 * export writes), counting at most `cap`.
 */
export async function countTransfers(
  db: Kysely<Database>,
  walletId: number,
  filters: TransferFilters,
  cap = 10_000,
): Promise<RowCount> {
  let inner = db
    .selectFrom('transfers as t')
    .where('t.wallet_id', '=', walletId)
    .where(transferMatches('t', transferRowFilters(filters)))
  if (filters.counterparty !== '') inner = inner.where('t.counterparty', '=', filters.counterparty)
  const row = await db
    .selectFrom(
      inner
        .select(sql<number>`1`.as('one'))
        .limit(cap + 1)
        .as('matches'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const count = Number(row.n)
  return { count: Math.min(count, cap), isCapped: count > cap }
}

/**
 * The newest transfers across every watched wallet, newest first: each wallet's newest
 * `limit` are read on its (wallet, time) index, then merged, so a watchlist of big
 * wallets never sorts all of its transfers.
 */
export async function listLatestTransfers(
  db: Kysely<Database>,
  limit: number,
): Promise<LatestTransfer[]> {
  const rows = await db
    .selectFrom('wallets as w')
    .innerJoin('transfers as t', (join) =>
      join.on(
        't.id',
        'in',
        sql<number>`(select x.id from transfers as x where x.wallet_id = w.id
          order by x.block_time_sec desc, x.signature desc, x.id desc limit ${limit})`,
      ),
    )
    .leftJoin('mints as m', 'm.mint', 't.mint')
    .select(['w.address as wallet_address', 'w.label as wallet_label', ...TRANSFER_COLUMNS])
    .orderBy(sql`t.block_time_sec desc, t.signature desc, t.id desc`)
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    walletAddress: r.wallet_address,
    walletLabel: r.wallet_label,
    ...transferRowOf(r),
  }))
}
