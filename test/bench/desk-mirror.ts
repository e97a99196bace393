import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { SOL_LEG_EPSILON } from '../../src-main/db/ingest/transaction-directions'
import { refreshPlannerStatistics } from '../../src-main/db/sqlite/planner-statistics'
import { generatedAddress } from '../helpers/history-mirror'

// The desk bench's mirror: 300 watched wallets whose histories interleave over two years,
// written by SQL inside the database, so that no row crosses from Node (what keeps
// 10,000,000 rows to minutes). Every value is a function of the transaction's number n, so
// SQLite and PostgreSQL hold the same rows, ids and signatures, and a page can be compared
// across engines. The app's schema is used as migrated; its secondary indexes are dropped
// while the rows go in and created again from their own definitions afterwards.
//
// The shape, per transaction n (time and slot grow with n):
// - its wallet: the cube of a uniform pick, so wallet 1 holds ~15% of the rows and the
//   smallest ~0.1% (a whale, a few large wallets, a long tail);
// - 1 to 3 balance changes, paired so that every two transactions have 4 changes: exactly
//   two per transaction; ordinal 0 is SOL (the fee, and any SOL moved), the others tokens
//   of 33 fungible mints (skewed: USDC common, RARE ~1%) or, for 1% of two-change ones, an
//   NFT sold or bought for SOL;
// - 3% fail (one change: the fee); 0.1% have no block time; the oldest 5% have no type
//   (written before types were derived); the rest SWAP, TRANSFER or NFT_SALE as the writer
//   would derive them from the changes;
// - half the two- and three-change ones have a transfer to or from one of 2,000
//   counterparties, 300 of them named.

/** Which database the mirror is built in. */
export type DeskEngine = 'sqlite' | 'postgres'

export interface DeskWallet {
  id: number
  address: string
  label: string | null
  transactions: number
}

export interface DeskMint {
  mint: string
  symbol: string | null
  decimals: number
}

/** What was built, and how long it took. */
export interface DeskMirror {
  transactions: number
  balanceChanges: number
  transfers: number
  wallets: DeskWallet[]
  mints: DeskMint[]
  tags: string[]
  /** Slot and block time of the first and the last transaction. */
  firstSlot: number
  lastSlot: number
  firstSec: number
  lastSec: number
  /** Writing the rows, then creating the secondary indexes (and statistics), in ms. */
  loadMs: number
  indexMs: number
}

const WALLETS = 300
const PARTIES = 2_000
const NAMED_PARTIES = 300
const FIRST_SLOT = 300_000_000
const FIRST_SEC = 1_730_000_000
/** Two years of slots at 0.4 s. */
const SPAN_SLOTS = 157_680_000
/** The modulus of the row hashes (a prime below 2^31: squares stay below 2^62). */
const M = 2_147_483_647
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
/** The tail of every signature: base58 characters from one of 100 offsets. */
const FILLER = Array.from({ length: 5 }, (_, i) => generatedAddress(77_000 + i))
  .join('')
  .slice(0, 200)

/** Fungible mints, SOL first: symbol, decimals, USD price (null: unpriced). */
const FUNGIBLE: readonly [string, number, number | null][] = [
  ['SOL', 9, 150],
  ['USDC', 6, 1],
  ['USDT', 6, 1],
  ['JUP', 6, 0.9],
  ['BONK', 5, 0.00002],
  ['WIF', 6, 1.8],
  ['JTO', 9, 2.5],
  ['PYTH', 6, 0.3],
  ['RAY', 6, 3],
  ['ORCA', 6, 2],
  ['MSOL', 9, 180],
  ['JITOSOL', 9, 175],
  ['BSOL', 9, 170],
  ['RENDER', 8, 6],
  ['HNT', 8, 5],
  ['W', 6, 0.3],
  ['TNSR', 9, 0.5],
  ['KMNO', 6, 0.06],
  ['DRIFT', 6, 0.8],
  ['ZEUS', 6, 0.4],
  ['MEW', 5, 0.006],
  ['POPCAT', 9, 0.9],
  ['SAMO', 9, 0.01],
  ['MOBILE', 6, 0.001],
  ['IOT', 6, 0.001],
  ['SHDW', 9, 0.5],
  ['STEP', 9, 0.03],
  ['SLND', 6, 0.5],
  ['MNGO', 6, 0.02],
  ['FIDA', 6, 0.3],
  ['GMT', 9, 0.15],
  ['ATLAS', 8, null],
  ['POLIS', 8, null],
  ['RARE', 6, null],
]
const KNOWN_MINTS: Readonly<Record<string, string>> = {
  SOL: NATIVE_SOL_MINT,
  USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  USDT: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
}
const NFTS = ['Sun Dial #118', 'Moon Gate #4', 'Tide Clock #871']
/** Tokens besides SOL that a change picks from. */
const TOKENS = FUNGIBLE.length - 1

const WALLET_LABELS = ['Treasury', 'Market maker', 'Fund A', 'Fund B', 'Hot wallet']

function walletTags(i: number): string[] {
  return [
    ...(i < 5 ? ['whale'] : []),
    ...(i % 6 === 1 ? ['desk'] : []),
    ...(i % 10 === 3 ? ['fund'] : []),
    ...(i % 25 === 7 ? ['ops'] : []),
  ]
}

/** What differs between the engines' SQL. */
interface Dialect {
  engine: DeskEngine
  /** A subquery of one column `n`, 0 … count - 1. */
  series(count: number): string
  /** Closes a subquery the planner must not inline (its columns would be computed again). */
  keep: string
  /** `text` left-padded with zeros to `width` characters. */
  pad(text: string, width: string): string
  /**
   * A signature: the base58 characters numbered `digits` (each taken mod 58), then the
   * filler's characters from `offset` + digits.length on, to 88 in all.
   */
  signature(digits: readonly string[], offset: string): string
}

const SQLITE: Dialect = {
  engine: 'sqlite',
  series: (count) =>
    `(with recursive g(n) as (select 0 union all select n + 1 from g where n < ${count - 1}) select n from g)`,
  // SQLite never flattens a subquery with an OFFSET.
  keep: 'limit -1 offset 0',
  pad: (text, width) => `substr('000000000' || ${text}, -${width})`,
  signature: (digits, offset) =>
    [
      ...digits.map((digit) => `substr('${BASE58}', cast(${digit} % 58 + 1 as integer), 1)`),
      `substr('${FILLER}', cast(${offset} + ${digits.length + 1} as integer), ${88 - digits.length})`,
    ].join(' || '),
}

const POSTGRES: Dialect = {
  engine: 'postgres',
  series: (count) => `(select n from generate_series(0::bigint, ${count - 1}) as g(n))`,
  keep: 'offset 0',
  pad: (text, width) => `lpad(${text}, ${width}, '0')`,
  // Bytes, not text: substr of UTF-8 text walks the characters (2.5 times slower here).
  signature: (digits, offset) =>
    `convert_from(${digits.reduce(
      (bytes, digit, i) =>
        `set_byte(${bytes}, ${i}, get_byte('${BASE58}'::bytea, cast(${digit} % 58 as integer)))`,
      `substr('${FILLER}'::bytea, cast(${offset} + 1 as integer), 88)`,
    )}, 'UTF8')`,
}

/** One statement at a time on the build's own connection. */
interface Runner {
  run(statement: string): Promise<void>
  rows<T>(query: string): Promise<T[]>
}

/**
 * Builds the desk mirror with `rows` balance changes (rounded to an even number: two per
 * transaction) in a new SQLite file at `path`, migrated as the app migrates it.
 *
 * @example
 * const desk = await buildSqliteDesk('/tmp/desk/heliograph.sqlite', 1_000_000)
 */
export async function buildSqliteDesk(path: string, rows: number): Promise<DeskMirror> {
  await (await openSqliteMirror(path)).close()
  const sqlite = new BetterSqlite3(path)
  try {
    // Nothing to recover from in a bench: no journal, no syncs, a large cache and both
    // cores for the index sorts. The app's pragmas apply again when it opens the file.
    sqlite.pragma('journal_mode = off')
    sqlite.pragma('synchronous = off')
    sqlite.pragma('foreign_keys = off')
    sqlite.pragma('cache_size = -1048576')
    sqlite.pragma('threads = 2')
    const runner: Runner = {
      run: async (statement) => void sqlite.exec(statement),
      rows: async <T>(query: string) => sqlite.prepare(query).all() as T[],
    }
    const desk = await buildDesk(runner, SQLITE, rows)
    // The statistics the app's writer gathers after the first pages it writes: the planner
    // reads the desk as it would read the app's own mirror.
    refreshPlannerStatistics(sqlite, { isFirst: true })
    sqlite.pragma('journal_mode = wal')
    return desk
  } finally {
    sqlite.close()
  }
}

/**
 * Builds the desk mirror with `rows` balance changes in the empty PostgreSQL database at
 * `url`, migrated as the app migrates it; then vacuums and analyzes it, as autovacuum would.
 *
 * @example
 * const desk = await buildPostgresDesk(await server.createDatabase('desk'), 1_000_000)
 */
export async function buildPostgresDesk(url: string, rows: number): Promise<DeskMirror> {
  await (await openPostgresMirror(url)).close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // Foreign keys hold by construction: their per-row triggers are skipped (replica role).
    await client.query(`set maintenance_work_mem = '1GB'; set work_mem = '256MB'; set temp_buffers = '1GB';
      set synchronous_commit = off; set session_replication_role = replica`)
    const runner: Runner = {
      run: async (statement) => void (await client.query(statement)),
      rows: async <T>(query: string) => (await client.query(query)).rows as T[],
    }
    return await buildDesk(runner, POSTGRES, rows)
  } finally {
    await client.end()
  }
}

async function buildDesk(db: Runner, d: Dialect, rows: number): Promise<DeskMirror> {
  const transactions = Math.max(2, Math.round(rows / 2))
  if (transactions >= 58 ** 5) throw new Error('Signatures number at most 58^5 transactions.')
  const t0 = performance.now()
  const { wallets, mints, tags } = await writeSmallTables(db)
  const indexes = await dropIndexes(db, d)
  // Each transaction's columns once, read by the three inserts below.
  await db.run(
    `create temp table desk_tx as select * from ${transactionLayers(d, transactions)} as t`,
  )
  // Without statistics PostgreSQL joins the mints by a nested loop: the pick 37 times a row.
  if (d.engine === 'postgres') await db.run('analyze desk_tx, desk_mints, desk_parties')
  const ordinals = '(select 0 as o union all select 1 union all select 2)'
  const changes = changeLayer(
    d,
    `(select t.*, k.o from desk_tx as t cross join ${ordinals} as k where k.o < t.cnt)`,
  )
  await db.run(directionsTable(changes))
  if (d.engine === 'postgres') await db.run('analyze desk_directions')
  await db.run(`insert into transactions (id, wallet_id, signature, slot, block_time_sec, fee,
      fee_text, fee_payer, error, is_failed, change_count, kind,
      has_change_in, has_change_out, has_leg_in, has_leg_out)
    select t.n + 1, t.wi + 1, ${signature(d, 't')}, t.slot, ${blockTime('t')},
      cast(t.fee as double precision) / 1000000000, '0.' || rtrim(${d.pad('cast(t.fee as text)', '9')}, '0'),
      case when t.cnt = 1 and t.failed = 0 and t.incoming = 1
        then (select p.address from desk_parties as p where p.i = t.hy / 1600 % ${PARTIES})
        else wl.address end,
      case when t.failed = 1 then 'custom program error: 0x1771' else null end,
      t.failed, t.cnt, ${kind('t', transactions)},
      dd.change_in, dd.change_out, dd.leg_in, dd.leg_out
    from desk_tx as t cross join wallets as wl
      join desk_directions as dd on dd.n = t.n
    where wl.id = t.wi + 1`)
  await db.run(`insert into balance_changes (id, transaction_id, wallet_id, ordinal, mint, amount,
      amount_text, amount_raw, decimals, block_time_sec, slot)
    select c.n / 2 * 4 + c.n % 2 * c.pa + c.o + 1, c.n + 1, c.wi + 1, c.o, c.mint,
      cast(c.raw as double precision) / c.scale, ${decimalText(d, 'c.raw', 'c.scale', 'c.decimals')},
      cast(c.raw as text), c.decimals, ${blockTime('c')}, c.slot
    from ${changes} as c`)
  // The transfer of a token leg (the last change), for half the transactions with one.
  const legs = changeLayer(
    d,
    `(select t.*, t.cnt - 1 as o from desk_tx as t
      where t.cnt >= 2 and t.undated = 0 and t.hy / 800 % 2 = 0)`,
  )
  await db.run(`insert into transfers (id, wallet_id, signature, block_time_sec, direction,
      counterparty, mint, amount, amount_text, amount_raw, decimals, symbol)
    select c.n + 1, c.wi + 1, ${signature(d, 'c')}, ${blockTime('c')},
      case when c.raw > 0 then 'in' else 'out' end, p.address, c.mint,
      cast(abs(c.raw) as double precision) / c.scale,
      ${decimalText(d, 'abs(c.raw)', 'c.scale', 'c.decimals')}, cast(abs(c.raw) as text),
      c.decimals, c.symbol
    from ${legs} as c cross join desk_parties as p where p.i = c.hy / 1600 % ${PARTIES}`)
  const loadMs = performance.now() - t0

  const t1 = performance.now()
  for (const create of indexes) await db.run(create)
  const syncedSec = FIRST_SEC + Math.floor((SPAN_SLOTS * 2) / 5)
  for (const [stream, table] of [
    ['history', 'transactions'],
    ['transfers', 'transfers'],
  ] as const) {
    await db.run(`insert into sync_streams (wallet_id, stream, items_stored, pages_fetched,
        is_backfill_complete, last_success_sec)
      select wallet_id, '${stream}', count(*), count(*) / 100 + 1, 1, ${syncedSec}
      from ${table} group by wallet_id`)
  }
  if (d.engine === 'postgres') {
    // Explicit ids leave the identities behind: the next row written must not collide.
    for (const table of ['wallets', 'transactions', 'balance_changes', 'transfers'])
      await db.run(`select setval(pg_get_serial_sequence('${table}', 'id'), max(id)) from ${table}`)
    // What autovacuum would do soon after such a load (and would do while the bench times
    // queries): statistics, and the visibility map index-only scans rely on.
    await db.run('vacuum (analyze)')
  }
  await db.run(
    'drop table desk_tx; drop table desk_mints; drop table desk_parties; drop table desk_directions',
  )
  const indexMs = performance.now() - t1

  const counts = await db.rows<{ wallet_id: number | string; n: number | string }>(
    `select wallet_id, items_stored as n from sync_streams where stream = 'history'`,
  )
  const countOf = new Map(counts.map((c) => [Number(c.wallet_id), Number(c.n)]))
  const [totals] = await db.rows<{ transfers: number | string; last_slot: number | string }>(
    `select (select count(*) from transfers) as transfers,
      (select max(slot) from transactions) as last_slot`,
  )
  const lastSlot = Number(totals?.last_slot ?? FIRST_SLOT)
  return {
    transactions,
    balanceChanges: transactions * 2,
    transfers: Number(totals?.transfers ?? 0),
    wallets: wallets.map((w) => ({ ...w, transactions: countOf.get(w.id) ?? 0 })),
    mints,
    tags,
    firstSlot: FIRST_SLOT,
    lastSlot,
    firstSec: FIRST_SEC,
    lastSec: FIRST_SEC + Math.floor(((lastSlot - FIRST_SLOT) * 2) / 5),
    loadMs,
    indexMs,
  }
}

/** Wallets, mints, names and tags, and the two look-up tables the row SQL joins. */
async function writeSmallTables(
  db: Runner,
): Promise<{ wallets: Omit<DeskWallet, 'transactions'>[]; mints: DeskMint[]; tags: string[] }> {
  const wallets = Array.from({ length: WALLETS }, (_, i) => ({
    id: i + 1,
    address: generatedAddress(100_000 + i),
    label: WALLET_LABELS[i] ?? (i % 3 === 0 ? `Desk ${i}` : null),
  }))
  await insertRows(
    db,
    'wallets (id, address, label, position, added_at_sec)',
    wallets.map((w, i) => [w.id, w.address, w.label, i, FIRST_SEC]),
  )
  await insertRows(
    db,
    'wallet_tags (wallet_id, tag)',
    wallets.flatMap((w, i) => walletTags(i).map((tag) => [w.id, tag])),
  )

  const mints = [
    ...FUNGIBLE.map(([symbol, decimals, price], i) => ({
      mint: KNOWN_MINTS[symbol] ?? generatedAddress(300_000 + i),
      symbol: symbol as string | null,
      name: `${symbol} token`,
      decimals,
      price,
    })),
    ...NFTS.map((name, i) => ({
      mint: generatedAddress(310_000 + i),
      symbol: null,
      name,
      decimals: 0,
      price: null,
    })),
  ]
  await insertRows(
    db,
    'mints (mint, symbol, name, decimals, logo_uri, token_program, price_usd, updated_at_sec)',
    mints.map((m) => [m.mint, m.symbol, m.name, m.decimals, null, 'spl-token', m.price, FIRST_SEC]),
  )
  // step: the smallest amount a change moves, 0.0001 of a token (an NFT moves by one).
  await db.run(`create temp table desk_mints (i integer primary key, mint text not null,
    symbol text, decimals integer not null, scale bigint not null, step bigint not null)`)
  await insertRows(
    db,
    'desk_mints (i, mint, symbol, decimals, scale, step)',
    mints.map((m, i) => [
      i,
      m.mint,
      m.symbol,
      m.decimals,
      10 ** m.decimals,
      10 ** Math.max(0, m.decimals - 4),
    ]),
  )

  const parties = Array.from({ length: PARTIES }, (_, i) => generatedAddress(200_000 + i))
  await db.run('create temp table desk_parties (i integer primary key, address text not null)')
  await insertRows(
    db,
    'desk_parties (i, address)',
    parties.map((address, i) => [i, address]),
  )
  const categories = ['exchange', 'defi', 'market maker', 'bridge']
  await insertRows(
    db,
    'address_names (address, status, name, type, category, fetched_at_sec)',
    parties
      .slice(0, NAMED_PARTIES)
      .map((address, i) => [
        address,
        'named',
        `Counterparty ${i + 1}`,
        'entity',
        categories[i % categories.length]!,
        FIRST_SEC,
      ]),
  )
  return {
    wallets,
    mints: mints.map(({ mint, symbol, decimals }) => ({ mint, symbol, decimals })),
    tags: [...new Set(wallets.flatMap((_, i) => walletTags(i)))],
  }
}

/** Inserts `rows` as literals in one statement: `into` is the table and its columns. */
async function insertRows(
  db: Runner,
  into: string,
  rows: readonly (readonly (string | number | null)[])[],
): Promise<void> {
  const literal = (v: string | number | null) =>
    v === null ? 'null' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`
  const values = rows.map((row) => `(${row.map(literal).join(', ')})`)
  await db.run(`insert into ${into} values ${values.join(',\n')}`)
}

/**
 * Drops the secondary indexes of the three large tables (those no constraint owns) and
 * returns the statements that create them again, as the migrations wrote them.
 */
async function dropIndexes(db: Runner, d: Dialect): Promise<string[]> {
  const tables = `'transactions', 'balance_changes', 'transfers'`
  const found = await db.rows<{ name: string; definition: string }>(
    d.engine === 'sqlite'
      ? `select name, sql as definition from sqlite_master
         where type = 'index' and tbl_name in (${tables}) and sql is not null`
      : `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
         from pg_index as i join pg_class as c on c.oid = i.indexrelid
         where i.indrelid::regclass::text in (${tables})
           and not exists (select 1 from pg_constraint as k where k.conindid = i.indexrelid)`,
  )
  for (const index of found) await db.run(`drop index ${index.name}`)
  return found.map((index) => index.definition)
}

/** A subquery over the one below: the columns it keeps, and those it adds from them. */
interface Layer {
  keep: readonly string[]
  add: Readonly<Record<string, string>>
}

/**
 * Wraps `from` in one subquery per layer. Each layer is computed once per row (the planner
 * may not inline it), and passes on only what is kept: SQLite copies every column of
 * every layer for every row.
 */
function layered(d: Dialect, from: string, layers: readonly Layer[]): string {
  return layers.reduce((below, { keep, add }, i) => {
    const list = [...keep, ...Object.entries(add).map(([name, sql]) => `${sql} as ${name}`)]
    return `(select ${list.join(', ')} from ${below} as l${i} ${d.keep})`
  }, from)
}

/** The hashes of a row: name → [the integer hashed, salt]. */
const HASHES: Readonly<Record<string, [string, number]>> = {
  hw: ['n', 1], // wallet, undated
  hp: ['n / 2', 2], // the pair's change counts
  hf: ['n', 3], // fee, failed
  hx: ['n', 4], // SOL moved
  hy: ['n', 5], // direction, NFT, SOL leg, transfer, counterparty
  hs: ['n', 6], // signature
  hm: ['n', 7], // token mints
  ha: ['n', 8], // the first token leg's amount
  hb: ['n', 9], // the second token leg's amount
}

/** The exact decimal text of a signed raw amount, as the writer stores it ('-1.5', '0.000005'). */
function decimalText(d: Dialect, raw: string, scale: string, decimals: string): string {
  const fraction = `cast(abs(${raw}) % ${scale} as text)`
  return `((case when ${raw} < 0 then '-' else '' end) || cast(abs(${raw}) / ${scale} as text)
    || (case when abs(${raw}) % ${scale} = 0 then ''
        else '.' || rtrim(${d.pad(fraction, decimals)}, '0') end))`
}

/**
 * An amount in smallest steps from hash `h`: 1 to 9,999 steps times 1 to 100,000, about
 * evenly spread over six decades, as a desk's amounts are.
 */
function amount(h: string): string {
  return `(1 + ${h} % 9999) * (case ${h} / 9999 % 6 when 0 then 1 when 1 then 10 when 2 then 100
    when 3 then 1000 when 4 then 10000 else 100000 end)`
}

/**
 * Every transaction's columns, computed from its number n, 0 … count - 1: n, wi (wallet
 * index), pa (the pair's split), cnt, slot, fee, x (SOL moved), sk (token pick), undated,
 * incoming, st (the token leg's sign), failed, nft, moved (SOL besides the fee), hashes.
 */
function transactionLayers(d: Dialect, count: number): string {
  const slotsPerPair = Math.max(2, Math.floor(SPAN_SLOTS / Math.ceil(count / 2)))
  const cube = (u: string, range: number) =>
    `${u} * ${u} / 1000000 * ${u} / 1000000 * ${range} / 1000000`
  const split = 'case hp % 4 when 0 then 1 when 3 then 3 else 2 end'
  const hashes = Object.keys(HASHES)
  return layered(d, d.series(count), [
    // Each hash: an affine step, then x² + c twice (mod a prime), on 64-bit integers.
    {
      keep: ['n'],
      add: Object.fromEntries(
        hashes.map((h) => {
          const [input, salt] = HASHES[h]!
          const affine = `((${input} * 48271 + ${salt}) % ${M})`
          return [`${h}2`, `(${affine} * ${affine} + 12345) % ${M}`]
        }),
      ),
    },
    {
      keep: ['n'],
      add: Object.fromEntries(hashes.map((h) => [h, `(${h}2 * ${h}2 + 67890) % ${M}`])),
    },
    {
      keep: ['n', 'hf', 'hy', 'hs', 'hm', 'ha', 'hb'],
      add: {
        wi: cube('(hw % 1000000)', WALLETS),
        pa: split,
        cnt: `case when n % 2 = 0 and n = ${count - 1} then 2
          when n % 2 = 0 then ${split} else 4 - ${split} end`,
        // Two transactions to a slot: ties the keyset's later columns break.
        slot: `${FIRST_SLOT} + n / 2 * ${slotsPerPair}`,
        fee: '5000 + hf % 4 * (hf / 4 % 25000)',
        x: `${amount('hx')} * 1000`,
        sk: cube('(hm % 1000000)', TOKENS),
        undated: 'case when hw / 1000000 % 1000 = 0 then 1 else 0 end',
        incoming: 'case when hy % 2 = 0 then 1 else 0 end',
        st: 'case when hy / 2 % 2 = 0 then 1 else -1 end',
      },
    },
    {
      keep: ['n', 'wi', 'pa', 'cnt', 'slot', 'fee', 'x', 'sk', 'undated', 'incoming', 'st'].concat([
        'hy',
        'hs',
        'hm',
        'ha',
        'hb',
      ]),
      add: {
        failed: 'case when cnt = 1 and hf / 100000 % 8 = 0 then 1 else 0 end',
        nft: 'case when cnt = 2 and hy / 4 % 100 = 0 then 1 else 0 end',
        moved: `case when cnt = 2 and (hy / 4 % 100 = 0 or hy / 400 % 5 < 2) then 1
          when cnt = 3 and hy / 400 % 5 = 0 then 1 else 0 end`,
      },
    },
  ])
}

/**
 * The temp table `desk_directions`: each transaction's direction flags from its balance
 * changes `changes` (a changeLayer), as the writer derives them (transactionDirections):
 * a change above / below zero; a leg, with the fee the wallet paid (all but SOL received
 * on another's fee) left out of its SOL (ordinal 0), above / below half a lamport. The
 * amounts are the doubles the rows hold, so the sums are the app's.
 */
function directionsTable(changes: string): string {
  const amount = 'cast(c.raw as double precision) / c.scale'
  const paysFee = 'not (c.cnt = 1 and c.failed = 0 and c.incoming = 1)'
  const net = `case when c.o = 0 and ${paysFee}
    then ${amount} + cast(c.fee as double precision) / 1000000000 else ${amount} end`
  const epsilon = `case when c.o = 0 then ${SOL_LEG_EPSILON} else 0 end`
  const any = (condition: string) => `max(case when ${condition} then 1 else 0 end)`
  return `create temp table desk_directions as
    select c.n, ${any('c.raw > 0')} as change_in, ${any('c.raw < 0')} as change_out,
      ${any(`${net} > ${epsilon}`)} as leg_in, ${any(`${net} < -(${epsilon})`)} as leg_out
    from ${changes} as c group by c.n`
}

/** Transaction `t`'s block time: two years of slots at 0.4 s; 0.1% have none. */
function blockTime(t: string): string {
  return `case when ${t}.undated = 1 then null
    else ${FIRST_SEC} + (${t}.slot - ${FIRST_SLOT}) * 2 / 5 end`
}

/** Transaction `t`'s signature: 4 random characters, 5 for its number, 79 of filler. */
function signature(d: Dialect, t: string): string {
  const digits = ['hs', 'hs / 58', 'hs / 3364', 'hs / 195112']
    .concat(['n', 'n / 58', 'n / 3364', 'n / 195112', 'n / 11316496'])
    .map((digit) => `${t}.${digit}`)
  return d.signature(digits, `${t}.hs / 11316496 % 100`)
}

/** Transaction `t`'s type as the writer derives it; none for the oldest 5%. */
function kind(t: string, count: number): string {
  return `case when ${t}.n < ${Math.floor(count / 20)} then null
    when ${t}.failed = 1 then 'UNKNOWN'
    when ${t}.cnt = 1 then 'TRANSFER'
    when ${t}.cnt = 3 then 'SWAP'
    when ${t}.nft = 1 then 'NFT_SALE'
    when ${t}.moved = 1 then 'SWAP'
    else 'TRANSFER' end`
}

/**
 * The balance change numbered `o` (a column of `from`, beside every transaction column):
 * its mint, symbol, decimals and scale (10^decimals) from desk_mints, and its signed raw
 * amount `raw`, with the transaction columns the rows need (n, wi, pa, o, slot, undated,
 * hs, hy).
 */
function changeLayer(d: Dialect, from: string): string {
  const mint = `case when c.o = 0 then 0
    when c.nft = 1 then ${FUNGIBLE.length} + c.hm % ${NFTS.length}
    when c.o = 1 then 1 + c.sk
    else 1 + (c.sk + 1 + c.hm / 1000000 % ${TOKENS - 1}) % ${TOKENS} end`
  // SOL: the fee (unless someone else paid it) and any SOL moved.
  const sol = `case when c.failed = 1 then -c.fee
    when c.cnt = 1 then (case when c.incoming = 1 then c.x else -c.fee - c.x end)
    when c.moved = 0 then -c.fee
    when c.cnt = 2 then -c.fee - c.st * c.x
    else -c.fee - c.x end`
  const raw = `case when c.o = 0 then ${sol}
    when c.nft = 1 then c.st
    when c.o = 2 then ${amount('c.hb')} * m.step
    when c.cnt = 3 then -${amount('c.ha')} * m.step
    else c.st * ${amount('c.ha')} * m.step end`
  const kept = ['n', 'wi', 'pa', 'o', 'slot', 'undated', 'hs', 'hy', 'fee', 'cnt', 'failed']
    .concat(['incoming'])
    .map((k) => `c.${k}`)
  return `(select ${kept.join(', ')}, m.mint, m.symbol, m.decimals, m.scale, ${raw} as raw
    from ${from} as c cross join desk_mints as m where m.i = ${mint} ${d.keep})`
}
