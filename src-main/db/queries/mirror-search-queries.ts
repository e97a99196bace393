import { sql, type Kysely, type RawBuilder } from 'kysely'
import {
  MAX_SEARCH_HITS,
  type SearchField,
  type SearchHit,
  type SearchHitKind,
  type SearchMatch,
} from '@shared/ipc/search-schemas'
import { lookupRequestFor } from '@shared/ipc/lookup-schemas'
import { engineOf, type MirrorEngine } from '../engine-of'
import type { Database } from '../schema'

// The header search: what the mirror knows, found without a call. Names (labels, the
// service's names and domains, token symbols and names) match without regard to ASCII
// case anywhere in the text; addresses, mints and signatures match by their start only,
// case-sensitively (base58 tells `a` from `A`), from 4 characters on. Every read is an
// index range or a scan that stops after `limit` rows (under 50 ms on a mirror of a
// million transactions: see the mirror-search bench); exact and prefix matches come from
// the ranges, so they are never crowded out by names holding the text elsewhere.

/** Characters an id prefix needs before it is searched: fewer match too much to help. */
export const MIN_ID_PREFIX = 4

const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]+$/

const MATCH_RANK: Record<SearchMatch, number> = { exact: 0, prefix: 1, substring: 2 }
/** Among equal matches: the person's wallets first, counterparties after tokens. */
const KIND_RANK: Record<SearchHitKind, number> = { wallet: 0, token: 1, address: 2, transaction: 3 }

/** A hit before it is told where it opens. */
interface Candidate {
  kind: SearchHitKind
  id: string
  name: string | null
  field: SearchField
  matched: string
  match: SearchMatch
}

/**
 * Searches the mirror for `text` and returns at most `limit` hits, best first: exact
 * matches, then prefixes, then substrings; within each, watched wallets, tokens, other
 * addresses, transactions. One hit per id, under its best match.
 *
 * @example
 * await searchMirror(db, 'usdc') // [{ kind: 'token', field: 'symbol', match: 'exact', … }]
 */
export async function searchMirror(
  db: Kysely<Database>,
  text: string,
  limit = MAX_SEARCH_HITS,
): Promise<SearchHit[]> {
  const trimmed = text.trim()
  if (trimmed === '') return []
  const engine = engineOf(db)
  const lowered = lowerAs(engine, trimmed)
  const candidates = [
    ...(await watchedWalletsByName(db, engine, lowered)),
    ...(await addressesByName(db, engine, lowered, limit)),
    ...(await tokensByName(db, engine, lowered, limit)),
  ]
  if (trimmed.length >= MIN_ID_PREFIX && BASE58_TEXT.test(trimmed)) {
    candidates.push(
      ...(await walletsByAddress(db, trimmed, limit)),
      ...(await namedAddressesByAddress(db, trimmed, limit)),
      ...(await counterpartiesByAddress(db, trimmed, limit)),
      ...(await tokensByMint(db, trimmed, limit)),
      ...(await transactionsBySignature(db, trimmed, limit)),
    )
  }
  return rankCandidates(candidates)
    .slice(0, limit)
    .map((c) => ({ ...c, opens: targetOf(c) }))
}

/** Best first, one per id (a watched wallet also named by the service is one hit). */
function rankCandidates(candidates: Candidate[]): Candidate[] {
  const order = (a: Candidate, b: Candidate): number =>
    MATCH_RANK[a.match] - MATCH_RANK[b.match] ||
    KIND_RANK[a.kind] - KIND_RANK[b.kind] ||
    a.matched.length - b.matched.length ||
    (a.matched < b.matched ? -1 : a.matched > b.matched ? 1 : 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  const best = new Map<string, Candidate>()
  for (const c of [...candidates].sort(order)) if (!best.has(c.id)) best.set(c.id, c)
  return [...best.values()]
}

function targetOf(c: Candidate): SearchHit['opens'] {
  if (c.kind === 'wallet') return { page: 'wallet', address: c.id }
  const kind = c.kind === 'token' ? 'asset' : c.kind === 'transaction' ? 'signature' : 'wallet'
  const request = lookupRequestFor(kind, c.id)
  if (request === null) throw new Error(`No look-up opens a ${c.kind}`)
  return { page: 'lookup', request }
}

// ---- names: case-insensitive, anywhere in the text ----

/**
 * The text lowered as the engine's lower() lowers a column: SQLite's only knows ASCII,
 * PostgreSQL's all of Unicode. Matching in JS then agrees with what the query found.
 */
function lowerAs(engine: MirrorEngine, text: string): string {
  return engine === 'postgres' ? text.toLowerCase() : text.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

/** A LIKE pattern matching `lowered` literally: `%` and `_` in a name are no wildcards. */
function likeLiteral(lowered: string): string {
  return lowered.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * Above every text starting with `lowered` in byte order (SQLite's BINARY and the "C"
 * collation of every PostgreSQL text column): the prefix followed by the last code point.
 */
function rangeEnd(lowered: string): string {
  return `${lowered}\u{10FFFF}`
}

/** How `value` matches the lowered search text, or null when it does not. */
function matchOf(engine: MirrorEngine, value: string | null, lowered: string): SearchMatch | null {
  if (value === null) return null
  const v = lowerAs(engine, value)
  if (v === lowered) return 'exact'
  if (v.startsWith(lowered)) return 'prefix'
  return v.includes(lowered) ? 'substring' : null
}

/**
 * Rows of a table by name, in two steps: exact and prefix matches by an index range on
 * each lowered name (the exact one sorts first: a text comes before its extensions); then,
 * only while fewer than `limit` were found, names holding the text elsewhere by one scan
 * that stops after twice `limit` rows (those it finds again are kept once).
 */
async function byName<Row extends { id: string }>(
  ranges: (() => Promise<Row[]>)[],
  scan: (rows: number) => Promise<Row[]>,
  limit: number,
): Promise<Row[]> {
  const found = new Map<string, Row>()
  for (const range of ranges) for (const row of await range()) found.set(row.id, row)
  if (found.size < limit) for (const row of await scan(2 * limit)) found.set(row.id, row)
  return [...found.values()]
}

/**
 * SQL: `column` holds the lowered text. SQLite's LIKE already ignores ASCII case (and
 * skipping lower() halves the scan); PostgreSQL's does not, so the column is lowered.
 */
function holdsSql(engine: MirrorEngine, column: string, lowered: string): RawBuilder<boolean> {
  const pattern = `%${likeLiteral(lowered)}%`
  return engine === 'postgres'
    ? sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
    : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`
}

/** Every watched wallet with the service's name for it: a small table, matched here. */
async function watchedWalletsByName(
  db: Kysely<Database>,
  engine: MirrorEngine,
  lowered: string,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('wallets as w')
    .leftJoin('address_names as n', (join) =>
      join.onRef('n.address', '=', 'w.address').on('n.status', '=', 'named'),
    )
    .select(['w.address', 'w.label', 'n.name', 'n.domain_names_json'])
    .execute()
  return rows.flatMap((r) => {
    const shown = r.label ?? r.name
    const options: Candidate[] = []
    const add = (field: SearchField, value: string | null): void => {
      const match = matchOf(engine, value, lowered)
      if (match !== null && value !== null)
        options.push({
          kind: 'wallet',
          id: r.address,
          name: shown ?? value,
          field,
          matched: value,
          match,
        })
    }
    add('label', r.label)
    add('name', r.name)
    for (const domain of domainsOf(r.domain_names_json ?? '[]')) add('domain', domain)
    return options
  })
}

interface NamedRow {
  id: string
  name: string | null
  domain_names_json: string
}

/**
 * Other addresses the service named (counterparties, funders, looked-up wallets), by name
 * or by domain. Domains are kept as a JSON array of strings: the first one starts the
 * array's text (`["alice.sol"`), so it is found by a range too; any other by the scan.
 */
async function addressesByName(
  db: Kysely<Database>,
  engine: MirrorEngine,
  lowered: string,
  limit: number,
): Promise<Candidate[]> {
  const named = () =>
    db
      .selectFrom('address_names')
      .select(['address as id', 'name', 'domain_names_json'])
      // A name from an answer that later failed is stale: the review pages do not show it.
      .where('status', '=', 'named')
  const range = (key: RawBuilder<string>, from: string) => () =>
    named()
      .where(key, '>=', from)
      .where(key, '<', rangeEnd(from))
      .orderBy(key)
      .limit(limit)
      .execute()
  const firstDomain = `["${JSON.stringify(lowered).slice(1, -1)}`
  const rows: NamedRow[] = await byName(
    [range(sql`lower(name)`, lowered), range(sql`lower(domain_names_json)`, firstDomain)],
    (n) =>
      named()
        .where((eb) =>
          eb.or([
            holdsSql(engine, 'name', lowered),
            holdsSql(engine, 'domain_names_json', lowered),
          ]),
        )
        .limit(n)
        .execute(),
    limit,
  )
  return rows.flatMap((r) => {
    const options: Candidate[] = []
    const byName = matchOf(engine, r.name, lowered)
    if (byName !== null && r.name !== null)
      options.push({
        kind: 'address',
        id: r.id,
        name: r.name,
        field: 'name',
        matched: r.name,
        match: byName,
      })
    for (const domain of domainsOf(r.domain_names_json)) {
      const byDomain = matchOf(engine, domain, lowered)
      if (byDomain !== null)
        options.push({
          kind: 'address',
          id: r.id,
          name: r.name ?? domain,
          field: 'domain',
          matched: domain,
          match: byDomain,
        })
    }
    return options
  })
}

function domainsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? parsed.filter((d): d is string => typeof d === 'string') : []
  } catch {
    return []
  }
}

interface MintRow {
  id: string
  symbol: string | null
  name: string | null
}

async function tokensByName(
  db: Kysely<Database>,
  engine: MirrorEngine,
  lowered: string,
  limit: number,
): Promise<Candidate[]> {
  const mints = () => db.selectFrom('mints').select(['mint as id', 'symbol', 'name'])
  const range = (key: RawBuilder<string>) => () =>
    mints()
      .where(key, '>=', lowered)
      .where(key, '<', rangeEnd(lowered))
      .orderBy(key)
      .limit(limit)
      .execute()
  const rows: MintRow[] = await byName(
    [range(sql`lower(symbol)`), range(sql`lower(name)`)],
    (n) =>
      mints()
        .where((eb) =>
          eb.or([holdsSql(engine, 'symbol', lowered), holdsSql(engine, 'name', lowered)]),
        )
        .limit(n)
        .execute(),
    limit,
  )
  return rows.flatMap((r) => {
    const shown = tokenName(r.symbol, r.name)
    const options: Candidate[] = []
    const bySymbol = matchOf(engine, r.symbol, lowered)
    if (bySymbol !== null && r.symbol !== null)
      options.push({
        kind: 'token',
        id: r.id,
        name: shown,
        field: 'symbol',
        matched: r.symbol,
        match: bySymbol,
      })
    const byName = matchOf(engine, r.name, lowered)
    if (byName !== null && r.name !== null)
      options.push({
        kind: 'token',
        id: r.id,
        name: shown,
        field: 'token-name',
        matched: r.name,
        match: byName,
      })
    return options
  })
}

/** "USDC · USD Coin", or whichever of the two is known. */
function tokenName(symbol: string | null, name: string | null): string | null {
  if (symbol !== null && name !== null && symbol !== name) return `${symbol} · ${name}`
  return symbol ?? name
}

// ---- ids: case-sensitive prefixes, each an index range ----

/**
 * The first text after every text starting with `prefix`, in byte order (SQLite's BINARY
 * and PostgreSQL's "C" collation, which every text column of the mirror uses): base58 is
 * ASCII, so the last character plus one.
 */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
}

/** A hit on an id (address, mint, signature) that starts with the text searched. */
function idCandidate(
  kind: SearchHitKind,
  id: string,
  name: string | null,
  text: string,
  field: SearchField = 'address',
): Candidate {
  return { kind, id, name, field, matched: id, match: id === text ? 'exact' : 'prefix' }
}

async function walletsByAddress(
  db: Kysely<Database>,
  text: string,
  limit: number,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('wallets')
    .select(['address', 'label'])
    .where('address', '>=', text)
    .where('address', '<', prefixEnd(text))
    .orderBy('address')
    .limit(limit)
    .execute()
  return rows.map((r) => idCandidate('wallet', r.address, r.label, text))
}

async function namedAddressesByAddress(
  db: Kysely<Database>,
  text: string,
  limit: number,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('address_names')
    .select(['address', 'name'])
    .where('status', '=', 'named')
    .where('address', '>=', text)
    .where('address', '<', prefixEnd(text))
    .orderBy('address')
    .limit(limit)
    .execute()
  return rows.map((r) => idCandidate('address', r.address, r.name, text))
}

/**
 * Distinct counterparties starting with `text`: one index seek per counterparty, so that
 * one that fills half a million transfers costs no more than one seen once.
 */
async function counterpartiesByAddress(
  db: Kysely<Database>,
  text: string,
  limit: number,
): Promise<Candidate[]> {
  const found: string[] = []
  const end = prefixEnd(text)
  while (found.length < limit) {
    const last = found.at(-1)
    const row = await db
      .selectFrom('transfers')
      .select('counterparty')
      .where('counterparty', last === undefined ? '>=' : '>', last ?? text)
      .where('counterparty', '<', end)
      .orderBy('counterparty')
      .limit(1)
      .executeTakeFirst()
    if (row === undefined) break
    found.push(row.counterparty)
  }
  const names = await namesOf(db, found)
  return found.map((address) => idCandidate('address', address, names.get(address) ?? null, text))
}

async function namesOf(db: Kysely<Database>, addresses: string[]): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map()
  const rows = await db
    .selectFrom('address_names')
    .select(['address', 'name'])
    .where('status', '=', 'named')
    .where('address', 'in', addresses)
    .execute()
  return new Map(rows.flatMap((r) => (r.name === null ? [] : [[r.address, r.name] as const])))
}

async function tokensByMint(
  db: Kysely<Database>,
  text: string,
  limit: number,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('mints')
    .select(['mint', 'symbol', 'name'])
    .where('mint', '>=', text)
    .where('mint', '<', prefixEnd(text))
    .orderBy('mint')
    .limit(limit)
    .execute()
  return rows.map((r) => idCandidate('token', r.mint, tokenName(r.symbol, r.name), text))
}

/**
 * Signatures in watched wallets' histories starting with `text`: a range of the
 * (wallet_id, signature) index for each watched wallet (there is no index on the
 * signature alone: it slowed every history write, see migration 0004).
 */
async function transactionsBySignature(
  db: Kysely<Database>,
  text: string,
  limit: number,
): Promise<Candidate[]> {
  const rows = await db
    .selectFrom('transactions')
    .select('signature')
    .distinct()
    .where('wallet_id', 'in', (eb) => eb.selectFrom('wallets').select('id'))
    .where('signature', '>=', text)
    .where('signature', '<', prefixEnd(text))
    .orderBy('signature')
    .limit(limit)
    .execute()
  return rows.map((r) => idCandidate('transaction', r.signature, null, text, 'signature'))
}
