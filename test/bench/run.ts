import { runAlertsBenchReport } from './alerts.bench'
import { benchTable, type BenchFigure } from './bench-table'
import { runColdStartBench } from './cold-start.bench'
import { runDeskBench } from './desk.bench'
import { runExportBench } from './export.bench'
import { runFirstSyncBench } from './first-sync.bench'
import { runFeedQueriesBench } from './feed-queries.bench'
import { runHistoryQueriesBench } from './history-queries.bench'
import { runMirrorSearchBench } from './mirror-search.bench'
import { runPostgresBench } from './postgres.bench'
import { runRateLimitBench } from './rate-limit.bench'
import { runSimulatorBench } from './simulator.bench'
import { runSyncIngestBench } from './sync-ingest.bench'
import { runSyncMemoryBench } from './sync-memory.bench'
import { runTeamBench } from './team.bench'
import { runWatchDayBench } from './watch-day.bench'
import { runWatchFuzzBench } from './watch-fuzz.bench'

// `npm run bench [-- name]`: every benchmark in sequence, each under a header; a name
// (or part of one) runs only the matching ones, e.g. `npm run bench -- sync`.

/**
 * A benchmark prints its own lines as it runs; the rows it returns in `figures` (if any)
 * join the table printed at the end of the run.
 */
const BENCHES: {
  name: string
  title: string
  run: () => Promise<{ figures?: BenchFigure[] } | unknown>
}[] = [
  {
    name: 'simulator',
    title: 'Simulator: whale history latency and heap',
    run: () => runSimulatorBench(),
  },
  {
    name: 'sync-ingest',
    title:
      'Sync ingest: 100k-transaction wallet, engine vs bare fetch loop, rows/s, mirror bytes per transaction, and the main thread during a whale backfill',
    run: () => runSyncIngestBench(),
  },
  {
    name: 'rate-limit',
    title:
      'Rate limit: 20 wallets backfilled at once on the Free and Developer plans, utilisation and 429s per endpoint class',
    run: () => runRateLimitBench(),
  },
  {
    name: 'history-queries',
    title: 'History queries over a 1,000,000-transaction mirror',
    run: () => runHistoryQueriesBench(),
  },
  {
    name: 'feed',
    title:
      'The feed over a 1,000,000-transaction mirror of 35 wallets, a page per filter, SQLite and PostgreSQL',
    run: () => runFeedQueriesBench(),
  },
  {
    name: 'mirror-search',
    title:
      'Header search over a 1,000,000-transaction mirror with 20,000 named addresses and 3,000 tokens, SQLite and PostgreSQL',
    run: () => runMirrorSearchBench(),
  },
  {
    name: 'export',
    title: 'CSV export of 1,000,000 balance-change rows',
    run: () => runExportBench(),
  },
  {
    name: 'cold-start',
    title: 'Cold start of the web shell to the first History page, 1,000,000 transactions',
    run: () => runColdStartBench(),
  },
  {
    name: 'sync-memory',
    title: 'Main-process RSS while 100 wallets sync',
    run: () => runSyncMemoryBench(),
  },
  {
    name: 'postgres',
    title:
      'The mirror on PostgreSQL beside SQLite: ingest rows/s and the review queries over 1,000,000 transactions',
    run: () => runPostgresBench(),
  },
  {
    name: 'desk',
    title:
      "A 10,000,000-row desk on SQLite and PostgreSQL: History and feed p99, cold start, export against the database's own CSV writer, bytes per row",
    run: () => runDeskBench(),
  },
  {
    name: 'team',
    title:
      'A team at a human pace: 100 people paging History once a second on the web shell and on the team server over SQLite and PostgreSQL while it syncs, then back to back (saturation)',
    run: () => runTeamBench(),
  },
  {
    name: 'watch-day',
    title: 'Watching 50 wallets for 24 simulated hours, against rotki-style and naive polling',
    run: () => runWatchDayBench(),
  },
  {
    name: 'first-sync',
    title:
      "A new user's first sync of each default profile wallet at the default depth (newest 1,000), against the floor",
    run: () => runFirstSyncBench(),
  },
  {
    name: 'watch-fuzz',
    title:
      'The watch fuzz: seeded days of real-world patterns over the watch-day population, every change found in its bound, the mirror equal to the truth',
    run: () => runWatchFuzzBench(),
  },
  {
    name: 'alerts',
    title:
      'Ten alert rules over the watch day (50 wallets, 24 simulated hours), against what the truth says they should fire',
    run: () => runAlertsBenchReport(),
  },
]

async function main(filter: string | undefined): Promise<void> {
  const chosen = BENCHES.filter(
    (b) => filter === undefined || b.name.includes(filter.toLowerCase()),
  )
  if (chosen.length === 0) {
    throw new Error(
      `No benchmark matches "${filter}"; names: ${BENCHES.map((b) => b.name).join(', ')}.`,
    )
  }
  const figures: BenchFigure[] = []
  for (const bench of chosen) {
    process.stdout.write(`\n== ${bench.name}: ${bench.title} ==\n`)
    const t0 = performance.now()
    const result = await bench.run()
    process.stdout.write(`(${bench.name} took ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`)
    const rows = (result as { figures?: BenchFigure[] } | undefined)?.figures
    if (Array.isArray(rows)) figures.push(...rows)
  }
  if (figures.length > 0)
    process.stdout.write(`\n== figures and goals ==\n${benchTable(figures)}\n`)
}

main(process.argv[2]).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
