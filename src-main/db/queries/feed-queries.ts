import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { describeAddressProblem } from '@shared/domain/wallet-address'
import type { FeedCursor, FeedFilters } from '@shared/ipc/feed-schemas'
import { InvalidInputError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { Database } from '../schema'
import { engineOf, type MirrorEngine } from '../engine-of'
import { SOL_LEG_EPSILON } from '../ingest/transaction-directions'
import { all } from './row-filters'
import {
  legsByTransaction,
  readLegRows,
  readTransactionTransfers,
  transferKey,
  type TransactionLeg,
  type TransactionTransfer,
} from './transaction-legs'

/** What `fetchFeedPage` reads: filters, where the page starts and how far back is read. */
export interface FeedQuery {
  filters: FeedFilters
  /** The last row of the previous page; null for the newest page. */
  cursor: FeedCursor | null
  /** Only rows above this key (following the feed); null for no bound. */
  newerThan: FeedCursor | null
  limit: number
  /** The newest row the person saw; rows above it are unread. Null: none unread. */
  lastViewed: FeedCursor | null
  /** Most unread rows counted. */
  unreadCap: number
}

/** One token a transaction moved for the wallet: the net change with the fee left out. */
export type FeedLeg = TransactionLeg

/** A transfer of the transaction, with the counterparty's name where the mirror knows one. */
export type FeedTransfer = TransactionTransfer

/** A feed row as the mirror holds it; the app words its summary. */
export interface FeedQueryRow {
  key: FeedCursor
  signature: string
  walletAddress: string
  walletLabel: string | null
  slot: number
  blockTimeSec: number | null
  /** null for rows written before types were derived. */
  kind: string | null
  isFailed: boolean
  /** Above the last-viewed mark. */
  isUnread: boolean
  legs: FeedLeg[]
  transfers: FeedTransfer[]
}

export interface FeedQueryPage {
  rows: FeedQueryRow[]
  nextCursor: FeedCursor | null
  unreadCount: number
  isUnreadCapped: boolean
}

/**
 * Past this many index ranges (one per chosen wallet, or per wallet and token or type) the
 * feed walks a wider index with a wallet filter instead of merging each range's newest rows.
 */
const MAX_MERGED_ARMS = 64

/** The type of transaction `t` as the type indexes hold it: rows from before types read as UNKNOWN. */
const KIND_OF_T = sql<string>`coalesce(t.kind, 'UNKNOWN')`

/**
 * A page of every watched wallet's transactions (one row per wallet and transaction),
 * newest first by (slot, id), keyset-paged, filtered in the database: across every wallet
 * the walk is the `transactions_feed (slot, id)` index; for chosen wallets or tags it
 * merges each wallet's newest rows read on `transactions_wallet_feed (wallet_id, slot, id)`.
 *
 * @example
 * const page = await fetchFeedPage(db, { filters, cursor: null, newerThan: null, limit: 50, lastViewed: null, unreadCap: 999 })
 * const next = await fetchFeedPage(db, { ...query, cursor: page.nextCursor })
 */
export async function fetchFeedPage(
  db: Kysely<Database>,
  query: FeedQuery,
): Promise<FeedQueryPage> {
  const scope = await resolveScope(db, query.filters)
  // The unread count reads beside the page (PostgreSQL: on a connection of its own).
  const [page, unread] = await Promise.all([
    (async () => {
      const found =
        scope === null
          ? []
          : await selectKeys(
              db,
              scope,
              { after: query.cursor, above: query.newerThan },
              query.limit + 1,
            )
      const keys = found.slice(0, query.limit)
      return {
        keys,
        rows: await readRows(db, keys, query.lastViewed),
        isMore: found.length > query.limit,
      }
    })(),
    countUnread(db, scope, query),
  ])
  const last = page.keys.at(-1)
  return {
    rows: page.rows,
    nextCursor: page.isMore && last ? last : null,
    unreadCount: Math.min(unread, query.unreadCap),
    isUnreadCapped: unread > query.unreadCap,
  }
}

/** Whether `key` lies above `mark` in the feed's order (newer). */
export function isAbove(key: FeedCursor, mark: FeedCursor | null): boolean {
  return mark !== null && (key.slot > mark.slot || (key.slot === mark.slot && key.id > mark.id))
}

/** The feed's newest row key (what "mark all viewed" marks), or null when it is empty. */
export async function newestFeedKey(db: Kysely<Database>): Promise<FeedCursor | null> {
  const row = await db
    .selectFrom('transactions')
    .select(['slot', 'id'])
    .orderBy('slot', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ?? null
}

/** The filters resolved to ids: which wallets (null: all), which mints; null when nothing can match. */
interface Scope {
  walletIds: number[] | null
  mints: string[] | null
  filters: FeedFilters
}

async function resolveScope(db: Kysely<Database>, filters: FeedFilters): Promise<Scope | null> {
  // Resolved side by side; a wallet that is not watched is told before an unknown token.
  const [wallets, tokens] = await Promise.allSettled([
    resolveWallets(db, filters),
    resolveMints(db, filters),
  ])
  if (wallets.status === 'rejected') throw wallets.reason
  if (tokens.status === 'rejected') throw tokens.reason
  const walletIds = wallets.value
  const mints = tokens.value
  if (walletIds?.length === 0 || mints?.length === 0) return null
  return { walletIds, mints, filters }
}

/** The chosen wallets' and tags' wallet ids, in order; null when none are chosen (all). */
async function resolveWallets(
  db: Kysely<Database>,
  filters: FeedFilters,
): Promise<number[] | null> {
  if (filters.wallets.length === 0 && filters.tags.length === 0) return null
  const [chosen, tagged] = await Promise.all([
    filters.wallets.length === 0
      ? []
      : db
          .selectFrom('wallets')
          .select(['id', 'address'])
          .where('address', 'in', filters.wallets)
          .execute(),
    filters.tags.length === 0
      ? []
      : db
          .selectFrom('wallet_tags')
          .select('wallet_id as id')
          .where('tag', 'in', filters.tags)
          .execute(),
  ])
  const missing = filters.wallets.find((a) => !chosen.some((r) => r.address === a))
  if (missing !== undefined)
    throw new NotFoundError(`Wallet ${missing} is not on the watchlist.`, { address: missing })
  const ids = new Set([...chosen, ...tagged].map((r) => r.id))
  return [...ids].sort((a, b) => a - b)
}

/** The token filter's mints (null: no token filter); with a minimum USD value, the priced ones. */
async function resolveMints(db: Kysely<Database>, filters: FeedFilters): Promise<string[] | null> {
  if (filters.token === null) return null
  const mints = await resolveToken(db, filters.token)
  // A token without a price has no USD value: with a minimum, none of its legs can match,
  // and walking its changes to find that out would read every one.
  return filters.minUsd === null ? mints : pricedMints(db, mints)
}

/** Those of `mints` the mirror has a USD price for. */
async function pricedMints(db: Kysely<Database>, mints: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('mints')
    .select('mint')
    .where('mint', 'in', mints)
    .where('price_usd', 'is not', null)
    .execute()
  return rows.map((r) => r.mint)
}

/** The mints a token filter names: the address itself, else every mint with that symbol. */
async function resolveToken(db: Kysely<Database>, token: string): Promise<string[]> {
  if (describeAddressProblem(token) === null) return [token]
  const rows = await db
    .selectFrom('mints')
    .select('mint')
    .where(sql<string>`lower(symbol)`, '=', token.toLowerCase())
    .execute()
  if (rows.length === 0)
    throw new InvalidInputError(
      `No token “${token}” in the mirror: give a mint address, or the symbol of a token the watched wallets moved.`,
      { token },
    )
  return rows.map((r) => r.mint)
}

interface Bounds {
  /** Rows below this key (the next page). */
  after: FeedCursor | null
  /** Rows above this key (newer than what was seen). */
  above: FeedCursor | null
}

/** A query of matching rows' keys (slot, id). */
type KeyQuery = ReturnType<typeof matchingRows>
/** A query over `transactions as t` that selects `O`. */
type OverTransactions<O> = SelectQueryBuilder<Database & { t: Database['transactions'] }, 't', O>

/**
 * The keys of the next `limit` matching rows, newest first. Each filter that narrows the
 * feed most reads its own order, so a page never walks far past rows that do not match:
 * a token reads its balance changes on `balance_changes_mint_feed (mint, slot,
 * transaction_id)`, a type its rows on `transactions_kind_feed`, chosen wallets their own
 * rows on `transactions_wallet_feed`; the rest walks `transactions_feed (slot, id)`.
 * Chosen wallets with a token or a type read each wallet's rows of it
 * (`balance_changes_wallet_mint_feed`, `transactions_wallet_kind_feed`), so a small
 * wallet's few rows of a common token, or a type a wallet rarely has, cost a page.
 */
async function selectKeys(
  db: Kysely<Database>,
  scope: Scope,
  bounds: Bounds,
  limit: number,
): Promise<FeedCursor[]> {
  const ids = scope.walletIds
  const rows = () => matchingRows(db, scope, bounds)
  const kinds = [...new Set(scope.filters.kinds)]
  // Each chosen wallet's rows of each token or type, while those ranges are few enough.
  const isPerWallet = (each: number) =>
    ids !== null && ids.length * Math.max(1, each) <= MAX_MERGED_ARMS
  // SOL is a leg of nearly every transaction (the fee), so its changes narrow nothing that
  // a type does not narrow more: with a type, the type's order is read and the SOL leg
  // tested ("NFT_SALE, SOL": 45 ms walking SOL's changes on PostgreSQL, 0.4 ms this way).
  const isTokenWalked =
    scope.mints !== null && !(kinds.length > 0 && scope.mints.includes(NATIVE_SOL_MINT))
  if (isTokenWalked && scope.mints !== null) {
    const mints = scope.mints
    return newestOfTokens(
      db,
      ids !== null && isPerWallet(mints.length)
        ? ids.flatMap((id) => mints.map((mint) => walkToken(db, scope, bounds, limit, mint, id)))
        : mints.map((mint) => walkToken(db, scope, bounds, limit, mint, null)),
      limit,
      mints.length === 1,
    )
  }
  if (ids !== null && isPerWallet(0)) {
    const byKind = kinds.length > 0 && isPerWallet(kinds.length)
    const arms = <O>(of: () => OverTransactions<O>) =>
      ids.flatMap((id) => {
        const own = of().where('t.wallet_id', '=', id)
        return byKind ? kinds.map((kind) => own.where(KIND_OF_T, '=', kind)) : [own]
      })
    if (engineOf(db) === 'postgres' && hasLegTest(scope) && ids.length > 1)
      return newestWithLegTest(db, scope, bounds, limit, arms)
    return newestOf(db, arms(rows), limit)
  }
  const inScope = (q: KeyQuery) => (ids === null ? q : q.where('t.wallet_id', 'in', ids))
  if (kinds.length > 0)
    return newestOf(
      db,
      kinds.map((kind) => inScope(rows()).where(KIND_OF_T, '=', kind)),
      limit,
    )
  return newestOf(db, [inScope(rows())], limit)
}

/** The rows that match the filters and bounds, unordered: the caller picks the walk. */
function matchingRows(db: Kysely<Database>, scope: Scope, bounds: Bounds) {
  return db
    .selectFrom('transactions as t')
    .select(['t.slot', 't.id'])
    .where(matches(engineOf(db), scope, bounds))
}

/**
 * The newest `limit` keys of one or more sets of rows that share none (one per wallet, one
 * per type), each of which an index reads in the feed's order. The sets are merged as they
 * are read, newest first, and the merge stops once it has the page: both engines pull each
 * set's rows one at a time (SQLite merges co-routines, PostgreSQL a Merge Append), so fifty
 * wallets cost about one page of reads, not fifty.
 */
async function newestOf(
  db: Kysely<Database>,
  sets: KeyQuery[],
  limit: number,
): Promise<FeedCursor[]> {
  const newestFirst = (q: KeyQuery) =>
    q.orderBy('t.slot', 'desc').orderBy('t.id', 'desc').limit(limit)
  if (sets.length === 1) return newestFirst(sets[0]!).execute()
  // SQLite reads a bare compound arm in the index's order, lazily; an arm with its own
  // order and limit it reads to the limit and sorts first. PostgreSQL needs each arm's
  // order and limit to read it on the index (bare, it joins every balance change at once).
  const arms =
    engineOf(db) === 'postgres'
      ? // The same (slot, id) rows, read from each arm's subquery.
        (sets.map((q, i) =>
          db.selectFrom(newestFirst(q).as(`b${i}`)).select(['slot', 'id']),
        ) as unknown as KeyQuery[])
      : sets
  const [first, ...rest] = arms
  return rest
    .reduce((merged, arm) => merged.unionAll(arm), first!)
    .orderBy('slot', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/** Whether a row matches only with a leg that fits a token or a minimum USD value. */
const hasLegTest = (scope: Scope) => scope.mints !== null || scope.filters.minUsd !== null

/** The first candidates read at once, per row of the page; each later round reads four times as many. */
const CANDIDATES_PER_ROW = 8
/** Most candidates one round reads: past this, rounds of this size follow each other. */
const MAX_CANDIDATES = 16_384

/**
 * PostgreSQL: the newest `limit` keys of chosen wallets' rows that must have a fitting leg.
 * Written into each wallet's arm, the leg test is planned once per arm: for a tag of fifty
 * wallets the server read and planned 15–30 KB of SQL in 33–48 ms to run it in 7–12 ms.
 * Here the arms (`arms`, over the rows without the leg test) give candidates and the test
 * is written once, over them (`newestInRounds`).
 */
function newestWithLegTest(
  db: Kysely<Database>,
  scope: Scope,
  bounds: Bounds,
  limit: number,
  arms: <O>(of: () => OverTransactions<O>) => OverTransactions<O>[],
): Promise<FeedCursor[]> {
  const withoutLegs: Scope = {
    ...scope,
    mints: null,
    filters: { ...scope.filters, minUsd: null },
  }
  return newestInRounds(
    db,
    hasMatchingLeg(scope),
    limit,
    (after, size) => {
      const candidates = () =>
        db
          .selectFrom('transactions as t')
          .select(['t.slot', 't.id', 't.wallet_id', 't.fee', 't.fee_payer'])
          .where(matches('postgres', withoutLegs, { after, above: bounds.above }))
          .orderBy('t.slot', 'desc')
          .orderBy('t.id', 'desc')
          .limit(size)
      const [first, ...rest] = arms(candidates).map((arm, i) =>
        db.selectFrom(arm.as(`b${i}`)).selectAll(),
      )
      return rest
        .reduce((union, arm) => union.unionAll(arm), first!)
        .orderBy('slot', 'desc')
        .orderBy('id', 'desc')
        .limit(size)
    },
    bounds.after,
  )
}

/**
 * PostgreSQL: the newest `limit` candidates (transactions named `t`, newest first) that pass
 * `test`. `candidates(after, size)` merges at most `size` of them below `after` in the
 * feed's order as they are read; the test is applied to each in turn. Candidates come in
 * rounds of growing size, each below the last one's oldest, until the page is full or the
 * candidates run out.
 */
async function newestInRounds(
  db: Kysely<Database>,
  test: Expression<SqlBool>,
  limit: number,
  candidates: (after: FeedCursor | null, size: number) => Expression<unknown>,
  from: FeedCursor | null,
): Promise<FeedCursor[]> {
  const found: FeedCursor[] = []
  let after = from
  for (let size = limit * CANDIDATES_PER_ROW; ; size = Math.min(size * 4, MAX_CANDIDATES)) {
    // The test kept as a condition on each candidate in turn: a plain `exists` the planner
    // makes a join, and it then read and sorted every candidate first (2.2 s on the desk).
    // When the round falls short, one more row: its oldest candidate, with how many it read
    // (a one-time filter: a full round never reads past the candidates it tested).
    const need = limit - found.length
    const { rows } = await sql<{ slot: number; id: number; candidates_read: number | null }>`
      with t as (${candidates(after, size)}),
      matched as (select slot, id from t
        where case when ${test} then true else false end
        order by slot desc, id desc limit ${need})
      select slot, id, null as candidates_read from matched
      union all
      (select slot, id, count(*) over () from t
        where (select count(*) from matched) < ${need}
        order by slot, id limit 1)`.execute(db)
    const oldest = rows.find((r) => r.candidates_read !== null)
    for (const r of rows) if (r.candidates_read === null) found.push({ slot: r.slot, id: r.id })
    const isExhausted = oldest === undefined || Number(oldest.candidates_read) < size
    if (found.length >= limit || isExhausted) return found
    after = { slot: oldest.slot, id: oldest.id }
  }
}

/**
 * Matching rows that moved `mint`, newest first on that mint's balance changes: one
 * wallet's (`walletId`), or every chosen wallet's.
 */
function walkToken(
  db: Kysely<Database>,
  scope: Scope,
  bounds: Bounds,
  limit: number,
  mint: string,
  walletId: number | null,
) {
  const { after, above } = bounds
  // The change read is the leg the token, direction and USD filters ask about.
  const rest: Scope = {
    ...scope,
    mints: null,
    filters: { ...scope.filters, direction: null, minUsd: null },
  }
  let q = db
    .selectFrom('balance_changes as c')
    .innerJoin('transactions as t', 't.id', 'c.transaction_id')
    // The transaction's key as the change holds it (the same values), so that the branch
    // is known to come out in the order it is read.
    .select(['c.slot as slot', 'c.transaction_id as id'])
    .where('c.mint', '=', mint)
    .where(all([matches(engineOf(db), rest, bounds), ...legFits({ ...scope, mints: null }, 'c')]))
    .orderBy('c.slot', 'desc')
    .orderBy('c.transaction_id', 'desc')
    .limit(limit)
  // The same bounds on the change's own columns: they seek the mint's index.
  if (after !== null)
    q = q.where(
      sql<SqlBool>`c.slot <= ${after.slot} and (c.slot < ${after.slot} or c.transaction_id < ${after.id})`,
    )
  if (above !== null)
    q = q.where(
      sql<SqlBool>`c.slot >= ${above.slot} and (c.slot > ${above.slot} or c.transaction_id > ${above.id})`,
    )
  if (walletId !== null) q = q.where('c.wallet_id', '=', walletId)
  else if (scope.walletIds !== null) q = q.where('c.wallet_id', 'in', scope.walletIds)
  return q
}

/**
 * The newest `limit` keys of the token's branches (one per mint, or per wallet and mint),
 * each read on its own index range: never more than branches × limit rows read. Branches
 * of one mint share no row and are merged as they are read (PostgreSQL: a Merge Append
 * that stops at the page); a row two mints' branches find (a transaction that moved two
 * mints of one symbol) is counted once.
 */
async function newestOfTokens(
  db: Kysely<Database>,
  branches: ReturnType<typeof walkToken>[],
  limit: number,
  isDisjoint: boolean,
): Promise<FeedCursor[]> {
  if (branches.length === 1) return branches[0]!.execute()
  const [first, ...rest] = branches.map((b, i) => db.selectFrom(b.as(`b${i}`)).selectAll())
  let merged = first!
  for (const next of rest) merged = isDisjoint ? merged.unionAll(next) : merged.union(next)
  return merged.orderBy('slot', 'desc').orderBy('id', 'desc').limit(limit).execute()
}

/** How many matching rows lie above the last-viewed mark (and above `newerThan`). */
async function countUnread(
  db: Kysely<Database>,
  scope: Scope | null,
  query: FeedQuery,
): Promise<number> {
  if (scope === null || query.lastViewed === null) return 0
  const mark =
    query.newerThan !== null && isAbove(query.newerThan, query.lastViewed)
      ? query.newerThan
      : query.lastViewed
  const keys = await selectKeys(db, scope, { after: null, above: mark }, query.unreadCap + 1)
  return keys.length
}

/** The filters and bounds over a `transactions as t` walk. */
function matches(engine: MirrorEngine, scope: Scope, bounds: Bounds): Expression<SqlBool> {
  const { filters } = scope
  const parts: Expression<SqlBool>[] = []
  const { after, above } = bounds
  // The first half seeks the index; the second is exact.
  if (after !== null)
    parts.push(
      sql<SqlBool>`t.slot <= ${after.slot} and (t.slot < ${after.slot} or t.id < ${after.id})`,
    )
  if (above !== null)
    parts.push(
      sql<SqlBool>`t.slot >= ${above.slot} and (t.slot > ${above.slot} or t.id > ${above.id})`,
    )
  // On SQLite written so that no index matches it: a branch that walks a type's own order
  // says so itself (selectKeys); a wallet's branch must walk the wallet's order, and
  // SQLite's planner, with sampled statistics, took the type's whole index and sorted it
  // instead (seconds for a tag and a type on a 10,000,000-row desk). PostgreSQL needs the
  // plain expression, whose statistics it has from the type's index: hidden, it guessed a
  // type matches almost nothing, read each wallet's every row and sorted them (seconds).
  if (filters.kinds.length > 0) {
    const kind = KIND_OF_T
    const unindexed = engine === 'postgres' ? kind : sql`(${kind} || '')`
    parts.push(sql<SqlBool>`${unindexed} in (${sql.join(filters.kinds)})`)
  }
  // A direction alone reads the transaction's own flag, written with it; with a token or
  // a minimum USD value, the leg that has them must also have the direction.
  if (filters.direction !== null)
    parts.push(
      sql<SqlBool>`${sql.ref(filters.direction === 'in' ? 't.has_leg_in' : 't.has_leg_out')} = 1`,
    )
  if (scope.mints !== null || filters.minUsd !== null) parts.push(hasMatchingLeg(scope))
  return all(parts)
}

/**
 * The transaction has one leg that fits the token, direction and minimum USD value
 * together. A leg is the wallet's net change of a mint with the fee it paid left out, so
 * a token sent with a fee is "out" in that token only, and a fee alone moves nothing.
 */
function hasMatchingLeg(scope: Scope): Expression<SqlBool> {
  // With a minimum USD value, the price joined once rather than looked up per leg as a
  // subquery (PostgreSQL: a third less time for a page that reads thousands of legs).
  const isPriced = scope.filters.minUsd !== null
  const parts = [sql<SqlBool>`d.transaction_id = t.id`, ...legFits(scope, 'd', sql`m.price_usd`)]
  const legs = isPriced
    ? sql`balance_changes as d join mints as m on m.mint = d.mint`
    : sql`balance_changes as d`
  return sql<SqlBool>`exists (select 1 from ${legs} where ${all(parts)})`
}

/**
 * What the leg (the balance change `alias` of transaction `t`) must fit: token, direction,
 * USD at `price` (the leg's mint's price, where the query has it; else looked up).
 */
function legFits(
  scope: Scope,
  alias: 'c' | 'd',
  price: Expression<unknown> | null = null,
): Expression<SqlBool>[] {
  const { filters, mints } = scope
  const d = sql.raw(alias)
  const isFeeLeg = sql`(${d}.mint = ${NATIVE_SOL_MINT} and t.fee_payer = (select w.address from wallets as w where w.id = t.wallet_id))`
  const net = sql`(case when ${isFeeLeg} then ${d}.amount + t.fee else ${d}.amount end)`
  // Literals: PostgreSQL would type a parameter beside `0` as an integer.
  const epsilon = sql`(case when ${d}.mint = ${NATIVE_SOL_MINT} then ${sql.lit(SOL_LEG_EPSILON)} else ${sql.lit(0)} end)`
  const parts: Expression<SqlBool>[] = []
  if (mints !== null) parts.push(sql<SqlBool>`${d}.mint in (${sql.join(mints)})`)
  if (filters.direction === 'in') parts.push(sql<SqlBool>`${net} > ${epsilon}`)
  if (filters.direction === 'out') parts.push(sql<SqlBool>`${net} < -${epsilon}`)
  if (filters.minUsd !== null) {
    const usd = price ?? sql`(select m.price_usd from mints as m where m.mint = ${d}.mint)`
    parts.push(sql<SqlBool>`abs(${net}) * ${usd} >= ${filters.minUsd}`)
  }
  return parts
}

/** The page's rows with their legs and transfers, in the keys' order. */
async function readRows(
  db: Kysely<Database>,
  keys: FeedCursor[],
  lastViewed: FeedCursor | null,
): Promise<FeedQueryRow[]> {
  if (keys.length === 0) return []
  const ids = keys.map((k) => k.id)
  // Read side by side (PostgreSQL: each on a connection of its own).
  const [transactions, changes, transfers] = await Promise.all([
    readTransactions(db, ids),
    readLegRows(db, ids),
    readTransactionTransfers(db, ids),
  ])
  const byId = new Map(transactions.map((t) => [t.id, t]))
  const legs = legsByTransaction(
    changes,
    transactions.map((t) => ({
      id: t.id,
      feeText: t.fee_text,
      paysFee: t.fee_payer === t.address,
    })),
  )
  return keys.flatMap((key): FeedQueryRow[] => {
    const t = byId.get(key.id)
    if (t === undefined) return [] // removed with its wallet between the two reads
    return [
      {
        key,
        signature: t.signature,
        walletAddress: t.address,
        walletLabel: t.label,
        slot: t.slot,
        blockTimeSec: t.block_time_sec,
        kind: t.kind,
        isFailed: t.is_failed === 1,
        isUnread: isAbove(key, lastViewed),
        legs: legs.get(t.id) ?? [],
        transfers: transfers.get(transferKey(t.wallet_id, t.signature)) ?? [],
      },
    ]
  })
}

/** The page's transactions with their wallets. */
function readTransactions(db: Kysely<Database>, ids: number[]) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('wallets as w', 'w.id', 't.wallet_id')
    .select([
      't.id',
      't.wallet_id',
      't.signature',
      't.slot',
      't.block_time_sec',
      't.fee_text',
      't.fee_payer',
      't.kind',
      't.is_failed',
      'w.address',
      'w.label',
    ])
    .where('t.id', 'in', ids)
    .execute()
}
