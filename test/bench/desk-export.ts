import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { timedExport } from './export.bench'

// The desk bench's export, in a process of its own, so that the bench can stop one that
// runs past its limit, threads and all: every balance change of the mirror (a SQLite file
// or a PostgreSQL URL) to CSV in the full layout with runExport, as the app exports.
// Prints one line of JSON: milliseconds, rows read and bytes written.
// Run: node --import tsx test/bench/desk-export.ts <sqlite file | postgres URL> <out.csv>

/** What one export printed. */
export interface ExportTiming {
  ms: number
  rows: number
  bytes: number
}

async function main(location: string, outPath: string): Promise<void> {
  const mirror = /^postgres(ql)?:\/\//.test(location)
    ? await openPostgresMirror(location)
    : await openSqliteMirror(location)
  try {
    const run = await timedExport(mirror, outPath)
    const timing: ExportTiming = { ms: run.heliographMs, rows: run.rows, bytes: run.bytes }
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
