import { existsSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { startLocalPostgres, type LocalPostgres } from '../../scripts/postgres/local-postgres'
import { openPostgresMirror, type PostgresMirror } from '../../src-main/db/postgres/mirror'
import { fetchFeedPage, type FeedQuery } from '../../src-main/db/queries/feed-queries'
import {
  countHistory,
  fetchHistoryPage,
  listHistoryMints,
  type HistoryQuery,
} from '../../src-main/db/queries/history-queries'
import type { Database } from '../../src-main/db/schema'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import { FeedFilters, type FeedCursor, type FeedFiltersInput } from '@shared/ipc/feed-schemas'
import { HistoryFilters, type HistoryFiltersInput } from '@shared/ipc/review-schemas'
import { makeTempDir } from '../helpers/temp-dir'
import type { BenchFigure } from './bench-table'
import { mulberry32 } from '../helpers/history-mirror'
import type { ColdStartTiming } from './desk-cold-start'
import type { ExportTiming } from './desk-export'
import { runChild } from './run-child'
import {
  buildPostgresDesk,
  buildSqliteDesk,
  type DeskEngine,
  type DeskMirror,
  type DeskWallet,
} from './desk-mirror'
import { psqlCopyExport, sqliteCliExport, type ReferenceExport } from './export-reference'

// `npm run bench -- desk`: a desk's mirror of 10,000,000 balance-change rows (300 wallets,
// 5,000,000 transactions over two years, 37 mints, transfers), built with the same rows on
// SQLite and on PostgreSQL (desk-mirror.ts), and on each engine:
// 1. History: 200 random pages of 200 rows as the view asks for them (a random wallet,
//    random filters, newest or oldest first, a quarter of them deep down the keyset), and
//    the count the view asks for beside a filtered page; p99 of each (goal < 50 ms).
// 2. The feed: 200 random pages of 50 (wallets, tags, types, direction, token, minimum
//    USD, deep cursors; half with unread rows to count); p99 (goal < 50 ms).
// 3. Cold start: a fresh process opens the mirror as the app does and reads the largest
//    wallet's first History page; median of 3 (goal < 1 s).
// 4. Export of every balance change to CSV (full layout) with runExport, in a process of
//    its own (stopped after 10 minutes), against the database's own CSV writer on the same
//    rows (goal: ≤ 1.2 times its time).
// 5. The mirror's bytes per balance-change row (SQLite: file and WAL; PostgreSQL: the
//    database's size).
// The pages are drawn once (seeded) and replayed on the second engine, which must answer
// them alike. Run: npx tsx test/bench/desk.bench.ts [rows] [sqlite|postgres]

const PAGE_GOAL_MS = 50
const COLD_START_GOAL_MS = 1_000
const EXPORT_GOAL_RATIO = 1.2
const CASES = 200
/** Pages read untimed first: statements prepared, caches warm, as in a session under way. */
const WARM_UP_CASES = 10
const COLD_STARTS = 3
const COLD_START_LIMIT_MS = 60_000
/** An export still running after this is stopped (at least 4 times the reference tools at 10M). */
const EXPORT_LIMIT_MS = 600_000
const HISTORY_PAGE_ROWS = 200
const FEED_PAGE_ROWS = 50
const FEED_KINDS = ['SWAP', 'TRANSFER', 'NFT_SALE', 'UNKNOWN']
const DAY_SEC = 86_400
/** Slots in an hour (0.4 s each). */
const HOUR_SLOTS = 9_000
/** CSV bytes a balance-change row takes at most, to check the disk before an export. */
const CSV_BYTES_PER_ROW = 320

export interface DeskBenchOptions {
  /** Balance-change rows of the mirror (two per transaction); 10,000,000 by default. */
  rows?: number
  /** The engines to run, in order; both by default. */
  engines?: DeskEngine[]
}

type DeskMirrorHandle = SqliteMirror | PostgresMirror

/** A History page as the view asks for it. */
interface HistoryCase {
  label: string
  walletId: number
  query: HistoryQuery
  /** The view counts only a filtered history; unfiltered, the sync's count is shown. */
  isFiltered: boolean
}

interface FeedCase {
  label: string
  query: FeedQuery
}

interface Cases {
  history: HistoryCase[]
  feed: FeedCase[]
}

/** One engine's timings of a list of cases, and what each answered. */
interface Timed {
  ms: number[]
  labels: string[]
  answers: string[]
}

/** What one engine answered, to compare with the other. */
interface EngineAnswers {
  history: string[]
  feed: string[]
}

/**
 * Builds the desk mirror on each engine, times History, the feed, a cold start and the
 * export on it, and prints each figure beside its goal.
 *
 * @example
 * await runDeskBench({ rows: 1_000_000 }) // a tenth of the desk, to try the bench
 */
export async function runDeskBench(
  options: DeskBenchOptions = {},
): Promise<{ figures: BenchFigure[] }> {
  const rows = options.rows ?? 10_000_000
  const engines = options.engines ?? ['sqlite', 'postgres']
  const temp = makeTempDir('heliograph-desk-bench-')
  const figures: BenchFigure[] = []
  let server: LocalPostgres | null = null
  let cases: Cases | null = null
  const answers: EngineAnswers[] = []
  try {
    const free = statfsSync(temp.dir)
    process.stdout.write(
      `desk: ${rows.toLocaleString('en-US')} balance-change rows in ${temp.dir} (${gb(free.bavail * free.bsize)} free)\n`,
    )
    for (const engine of engines) {
      let location = join(temp.dir, 'heliograph.sqlite')
      if (engine === 'postgres') {
        server ??= await startLocalPostgres()
        location = await server.createDatabase('desk')
      }
      const run = await benchEngine(engine, location, rows, temp.dir, cases)
      cases ??= run.cases
      answers.push(run.answers)
      figures.push(...run.figures)
      // The next engine's mirror gets the disk and the page cache.
      if (engine === 'sqlite')
        for (const end of ['', '-wal', '-shm']) rmSync(location + end, { force: true })
      else await server?.dropDatabase('desk')
    }
    const [first, second] = answers
    if (first && second) {
      const same = (a: string[], b: string[]) => a.filter((answer, i) => answer === b[i]).length
      process.stdout.write(
        `both engines answered alike: ${same(first.history, second.history)}/${first.history.length} History pages, ${same(first.feed, second.feed)}/${first.feed.length} feed pages\n`,
      )
    }
    return { figures }
  } finally {
    await server?.stop()
    temp.remove()
  }
}

async function benchEngine(
  engine: DeskEngine,
  location: string,
  rows: number,
  dir: string,
  drawn: Cases | null,
): Promise<{ cases: Cases; answers: EngineAnswers; figures: BenchFigure[] }> {
  const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'
  const size = shortCount(rows)
  const t0 = performance.now()
  const desk =
    engine === 'sqlite'
      ? await buildSqliteDesk(location, rows)
      : await buildPostgresDesk(location, rows)
  const buildMs = performance.now() - t0
  process.stdout.write(
    `\n${name}: built ${n(desk.balanceChanges)} balance changes, ${n(desk.transactions)} transactions, ${n(desk.transfers)} transfers in ${sec(buildMs)} ` +
      `(rows ${sec(desk.loadMs)}, indexes${engine === 'postgres' ? ' and vacuum' : ''} ${sec(desk.indexMs)}); ` +
      `wallets of ${n(desk.wallets[0]?.transactions ?? 0)} down to ${n(Math.min(...desk.wallets.map((w) => w.transactions)))} transactions\n`,
  )

  const mirror = await openMirror(engine, location)
  let cases: Cases
  let history: Timed
  let counts: Timed
  let feed: Timed
  let bytes: number
  try {
    const { db } = mirror.database
    cases = drawn ?? (await drawCases(db, desk))
    process.stdout.write(`${name}: timing pages (load average ${load()})\n`)
    history = await timeCases(cases.history, async (c) => {
      const page = await fetchHistoryPage(db, c.walletId, c.query)
      return `${page.rows.length} ${page.rows[0]?.signature ?? ''} ${page.rows.at(-1)?.signature ?? ''}`
    })
    const filtered = cases.history.filter((c) => c.isFiltered)
    counts = await timeCases(filtered, async (c) => {
      const count = await countHistory(db, c.walletId, c.query.filters)
      return `${count.count}${count.isCapped ? '+' : ''}`
    })
    feed = await timeCases(cases.feed, async (c) => {
      const page = await fetchFeedPage(db, c.query)
      return `${page.rows.length} ${page.rows[0]?.signature ?? ''} ${page.rows.at(-1)?.signature ?? ''} ${page.unreadCount}`
    })
    bytes = await mirrorBytes(mirror, location)
  } finally {
    await mirror.close()
  }
  reportTimings(`${name} History page (${HISTORY_PAGE_ROWS} rows)`, history)
  reportTimings(`${name} History count (filtered views)`, counts)
  reportTimings(`${name} feed page (${FEED_PAGE_ROWS} rows)`, feed)

  const whale = desk.wallets[0] as DeskWallet
  const starts = await coldStarts(location, whale.address)
  const firstPageMs = median(starts.map((s) => s.firstPageMs))
  process.stdout.write(
    `${name} cold start to ${whale.label ?? 'the largest wallet'}'s first History page (${n(whale.transactions)} transactions): ` +
      `${starts.map((s) => `${s.firstPageMs.toFixed(0)} ms`).join(', ')} ` +
      `(open ${median(starts.map((s) => s.openMs)).toFixed(0)} ms; from the process's start ${sec(median(starts.map((s) => s.sinceProcessStartMs)))}, modules compiled by tsx)\n`,
  )

  const { ours, reference } = await timeExports(engine, location, dir, rows)
  // A stopped export counts as the limit: its ratio is at least that.
  const oursMs = ours?.ms ?? EXPORT_LIMIT_MS
  const ratio = reference ? oursMs / reference.ms : null
  const ratioText = ratio === null ? '' : `${ours ? '' : '> '}${ratio.toFixed(2)}`
  process.stdout.write(
    `export ${size}: heliograph ${ours ? sec(ours.ms) : `stopped unfinished after ${sec(EXPORT_LIMIT_MS)}`}` +
      (reference
        ? `, ${reference.tool} ${sec(reference.ms)} (ratio ${ratioText})`
        : `, no ${engine === 'sqlite' ? 'sqlite3' : 'psql'} on PATH to compare with`) +
      (ours ? ` — ${n(ours.rows)} rows, ${gb(ours.bytes)}` : '') +
      (reference ? `${ours ? ' and' : ' —'} ${gb(reference.bytes)}` : '') +
      '\n',
  )
  const perRow = bytes / desk.balanceChanges
  process.stdout.write(
    `${name} mirror: ${gb(bytes)}, ${perRow.toFixed(0)} bytes per balance-change row (transactions, transfers and indexes included)\n`,
  )

  const page = (timed: Timed) => percentile(timed.ms, 0.99)
  const figures: BenchFigure[] = [
    {
      figure: `${name}: ${size}-row desk built (rows, indexes)`,
      goal: '—',
      measured: `${sec(buildMs)} (${sec(desk.loadMs)}, ${sec(desk.indexMs)})`,
      met: null,
    },
    ...(
      [
        ['History page', history],
        ['History count (filtered)', counts],
        ['feed page', feed],
      ] as const
    ).map(([what, timed]) => ({
      figure: `${name}: ${what} p99, ${timed.ms.length} random on ${size} rows`,
      goal: `< ${PAGE_GOAL_MS} ms`,
      measured: `${page(timed).toFixed(1)} ms (p50 ${percentile(timed.ms, 0.5).toFixed(1)}, max ${Math.max(...timed.ms).toFixed(1)})`,
      met: page(timed) < PAGE_GOAL_MS,
    })),
    {
      figure: `${name}: cold start to the first History page (fresh process, ${size} rows)`,
      goal: `< ${sec(COLD_START_GOAL_MS)}`,
      measured: `${firstPageMs.toFixed(0)} ms (median of ${starts.length})`,
      met: firstPageMs < COLD_START_GOAL_MS,
    },
    {
      figure: `${name}: export ${size} rows, heliograph ÷ ${reference?.tool ?? 'reference'}`,
      goal: `≤ ${EXPORT_GOAL_RATIO}`,
      measured:
        (ratio === null ? 'no reference tool' : ratioText) +
        ` (${ours ? sec(ours.ms) : `stopped at ${sec(EXPORT_LIMIT_MS)}`}` +
        `${reference ? ` vs ${sec(reference.ms)}` : ''})`,
      met: ratio === null ? (ours ? null : false) : ratio <= EXPORT_GOAL_RATIO,
    },
    {
      figure: `${name}: mirror bytes per balance-change row`,
      goal: '—',
      measured: `${perRow.toFixed(0)} B (${gb(bytes)})`,
      met: null,
    },
  ]
  return {
    cases,
    answers: { history: history.answers, feed: feed.answers },
    figures,
  }
}

function openMirror(engine: DeskEngine, location: string): Promise<DeskMirrorHandle> {
  return engine === 'sqlite' ? openSqliteMirror(location) : openPostgresMirror(location)
}

/**
 * Draws the History and feed pages (seeded, so every run reads the same ones): half the
 * wallets picked at random, half in proportion to their transactions (the wallet of a
 * random row), so the whale is read about as often as a person scrolling a desk meets it.
 */
async function drawCases(db: Kysely<Database>, desk: DeskMirror): Promise<Cases> {
  const random = mulberry32(2026)
  const chance = (p: number) => random() < p
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const total = desk.wallets.reduce((sum, w) => sum + w.transactions, 0)
  const pickWallet = (): DeskWallet => {
    if (chance(0.5)) return pick(desk.wallets)
    let row = random() * total
    for (const w of desk.wallets) if ((row -= w.transactions) < 0) return w
    return desk.wallets.at(-1) as DeskWallet
  }
  // A transaction of the wallet at a random point of the two years (its next one).
  const someRow = async (walletId: number) => {
    const slot = desk.firstSlot + Math.floor(random() * (desk.lastSlot - desk.firstSlot))
    const at = (direction: 'asc' | 'desc') =>
      db
        .selectFrom('transactions')
        .select(['block_time_sec', 'slot', 'signature'])
        .where('wallet_id', '=', walletId)
        .where('slot', direction === 'asc' ? '>=' : '<=', slot)
        .orderBy('slot', direction)
        .limit(1)
        .executeTakeFirst()
    return (await at('asc')) ?? (await at('desc'))!
  }
  const mintsOf = new Map<number, string[]>()

  const history: HistoryCase[] = []
  for (let i = 0; i < CASES; i++) {
    const wallet = pickWallet()
    const filters: HistoryFiltersInput = {}
    const label: string[] = [`wallet of ${n(wallet.transactions)}`]
    if (chance(0.35)) {
      if (!mintsOf.has(wallet.id))
        mintsOf.set(
          wallet.id,
          (await listHistoryMints(db, wallet.id)).map((m) => m.mint),
        )
      filters.mint = pick(mintsOf.get(wallet.id) ?? [])
      label.push(`mint ${desk.mints.find((m) => m.mint === filters.mint)?.symbol ?? 'NFT'}`)
    }
    if (chance(0.3)) {
      filters.direction = chance(0.5) ? 'in' : 'out'
      label.push(filters.direction)
    }
    if (chance(0.3)) {
      // One day to six months, anywhere in the two years.
      const span = Math.round(DAY_SEC * Math.exp(random() * Math.log(180)))
      filters.fromSec = desk.firstSec + Math.floor(random() * (desk.lastSec - desk.firstSec - span))
      filters.toSec = filters.fromSec + span
      label.push(`${Math.round(span / DAY_SEC)} days`)
    }
    if (chance(0.1)) {
      filters.isFailedOnly = true
      label.push('failed only')
    }
    if (chance(0.1)) {
      // A pasted signature, or the first characters typed.
      const { signature } = await someRow(wallet.id)
      filters.signature = chance(0.5) ? signature : signature.slice(0, 1 + Math.floor(random() * 8))
      label.push(`search ${filters.signature.length} chars`)
    }
    const order = chance(0.75) ? 'newest' : 'oldest'
    label.push(order)
    let cursor: HistoryQuery['cursor'] = null
    if (chance(0.25)) {
      // Deep in the list: where paging down would continue from that row.
      const row = await someRow(wallet.id)
      cursor = { blockTimeSec: row.block_time_sec, slot: row.slot, signature: row.signature }
      label.push('deep')
    }
    history.push({
      label: label.join(', '),
      walletId: wallet.id,
      query: { order, filters: HistoryFilters.parse(filters), cursor, limit: HISTORY_PAGE_ROWS },
      isFiltered: Object.keys(filters).length > 0,
    })
  }

  const keyOf = async (id: number): Promise<FeedCursor> =>
    (await db
      .selectFrom('transactions')
      .select(['slot', 'id'])
      .where('id', '=', id)
      .executeTakeFirst())!
  const keyAt = async (slot: number): Promise<FeedCursor> =>
    (await db
      .selectFrom('transactions')
      .select(['slot', 'id'])
      .where('slot', '>=', slot)
      .orderBy('slot')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst())!
  const symbols = desk.mints.flatMap((m) => (m.symbol === null ? [] : [m.symbol]))
  const feed: FeedCase[] = []
  for (let i = 0; i < CASES; i++) {
    const filters: FeedFiltersInput = {}
    const label: string[] = []
    if (chance(0.25)) {
      filters.wallets = [
        ...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, pickWallet)),
      ].map((w) => w.address)
      label.push(`${filters.wallets.length} wallets`)
    }
    if (chance(0.15)) {
      filters.tags = [pick(desk.tags)]
      label.push(`tag ${filters.tags[0]}`)
    }
    if (chance(0.2)) {
      filters.kinds = [...new Set([pick(FEED_KINDS), ...(chance(0.3) ? [pick(FEED_KINDS)] : [])])]
      label.push(filters.kinds.join('+'))
    }
    if (chance(0.2)) {
      filters.direction = chance(0.5) ? 'in' : 'out'
      label.push(filters.direction)
    }
    if (chance(0.25)) {
      filters.token = pick(symbols)
      label.push(filters.token)
    }
    if (chance(0.1)) {
      filters.minUsd = pick([10, 100, 1_000, 10_000])
      label.push(`≥ $${filters.minUsd}`)
    }
    const cursor = chance(0.25) ? await keyOf(1 + Math.floor(random() * desk.transactions)) : null
    if (cursor) label.push('deep')
    // Half have an unread mark: the person last looked an hour to a month ago.
    const lastViewed = chance(0.5)
      ? await keyAt(desk.lastSlot - Math.round(HOUR_SLOTS * Math.exp(random() * Math.log(720))))
      : null
    feed.push({
      label: label.length > 0 ? label.join(', ') : 'everything',
      query: {
        filters: FeedFilters.parse(filters),
        cursor,
        newerThan: null,
        limit: FEED_PAGE_ROWS,
        lastViewed,
        unreadCap: 999,
      },
    })
  }
  return { history, feed }
}

/** Runs each case once (after a few untimed), recording its time and what it answered. */
async function timeCases<C extends { label: string }>(
  cases: readonly C[],
  read: (c: C) => Promise<string>,
): Promise<Timed> {
  for (const c of cases.slice(0, WARM_UP_CASES)) await read(c)
  const timed: Timed = { ms: [], labels: [], answers: [] }
  for (const c of cases) {
    const t0 = performance.now()
    const answer = await read(c)
    timed.ms.push(performance.now() - t0)
    timed.labels.push(c.label)
    timed.answers.push(answer)
  }
  return timed
}

function reportTimings(what: string, timed: Timed): void {
  const slowest = timed.ms
    .map((ms, i) => ({ ms, label: timed.labels[i] }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
  process.stdout.write(
    `${what}: p50 ${percentile(timed.ms, 0.5).toFixed(1)} ms, p99 ${percentile(timed.ms, 0.99).toFixed(1)} ms (goal < ${PAGE_GOAL_MS} ms) over ${timed.ms.length}; ` +
      `slowest ${slowest.map((s) => `${s.ms.toFixed(1)} ms (${s.label})`).join('; ')}\n`,
  )
}

/** The largest wallet's first History page in fresh processes, one after another. */
async function coldStarts(location: string, address: string): Promise<ColdStartTiming[]> {
  const runs: ColdStartTiming[] = []
  for (let i = 0; i < COLD_STARTS; i++) {
    const output = await runChild('./desk-cold-start.ts', [location, address], COLD_START_LIMIT_MS)
    if (output === null) throw new Error(`A cold start took over ${sec(COLD_START_LIMIT_MS)}.`)
    runs.push(JSON.parse(output) as ColdStartTiming)
  }
  return runs
}

/**
 * Exports every balance change with runExport in a process of its own (stopped at the
 * limit: null), then with the database's own CSV writer, each file removed once measured.
 */
async function timeExports(
  engine: DeskEngine,
  location: string,
  dir: string,
  rows: number,
): Promise<{ ours: ExportTiming | null; reference: ReferenceExport | null }> {
  const free = statfsSync(dir)
  if (free.bavail * free.bsize < rows * CSV_BYTES_PER_ROW * 1.2)
    throw new Error(`Not enough free disk in ${dir} for a CSV of ${n(rows)} rows.`)
  const out = join(dir, 'desk-export.csv')
  const removeOutput = () => {
    for (const file of readdirSync(dir))
      if (file.startsWith('desk-export.csv')) rmSync(join(dir, file), { force: true })
  }
  let ours: ExportTiming | null
  try {
    process.stdout.write(`exporting ${n(rows)} rows (load average ${load()})\n`)
    const output = await runChild('./desk-export.ts', [location, out], EXPORT_LIMIT_MS)
    ours = output === null ? null : (JSON.parse(output) as ExportTiming)
  } finally {
    removeOutput()
  }
  const referenceOut = join(dir, 'desk-reference.csv')
  try {
    const reference =
      engine === 'sqlite'
        ? await sqliteCliExport(location, referenceOut)
        : await psqlCopyExport(location, referenceOut)
    return { ours, reference }
  } finally {
    rmSync(referenceOut, { force: true })
  }
}

/** The mirror's size on disk: the SQLite file and its WAL, or the PostgreSQL database. */
async function mirrorBytes(mirror: DeskMirrorHandle, location: string): Promise<number> {
  if (mirror.engine === 'sqlite') {
    const wal = `${location}-wal`
    return statSync(location).size + (existsSync(wal) ? statSync(wal).size : 0)
  }
  const { rows } = await sql<{
    size: number
  }>`select pg_database_size(current_database()) as size`.execute(mirror.database.db)
  return Number(rows[0]?.size ?? 0)
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0
}

function median(values: readonly number[]): number {
  return percentile(values, 0.5)
}

const n = (v: number) => Math.round(v).toLocaleString('en-US')
const sec = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
const gb = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`
const load = () => loadavg()[0]!.toFixed(1)

/** 10,000,000 → '10M', 250,000 → '250k'. */
function shortCount(v: number): string {
  if (v >= 1e6 && v % 1e5 === 0) return `${v / 1e6}M`
  if (v >= 1e3 && v % 100 === 0) return `${v / 1e3}k`
  return n(v)
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  const engine = process.argv[3] as DeskEngine | undefined
  runDeskBench({
    rows: Number(process.argv[2] ?? 10_000_000),
    ...(engine ? { engines: [engine] } : {}),
  }).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
