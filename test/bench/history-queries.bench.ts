import { join } from 'node:path'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { fetchCurrentBalances } from '../../src-main/db/queries/balance-queries'
import { fetchCompressedPage } from '../../src-main/db/queries/compressed-queries'
import {
  countHistory,
  fetchHistoryPage,
  listHistoryMints,
} from '../../src-main/db/queries/history-queries'
import { fetchTransferPage } from '../../src-main/db/queries/transfer-queries'
import { listWalletSummaries } from '../../src-main/db/queries/wallet-summary-queries'
import {
  HistoryFilters,
  TransferFilters,
  type HistoryFiltersInput,
} from '@shared/ipc/review-schemas'
import type { Kysely } from 'kysely'
import type { Database } from '../../src-main/db/schema'
import { generateHistoryMirror, type GeneratedMirror } from '../helpers/history-mirror'
import { makeTempDir } from '../helpers/temp-dir'
import { testAddress } from '../helpers/wallets'

// The History view over a mirror of 1,000,000 transactions: milliseconds per query for
// opening the view, each filter, a deep page and the other review queries (goal < 50 ms
// each). Run: npx tsx test/bench/history-queries.bench.ts [rows]

export interface QueryTiming {
  name: string
  medianMs: number
  rows: number
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function timed(name: string, run: () => Promise<number>, repeats = 7): Promise<QueryTiming> {
  const times: number[] = []
  let rows = 0
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now()
    rows = await run()
    times.push(performance.now() - t0)
  }
  return { name, medianMs: median(times), rows }
}

/**
 * Times every review query on a mirror holding `mirror` (one generated wallet), on
 * whichever engine `db` runs: the same list for SQLite here and for PostgreSQL in the
 * postgres bench.
 */
export async function timeReviewQueries(
  db: Kysely<Database>,
  mirror: GeneratedMirror,
): Promise<QueryTiming[]> {
  const id = mirror.walletId
  const span = mirror.newestSec - mirror.oldestSec
  const midSec = mirror.oldestSec + Math.floor(span / 2)
  const page =
    (filters: HistoryFiltersInput, order: 'newest' | 'oldest' = 'newest') =>
    async () =>
      (
        await fetchHistoryPage(db, id, {
          order,
          filters: HistoryFilters.parse(filters),
          cursor: null,
          limit: 100,
        })
      ).rows.length
  const deep = await fetchHistoryPage(db, id, {
    order: 'newest',
    filters: HistoryFilters.parse({ toSec: midSec }),
    cursor: null,
    limit: 1,
  })
  const someSignature = deep.rows[0]?.signature ?? ''

  return [
    await timed('open History (newest first)', page({})),
    await timed('oldest first', page({}, 'oldest')),
    await timed(
      'page in the middle (keyset cursor)',
      async () =>
        (
          await fetchHistoryPage(db, id, {
            order: 'newest',
            filters: HistoryFilters.parse({}),
            cursor: deep.nextCursor,
            limit: 100,
          })
        ).rows.length,
    ),
    await timed(
      'date range (one week, mid-history)',
      page({
        fromSec: midSec - 302_400,
        toSec: midSec + 302_400,
      }),
    ),
    await timed('mint: USDC (common)', page({ mint: mirror.mints[1] })),
    await timed('mint: RARE (0.4% of rows)', page({ mint: mirror.mints[8] })),
    await timed('mint + direction in', page({ mint: mirror.mints[2], direction: 'in' })),
    await timed('direction out (any mint)', page({ direction: 'out' })),
    await timed('failed only', page({ isFailedOnly: true })),
    await timed('failed only, oldest first', page({ isFailedOnly: true }, 'oldest')),
    await timed(
      'mint + date range',
      page({
        mint: mirror.mints[3],
        fromSec: mirror.oldestSec,
        toSec: mirror.oldestSec + Math.floor(span / 3),
      }),
    ),
    await timed('signature exact', page({ signature: someSignature })),
    await timed('signature prefix (3 chars)', page({ signature: someSignature.slice(0, 3) })),
    await timed(
      'count (capped at 10,000)',
      async () => (await countHistory(db, id, HistoryFilters.parse({}))).count,
    ),
    await timed(
      'count, mint filter',
      async () =>
        (await countHistory(db, id, HistoryFilters.parse({ mint: mirror.mints[8] }))).count,
    ),
    await timed('mint list for the filter', async () => (await listHistoryMints(db, id)).length),
    await timed(
      'transfers page',
      async () =>
        (
          await fetchTransferPage(db, id, {
            order: 'newest',
            filters: TransferFilters.parse({}),
            cursor: null,
            limit: 100,
          })
        ).rows.length,
    ),
    await timed(
      'transfers, mint + direction',
      async () =>
        (
          await fetchTransferPage(db, id, {
            order: 'newest',
            filters: TransferFilters.parse({ mint: mirror.mints[4], direction: 'in' }),
            cursor: null,
            limit: 100,
          })
        ).rows.length,
    ),
    await timed(
      'compressed page',
      async () =>
        (await fetchCompressedPage(db, id, { kind: 'all', cursor: null, limit: 100 })).rows.length,
    ),
    await timed('current balances', async () => (await fetchCurrentBalances(db, id)).rows.length),
    await timed('sidebar summaries', async () => (await listWalletSummaries(db)).length),
  ]
}

/** Builds the mirror, times every review query and prints one line per query. */
export async function runHistoryQueriesBench(count = 1_000_000): Promise<QueryTiming[]> {
  const temp = makeTempDir('heliograph-bench-')
  const database = await openDatabase(join(temp.dir, 'heliograph.sqlite'))
  try {
    // A large page cache while generating: random signatures make index inserts scattered.
    database.sqlite.pragma('cache_size = -262144')
    const t0 = performance.now()
    const mirror = generateHistoryMirror(database.sqlite, {
      address: testAddress(1),
      count,
      seed: 2026,
    })
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    const buildSec = (performance.now() - t0) / 1000
    console.log(
      `history mirror: ${count.toLocaleString('en')} transactions generated in ${buildSec.toFixed(1)} s`,
    )

    const timings = await timeReviewQueries(database.db, mirror)
    for (const t of timings) {
      const flag = t.medianMs < 50 ? 'ok' : 'SLOW'
      console.log(
        `  ${t.name.padEnd(38)} ${t.medianMs.toFixed(2).padStart(8)} ms  (${t.rows} rows)  ${flag}`,
      )
    }
    return timings
  } finally {
    await database.close()
    temp.remove()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runHistoryQueriesBench(Number(process.argv[2] ?? 1_000_000))
}
