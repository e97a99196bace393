import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { startLocalPostgres } from '../../scripts/postgres/local-postgres'
import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { fetchFeedPage, type FeedQuery } from '../../src-main/db/queries/feed-queries'
import type { Database } from '../../src-main/db/schema'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { FeedFilters, type FeedCursor, type FeedFiltersInput } from '@shared/ipc/feed-schemas'
import { generateHistoryMirror, type GeneratedMirror } from '../helpers/history-mirror'
import { makeTempDir } from '../helpers/temp-dir'
import { testAddress } from '../helpers/wallets'
import type { BenchFigure } from './bench-table'
import { copyMirror } from './postgres.bench'

// `npm run bench -- feed`: the feed over a mirror of about 1,000,000 transactions in 35
// wallets (a whale of 600,000, four of 80,000, thirty of 2,600, their slots interleaved),
// a page of 50 rows per filter, p50 and p99 of 60 runs, on SQLite and on PostgreSQL (the
// same rows copied over). Goal: every page under 20 ms.

const GOAL_MS = 20
const RUNS = 60
const PAGE_ROWS = 50

interface FeedTiming {
  name: string
  p50Ms: number
  p99Ms: number
  rows: number
}

/** Wallets of the mirror: sizes, and which are tagged `desk`. */
const WALLETS = [
  600_000,
  ...Array.from({ length: 4 }, () => 80_000),
  ...Array.from({ length: 30 }, () => 2_600),
]

export function buildMirror(sqlite: BetterSqlite3.Database, scale: number): GeneratedMirror[] {
  const mirrors = WALLETS.map((count, i) =>
    generateHistoryMirror(sqlite, {
      address: testAddress(500 + i),
      label: i === 0 ? 'Whale' : undefined,
      count: Math.max(10, Math.round(count * scale)),
      seed: 3000 + i,
    }),
  )
  // Types as the writer derives them; NFT sales rare (0.5%), rows from before types 5%.
  sqlite.exec(`update transactions set kind = case
      when id % 200 = 0 then 'NFT_SALE'
      when id % 20 = 1 then null
      when id % 3 = 0 then 'SWAP'
      when is_failed = 1 then 'UNKNOWN'
      else 'TRANSFER' end`)
  const tag = sqlite.prepare('insert into wallet_tags (wallet_id, tag) values (?, ?)')
  for (const m of [mirrors[1], mirrors[10], mirrors[20], mirrors[30]]) tag.run(m!.walletId, 'desk')
  tag.run(mirrors[0]!.walletId, 'whale')
  sqlite.exec('analyze')
  return mirrors
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0
}

async function timeFeed(
  db: Kysely<Database>,
  mirrors: GeneratedMirror[],
  total: number,
): Promise<FeedTiming[]> {
  const base = (filters: FeedFiltersInput): FeedQuery => ({
    filters: FeedFilters.parse(filters),
    cursor: null,
    newerThan: null,
    limit: PAGE_ROWS,
    lastViewed: null,
    unreadCap: 999,
  })
  // A cursor half-way down the feed, and a last-viewed mark 5,000 rows down.
  const keyAt = async (rows: number): Promise<FeedCursor> => {
    let cursor: FeedCursor | null = null
    for (let read = 0; read < rows; read += 200) {
      const page = await fetchFeedPage(db, { ...base({}), cursor, limit: 200 })
      cursor = page.nextCursor
    }
    return cursor!
  }
  const middle = await keyAt(Math.min(20_000, total / 2))
  const mark = await keyAt(5_000)
  const small = mirrors[12]!
  const whale = mirrors[0]!
  const cases: [string, FeedQuery][] = [
    ['newest page, every wallet', base({})],
    ['a page 20,000 rows down (keyset cursor)', { ...base({}), cursor: middle }],
    ['one small wallet (2,600 rows)', base({ wallets: [small.address] })],
    ['the whale alone', base({ wallets: [whale.address] })],
    ['tag (4 wallets)', base({ tags: ['desk'] })],
    [
      'three wallets, one of them the whale',
      base({ wallets: [whale.address, small.address, mirrors[3]!.address] }),
    ],
    ['type SWAP', base({ kinds: ['SWAP'] })],
    ['type NFT_SALE (0.5%)', base({ kinds: ['NFT_SALE'] })],
    ['direction in', base({ direction: 'in' })],
    ['direction out', base({ direction: 'out' })],
    ['token USDC (common)', base({ token: 'USDC' })],
    ['token RARE (0.4% of rows)', base({ token: 'RARE' })],
    ['token USDC in one small wallet', base({ token: 'USDC', wallets: [small.address] })],
    ['token RARE in the whale', base({ token: 'RARE', wallets: [whale.address] })],
    ['type NFT_SALE in the whale', base({ wallets: [whale.address], kinds: ['NFT_SALE'] })],
    ['minimum $100', base({ minUsd: 100 })],
    ['tag + type + direction', base({ tags: ['desk'], kinds: ['TRANSFER'], direction: 'out' })],
    ['unread count (5,000 new, capped at 999)', { ...base({}), lastViewed: mark }],
    ['following: rows newer than the top', { ...base({}), newerThan: mark, limit: 200 }],
  ]
  const timings: FeedTiming[] = []
  for (const [name, query] of cases) {
    const times: number[] = []
    let rows = 0
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      rows = (await fetchFeedPage(db, query)).rows.length
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    timings.push({ name, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), rows })
  }
  return timings
}

export async function runFeedQueriesBench(scale = 1): Promise<{ figures: BenchFigure[] }> {
  const temp = makeTempDir('heliograph-feed-bench-')
  const database = await openDatabase(join(temp.dir, 'heliograph.sqlite'))
  const server = await startLocalPostgres()
  const figures: BenchFigure[] = []
  try {
    database.sqlite.pragma('cache_size = -262144')
    const t0 = performance.now()
    const mirrors = buildMirror(database.sqlite, scale)
    const total = (
      database.sqlite.prepare('select count(*) as n from transactions').get() as { n: number }
    ).n
    process.stdout.write(
      `feed mirror: ${total.toLocaleString('en-US')} transactions in ${mirrors.length} wallets, built in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    )
    const onSqlite = await timeFeed(database.db, mirrors, total)
    const postgres = await openPostgresMirror(await server.createDatabase('feed_bench'))
    let onPostgres: FeedTiming[]
    try {
      await copyMirror(database.sqlite, postgres.database.db, [
        'wallets',
        'mints',
        'transactions',
        'balance_changes',
        'transfers',
        'wallet_tags',
      ])
      onPostgres = await timeFeed(postgres.database.db, mirrors, total)
    } finally {
      await postgres.close()
    }
    const ms = (v: number) => `${v.toFixed(2)}`.padStart(7)
    process.stdout.write(
      `\n  ${'page of 50'.padEnd(42)} ${'SQLite p50   p99'.padStart(18)}   ${'PostgreSQL p50   p99'.padStart(21)}   rows\n`,
    )
    for (const [i, s] of onSqlite.entries()) {
      const p = onPostgres[i]!
      process.stdout.write(
        `  ${s.name.padEnd(42)} ${ms(s.p50Ms)} ${ms(s.p99Ms)} ms   ${ms(p.p50Ms)} ${ms(p.p99Ms)} ms   ${s.rows}${s.rows === p.rows ? '' : ` (PostgreSQL ${p.rows})`}\n`,
      )
    }
    for (const [engine, timings] of [
      ['SQLite', onSqlite],
      ['PostgreSQL', onPostgres],
    ] as const) {
      const worst = timings.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a))
      figures.push({
        figure: `${engine}: feed page on ${total.toLocaleString('en-US')} rows, slowest p99`,
        goal: `< ${GOAL_MS} ms`,
        measured: `${worst.p99Ms.toFixed(1)} ms (${worst.name})`,
        met: worst.p99Ms < GOAL_MS,
      })
    }
    return { figures }
  } finally {
    await database.close()
    await server.stop()
    temp.remove()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runFeedQueriesBench(Number(process.argv[2] ?? 1))
}
