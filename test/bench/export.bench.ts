import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startLocalPostgres } from '../../scripts/postgres/local-postgres'
import type { Mirror } from '../../src-main/db/mirror'
import { runExport } from '../../src-main/export/export-job'
import { makeTempDir } from '../helpers/temp-dir'
import type { BenchFigure } from './bench-table'
import type { ExportTiming } from './desk-export'
import { buildPostgresDesk, buildSqliteDesk } from './desk-mirror'
import { psqlCopyExport, sqliteCliExport, type ReferenceExport } from './export-reference'
import { runChild } from './run-child'

// `npm run bench -- export`: 1,000,000 balance-change rows exported to CSV (the full
// layout) on each engine, against the database's own CSV writer writing the same rows and
// cells in the same run (`sqlite3 -csv`, `psql \copy … csv`; export-reference.ts), as a
// ratio (goal ≤ 1.2). Each export runs in a process of its own (desk-export.ts), whose RSS
// is sampled through it against its own baseline (goal: flat, under 100 MB over it). Run: npx tsx test/bench/export.bench.ts [rows]

export interface ExportRun {
  engine: 'SQLite' | 'PostgreSQL'
  rows: number
  heliographMs: number
  bytes: number
  reference: ReferenceExport | null
  rssBeforeMb: number
  rssPeakMb: number
  /** RSS at each tenth of the rows: flat when memory does not grow with rows. */
  rssByTenthMb: number[]
}

export const GOAL_RATIO = 1.2
const GOAL_RSS_OVER_BASELINE_MB = 100
/** An export that runs longer than this is stopped and reported as such. */
const EXPORT_LIMIT_MS = 10 * 60_000

const mb = (bytes: number): number => bytes / 1024 / 1024
const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

/**
 * Exports every balance change of `mirror` to `outPath` in the full layout, as the app does
 * (split into parts on this machine's cores), sampling the process's RSS.
 */
export async function timedExport(
  mirror: Mirror,
  outPath: string,
): Promise<
  Pick<ExportRun, 'rows' | 'heliographMs' | 'bytes' | 'rssBeforeMb' | 'rssPeakMb' | 'rssByTenthMb'>
> {
  globalThis.gc?.()
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
  const rssByTenth: number[] = []
  const t0 = performance.now()
  const summary = await runExport({
    source: mirror.exports,
    kind: 'balance-changes',
    format: 'full',
    outPath,
    onProgress: (p) => {
      const rss = process.memoryUsage.rss()
      peak = Math.max(peak, rss)
      rssByTenth[Math.floor(p.fraction * 10)] ??= mb(rss)
    },
  })
  const heliographMs = performance.now() - t0
  clearInterval(sampler)
  return {
    rows: summary.rowsRead,
    heliographMs,
    bytes: summary.bytes,
    rssBeforeMb: mb(before),
    rssPeakMb: mb(peak),
    rssByTenthMb: rssByTenth.filter((v) => v !== undefined),
  }
}

/** The line `npm run bench` prints for one engine's export against its reference. */
export function exportLine(label: string, run: ExportRun): string {
  const tool = run.reference?.tool ?? (run.engine === 'SQLite' ? 'sqlite3 -csv' : 'psql \\copy')
  const reference = run.reference
    ? `${tool} ${sec(run.reference.ms)} (ratio ${(run.heliographMs / run.reference.ms).toFixed(2)}, goal ≤ ${GOAL_RATIO})`
    : `${tool}: not installed, no ratio`
  return `export ${label} on ${run.engine}: heliograph ${sec(run.heliographMs)}, ${reference}; ${mb(run.bytes).toFixed(0)} MB written`
}

/** The ratio row of the bench table for one engine's export. */
export function ratioFigure(label: string, run: ExportRun): BenchFigure {
  const ratio = run.reference ? run.heliographMs / run.reference.ms : null
  const tool = run.reference?.tool ?? (run.engine === 'SQLite' ? 'sqlite3 -csv' : 'psql \\copy')
  return {
    figure: `CSV export ${label} on ${run.engine}: heliograph ÷ ${tool}`,
    goal: `≤ ${GOAL_RATIO}`,
    measured:
      ratio === null
        ? `${sec(run.heliographMs)} (${tool} not installed)`
        : `${ratio.toFixed(2)} (${sec(run.heliographMs)} vs ${sec(run.reference!.ms)})`,
    met: ratio === null ? null : ratio <= GOAL_RATIO,
  }
}

/**
 * Exports every balance change of the mirror at `location` (a SQLite file or a PostgreSQL
 * URL) in a process of its own (desk-export.ts: its RSS is the export's alone), then has
 * the reference write the same rows; both files are removed once measured.
 */
export async function againstReference(
  engine: ExportRun['engine'],
  location: string,
  dir: string,
  reference: (outPath: string) => Promise<ReferenceExport | null>,
): Promise<ExportRun> {
  const out = join(dir, `heliograph-${engine}.csv`)
  const printed = await runChild('./desk-export.ts', [location, out], EXPORT_LIMIT_MS)
  rmSync(out, { force: true })
  if (printed === null) throw new Error(`The ${engine} export ran past its limit.`)
  const { ms, ...measured } = JSON.parse(printed) as ExportTiming
  const refPath = join(dir, `reference-${engine}.csv`)
  const written = await reference(refPath)
  rmSync(refPath, { force: true })
  return { engine, heliographMs: ms, ...measured, reference: written }
}

/** Builds a mirror of `rows` balance changes on each engine, exports it, prints the figures. */
export async function runExportBench(
  rows = 1_000_000,
): Promise<{ runs: ExportRun[]; figures: BenchFigure[] }> {
  const temp = makeTempDir('heliograph-export-bench-')
  const label = rows === 1_000_000 ? '1M' : rows.toLocaleString('en')
  const runs: ExportRun[] = []
  const figures: BenchFigure[] = []
  try {
    // SQLite.
    const dbPath = join(temp.dir, 'heliograph.sqlite')
    const built = await buildSqliteDesk(dbPath, rows)
    process.stdout.write(
      `(${built.balanceChanges.toLocaleString('en')} balance changes of ${built.wallets.length} wallets built in ${sec(built.loadMs + built.indexMs)}, ${mb(statSync(dbPath).size).toFixed(0)} MB)\n`,
    )
    runs.push(
      await againstReference('SQLite', dbPath, temp.dir, (out) => sqliteCliExport(dbPath, out)),
    )
    process.stdout.write(`${exportLine(label, runs[0]!)}\n`)

    // PostgreSQL: the project-started local server.
    const server = await startLocalPostgres()
    try {
      const url = await server.createDatabase('export_bench')
      await buildPostgresDesk(url, rows)
      runs.push(
        await againstReference('PostgreSQL', url, temp.dir, (out) => psqlCopyExport(url, out)),
      )
    } finally {
      await server.stop()
    }
    process.stdout.write(`${exportLine(label, runs[1]!)}\n`)

    for (const run of runs) {
      const over = run.rssPeakMb - run.rssBeforeMb
      process.stdout.write(
        `export memory on ${run.engine}: RSS ${run.rssBeforeMb.toFixed(0)} → peak ${run.rssPeakMb.toFixed(0)} MB; ` +
          `at each 10%: ${run.rssByTenthMb.map((v) => v.toFixed(0)).join(' ')} MB\n`,
      )
      figures.push(ratioFigure(label, run), {
        figure: `CSV export ${label} on ${run.engine}, peak RSS over the baseline`,
        goal: `< ${GOAL_RSS_OVER_BASELINE_MB} MB`,
        measured: `${over.toFixed(0)} MB (${run.rssBeforeMb.toFixed(0)} → ${run.rssPeakMb.toFixed(0)} MB)`,
        met: over < GOAL_RSS_OVER_BASELINE_MB,
      })
    }
    return { runs, figures }
  } finally {
    temp.remove()
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runExportBench(Number(process.argv[2] ?? 1_000_000)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
