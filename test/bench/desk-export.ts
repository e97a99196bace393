import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { runExport } from '../../src-main/export/export-job'
import { timedExport } from './export.bench'

// The desk bench's export, in a process of its own, so that the bench can stop one that
// runs past its limit, threads and all: every balance change of the mirror (a SQLite file
// or a PostgreSQL URL) to CSV in the full layout with runExport, as the app exports.
// The timed export follows one small export, as an export in a running app does.
// Prints one line of JSON: milliseconds, rows read, bytes written, and the process's RSS
// before, at its peak and at each tenth of the rows (a fresh process: its own baseline).
// Run: node --import tsx test/bench/desk-export.ts <sqlite file | postgres URL> <out.csv>

/** What one export printed. */
export interface ExportTiming {
  ms: number
  rows: number
  bytes: number
  rssBeforeMb: number
  rssPeakMb: number
  rssByTenthMb: number[]
}

async function main(location: string, outPath: string): Promise<void> {
  const mirror = /^postgres(ql)?:\/\//.test(location)
    ? await openPostgresMirror(location)
    : await openSqliteMirror(location)
  try {
    // As in a running app, the export is not the process's first: one wallet's export,
    // split into parts, goes first (a source run bundles the part thread there, once per
    // process; the built app starts it from its own bundle).
    // Memory is counted from before it: what exporting adds to the process.
    const baselineMb = process.memoryUsage.rss() / 1024 / 1024
    const wallet = (await mirror.watchlist.list()).at(-1)
    if (wallet !== undefined) {
      await runExport({
        source: mirror.exports,
        kind: 'balance-changes',
        filters: { wallets: [wallet.address] },
        outPath,
        parts: { parts: 2, minRows: 1 },
      })
    }
    const run = await timedExport(mirror, outPath)
    const { heliographMs: ms, ...rest } = run
    const timing: ExportTiming = { ms, ...rest, rssBeforeMb: baselineMb }
    process.stdout.write(`${JSON.stringify(timing)}\n`)
  } finally {
    await mirror.close()
  }
}

const [location, outPath] = process.argv.slice(2)
if (location === undefined || outPath === undefined) {
  process.stderr.write('usage: desk-export.ts <sqlite file | postgres URL> <out.csv>\n')
  process.exit(2)
}
main(location, outPath).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
