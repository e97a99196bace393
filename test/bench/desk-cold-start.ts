import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { HistoryFilters } from '@shared/ipc/review-schemas'

// The desk bench's cold start, in a process of its own (spawned fresh for each run, so no
// connection or statement is warm): opens the mirror as the app's core does (migrations
// checked, page writes on a worker thread) and reads a wallet's first History page as the
// view asks for it. Prints one line of JSON: milliseconds from opening to the page, and
// from the process's start. The engines' modules load before the clock starts: from
// source they are compiled by tsx as they load, which the app's bundle never does.
// Run: node --import tsx test/bench/desk-cold-start.ts <sqlite file | postgres URL> <address>

/** What one cold start printed. */
export interface ColdStartTiming {
  /** Opening the mirror. */
  openMs: number
  /** Opening the mirror and reading the first page. */
  firstPageMs: number
  /** From the process's start (Node, modules) to the first page. */
  sinceProcessStartMs: number
  rows: number
}

async function main(location: string, address: string): Promise<void> {
  const t0 = performance.now()
  const mirror = /^postgres(ql)?:\/\//.test(location)
    ? await openPostgresMirror(location)
    : await openSqliteMirror(location, { writeIn: 'worker' })
  const t1 = performance.now()
  try {
    const page = await mirror.review.historyPage(address, {
      order: 'newest',
      filters: HistoryFilters.parse({}),
      cursor: null,
      limit: 200,
    })
    const t2 = performance.now()
    const timing: ColdStartTiming = {
      openMs: t1 - t0,
      firstPageMs: t2 - t0,
      sinceProcessStartMs: t2,
      rows: page.rows.length,
    }
    process.stdout.write(`${JSON.stringify(timing)}\n`)
  } finally {
    await mirror.close()
  }
}

const [location, address] = process.argv.slice(2)
if (location === undefined || address === undefined) {
  process.stderr.write('usage: desk-cold-start.ts <sqlite file | postgres URL> <address>\n')
  process.exit(2)
}
main(location, address).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
