import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Mirror } from '../../src-main/db/mirror'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import type { ServiceClient } from '../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import { HISTORY_PAGE_LIMIT } from '../../src-main/sync/streams/history-stream'
import { createSyncRuntime, type SyncRuntime } from '../../src-main/sync/sync-runtime'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { profileAddressOf, startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'
import {
  runBackfillResponsiveness,
  type BackfillResponsivenessFigures,
} from './backfill-responsiveness'
import type { BenchFigure } from './bench-table'

// Issue 5, "Done means": ingest time of a 100k-transaction wallet from the simulator (rate
// limit off) against a bare fetch loop over the same pages that stores nothing, as a ratio
// (goal ≤ 1.2); and rows/s of the ingest path alone. The wallet is the whale, limited to
// its newest 100,000 transactions (history stream only). Both loops use the same service
// client and `before` cursors, so the difference is what the engine adds: shaper, meter,
// ledger row per call, and the page-plus-cursor transaction (on the mirror writer's worker
// thread, as the app runs it, overlapping the next page's fetch). Then the mirror's bytes
// per stored transaction, and the main thread's responsiveness during a whale backfill
// (backfill-responsiveness.ts).
// Run: npx tsx test/bench/sync-ingest.bench.ts [transactions]

export interface SyncIngestBenchFigures {
  transactions: number
  pages: number
  engineMs: number
  bareFetchMs: number
  ratio: number
  ingestOnlyMs: number
  ingestRowsPerSec: number
  balanceChangeRowsPerSec: number
  /** The engine's mirror file (checkpointed) over the transactions it holds. */
  mirrorBytesPerTransaction: number
  responsiveness: BackfillResponsivenessFigures
  /** The rows of `npm run bench`'s table. */
  figures: BenchFigure[]
}

const NO_BUDGET = { dailyCredits: null, monthlyCredits: null }

async function openRuntime(
  dir: string,
  name: string,
  simUrl: string,
): Promise<{ mirror: SqliteMirror; runtime: SyncRuntime }> {
  // As the app runs it: page writes on the mirror writer's worker thread.
  const mirror = await openSqliteMirror(join(dir, `${name}.sqlite`), { writeIn: 'worker' })
  const runtime = createSyncRuntime({
    mirror,
    service: singleOriginServiceSettings(simUrl, 'demo', { timeoutMs: 30_000 }),
    rate: 'off',
    budget: async () => NO_BUDGET,
  })
  return { mirror, runtime }
}

/** Walks the history newest → oldest with `before`, as the backfill does; keeps pages only when asked. */
export async function fetchPages(
  client: ServiceClient,
  wallet: string,
  pages: number,
  keep?: HistoryEntry[][],
): Promise<number> {
  let before: string | undefined
  let items = 0
  for (let page = 0; page < pages; page++) {
    const response = await client.call('wallet.history', {
      wallet,
      limit: HISTORY_PAGE_LIMIT,
      ...(before === undefined ? {} : { before }),
    })
    items += response.data.length
    keep?.push(response.data)
    before = response.pagination.nextCursor ?? response.data.at(-1)?.signature
    if (!response.pagination.hasMore || before === undefined) break
  }
  return items
}

/** Runs the sync-ingest benchmark and prints its figures. */
export async function runSyncIngestBench(transactions = 100_000): Promise<SyncIngestBenchFigures> {
  const temp = makeTempDir('heliograph-sync-bench-')
  // Out of process, like the real service: fetching the next page overlaps writing this one.
  const sim = await startSimulatorProcess(['--seed', '42'])
  const opened: SqliteMirror[] = []
  try {
    const whale = await profileAddressOf(sim.url, 'whale')
    const pages = Math.ceil(transactions / HISTORY_PAGE_LIMIT)

    // Warm up the connection, the JIT and the simulator on both paths (a separate mirror).
    const warm = await openRuntime(temp.dir, 'warm-up', sim.url)
    opened.push(warm.mirror)
    await warm.mirror.watchlist.add({ address: whale }, 1_700_000_000)
    await warm.mirror.syncState.setDepthLimit(whale, { maxTransactions: 2_000, sinceSec: null })
    await warm.runtime.engine.syncWallet(whale, { streams: ['history'] })
    await fetchPages(warm.runtime.client, whale, 20)

    // The engine: fetch, validate, meter, store each page with its cursor.
    const { mirror, runtime } = await openRuntime(temp.dir, 'engine', sim.url)
    opened.push(mirror)
    await mirror.watchlist.add({ address: whale }, 1_700_000_000)
    await mirror.syncState.setDepthLimit(whale, { maxTransactions: transactions, sinceSec: null })
    // The writer's thread is started (and its code loaded) before the clock starts.
    await mirror.writer.walletId(whale)
    const t0 = performance.now()
    const outcome = await runtime.engine.syncWallet(whale, { streams: ['history'] })
    const engineMs = performance.now() - t0
    if (outcome.state !== 'ok' || outcome.newTransactions !== transactions) {
      throw new Error(
        `engine ingest ended ${outcome.state} with ${outcome.newTransactions} transactions: ${JSON.stringify(outcome)}`,
      )
    }

    // The bare loop: the same client and cursors, nothing stored.
    const t1 = performance.now()
    const fetched = await fetchPages(runtime.client, whale, pages)
    const bareFetchMs = performance.now() - t1
    if (fetched !== transactions) throw new Error(`bare loop fetched ${fetched} of ${transactions}`)

    // The ingest path alone: the same pages, fetched beforehand, written page by page.
    const prefetched: HistoryEntry[][] = []
    await fetchPages(runtime.client, whale, pages, prefetched)
    const ingest = await openSqliteMirror(join(temp.dir, 'ingest-only.sqlite'))
    opened.push(ingest)
    const { ms: ingestOnlyMs, stored, changeRows } = await timeIngestPath(ingest, whale, prefetched)
    if (stored !== transactions) throw new Error(`ingest stored ${stored} of ${transactions}`)

    // Bytes per transaction: the whole file (rows, indexes, free pages) once the WAL is in it.
    mirror.database.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    const mirrorBytesPerTransaction = statSync(mirror.database.path).size / transactions

    const figures: Omit<SyncIngestBenchFigures, 'responsiveness' | 'figures'> = {
      transactions,
      pages,
      engineMs,
      bareFetchMs,
      ratio: engineMs / bareFetchMs,
      ingestOnlyMs,
      ingestRowsPerSec: transactions / (ingestOnlyMs / 1000),
      balanceChangeRowsPerSec: changeRows / (ingestOnlyMs / 1000),
      mirrorBytesPerTransaction,
    }
    const n = (v: number) => Math.round(v).toLocaleString('en-US')
    process.stdout.write(
      `sync ingest of ${n(transactions)} whale transactions (${n(pages)} pages, rate limit off): ` +
        `engine ${(engineMs / 1000).toFixed(2)} s, bare fetch loop ${(bareFetchMs / 1000).toFixed(2)} s, ` +
        `ratio ${figures.ratio.toFixed(2)} (goal ≤ 1.2)\n` +
        `ingest path alone (MirrorWriter.applyHistoryPage on pre-fetched pages): ${(ingestOnlyMs / 1000).toFixed(2)} s, ` +
        `${n(figures.ingestRowsPerSec)} transactions/s with ${n(figures.balanceChangeRowsPerSec)} balance-change rows/s\n` +
        `mirror: ${n(mirrorBytesPerTransaction)} bytes per transaction with its balance changes and indexes ` +
        `(${((mirrorBytesPerTransaction * 1e6) / 1e9).toFixed(2)} GB per million)\n`,
    )
    const responsiveness = await runBackfillResponsiveness()
    return { ...figures, responsiveness, figures: benchFigures(figures, responsiveness) }
  } finally {
    for (const mirror of opened) await mirror.close()
    await sim.close()
    temp.remove()
  }
}

/**
 * Writes pre-fetched history pages into `mirror` page by page, each with its cursor, as
 * the backfill does, and times it: the ingest path alone, on whichever engine.
 */
export async function timeIngestPath(
  mirror: Mirror,
  wallet: string,
  pages: readonly HistoryEntry[][],
): Promise<{ ms: number; stored: number; changeRows: number }> {
  await mirror.watchlist.add({ address: wallet }, 1_700_000_000)
  const writer = mirror.writer
  const walletId = (await writer.walletId(wallet)) as number
  await writer.stream(walletId, 'history')
  const changeRows = pages.reduce(
    (sum, page) => sum + page.reduce((n, e) => n + e.balanceChanges.length, 0),
    0,
  )
  const t0 = performance.now()
  let stored = 0
  for (const [index, page] of pages.entries()) {
    stored += await writer.applyHistoryPage(walletId, page, {
      ...(index === 0 && page[0] ? { newestKey: page[0].signature } : {}),
      backfillCursor: page.at(-1)?.signature ?? null,
      isBackfillComplete: index === pages.length - 1,
      addPages: 1,
      succeededAtSec: 1_700_000_000,
    })
  }
  return { ms: performance.now() - t0, stored, changeRows }
}

/** The rows this benchmark adds to `npm run bench`'s table. */
function benchFigures(
  ingest: Omit<SyncIngestBenchFigures, 'responsiveness' | 'figures'>,
  live: BackfillResponsivenessFigures,
): BenchFigure[] {
  const n = (v: number) => Math.round(v).toLocaleString('en-US')
  const k = (ingest.transactions / 1000).toFixed(0)
  return [
    {
      figure: `${k}k-transaction ingest, engine ÷ bare fetch loop`,
      goal: '≤ 1.2',
      measured: ingest.ratio.toFixed(2),
      met: ingest.ratio <= 1.2,
    },
    {
      figure: 'ingest path alone (history pages written)',
      goal: '—',
      measured: `${n(ingest.ingestRowsPerSec)} tx/s, ${n(ingest.balanceChangeRowsPerSec)} balance-change rows/s`,
      met: null,
    },
    {
      figure: 'mirror bytes per transaction (with balance changes, indexes)',
      goal: '—',
      measured: `${n(ingest.mirrorBytesPerTransaction)} B (${((ingest.mirrorBytesPerTransaction * 1e6) / 1e9).toFixed(2)} GB per million)`,
      met: null,
    },
    {
      figure: `history:page p99 during a whale backfill (${n(live.queries)} queries)`,
      goal: '< 25 ms',
      measured: `${live.queryP99Ms.toFixed(1)} ms`,
      met: live.queryP99Ms < 25,
    },
    {
      figure: 'main-thread event-loop delay p99 during a whale backfill',
      goal: '< 20 ms',
      measured: `${live.eventLoopP99Ms.toFixed(1)} ms`,
      met: live.eventLoopP99Ms < 20,
    },
  ]
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runSyncIngestBench(Number(process.argv[2] ?? 100_000)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
