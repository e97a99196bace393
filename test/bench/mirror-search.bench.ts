import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { startLocalPostgres } from '../../scripts/postgres/local-postgres'
import { openPostgresMirror } from '../../src-main/db/postgres/mirror'
import { searchMirror } from '../../src-main/db/queries/mirror-search-queries'
import type { Database } from '../../src-main/db/schema'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { generatedAddress, generateHistoryMirror } from '../helpers/history-mirror'
import { makeTempDir } from '../helpers/temp-dir'
import { testAddress } from '../helpers/wallets'
import type { BenchFigure } from './bench-table'
import { copyMirror } from './postgres.bench'

// `npm run bench -- mirror-search`: the header search over a mirror of 1,000,000
// transactions (with their balance changes and transfers), 20 labelled wallets, 20,000
// addresses the service named (half with a .sol domain) and 3,000 tokens, on SQLite and
// on PostgreSQL (the same rows copied over). Goal: each search under 50 ms.

const NAMED_ADDRESSES = 20_000
const TOKENS = 3_000
const GOAL_MS = 50

interface SearchTiming {
  name: string
  medianMs: number
  hits: number
}

/** Fills the generated mirror with what the search reads besides its history. */
function addNamesAndTokens(sqlite: BetterSqlite3.Database): void {
  const addWallet = sqlite.prepare(
    'insert into wallets (address, label, position, added_at_sec) values (?, ?, ?, 0)',
  )
  const addName = sqlite.prepare(
    `insert into address_names (address, status, name, type, category, domain_names_json, fetched_at_sec)
     values (?, 'named', ?, 'exchange', 'Centralized Exchange', ?, 0)`,
  )
  const addMint = sqlite.prepare(
    `insert into mints (mint, symbol, name, decimals, logo_uri, token_program, price_usd, updated_at_sec)
     values (?, ?, ?, 6, null, 'spl-token', 1, 0) on conflict (mint) do nothing`,
  )
  sqlite.transaction(() => {
    for (let i = 0; i < 19; i++) addWallet.run(testAddress(100 + i), `Desk wallet ${i}`, 10 + i)
    for (let i = 0; i < NAMED_ADDRESSES; i++) {
      const domains = i % 2 === 0 ? JSON.stringify([`holder${i}.sol`]) : '[]'
      addName.run(generatedAddress(20_000 + i), `Market maker ${i}`, domains)
    }
    for (let i = 0; i < TOKENS; i++)
      addMint.run(generatedAddress(60_000 + i), `TK${i}`, `Token ${i}`)
  })()
}

async function timeSearches(
  db: Kysely<Database>,
  samples: Record<string, string>,
): Promise<SearchTiming[]> {
  const timings: SearchTiming[] = []
  for (const [name, text] of Object.entries(samples)) {
    const times: number[] = []
    let hits = 0
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now()
      hits = (await searchMirror(db, text)).length
      times.push(performance.now() - t0)
    }
    times.sort((a, b) => a - b)
    timings.push({ name, medianMs: times[Math.floor(times.length / 2)] ?? 0, hits })
  }
  return timings
}

export async function runMirrorSearchBench(count = 1_000_000): Promise<{ figures: BenchFigure[] }> {
  const temp = makeTempDir('heliograph-search-bench-')
  const database = await openDatabase(join(temp.dir, 'heliograph.sqlite'))
  const server = await startLocalPostgres()
  try {
    database.sqlite.pragma('cache_size = -262144')
    const t0 = performance.now()
    const mirror = generateHistoryMirror(database.sqlite, {
      address: testAddress(1),
      label: 'Treasury',
      count,
      seed: 2026,
    })
    addNamesAndTokens(database.sqlite)
    database.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    console.log(
      `mirror: ${count.toLocaleString('en')} transactions generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )
    const signature = (
      database.sqlite
        .prepare('select signature from transactions where id = ?')
        .get(count >> 1) as {
        signature: string
      }
    ).signature
    const samples: Record<string, string> = {
      'label, exact': 'Treasury',
      'label, substring': 'wallet 1',
      '.sol name, exact': 'holder4242.sol',
      'service name, prefix': 'market maker 19',
      'token symbol, exact': 'USDC',
      'token name, substring': 'oken 29',
      'one letter (everything matches)': 'e',
      'nothing matches': 'zzqqxx',
      'counterparty address, 4 characters': mirror.counterparties[3]!.slice(0, 4),
      'signature, 4 characters': signature.slice(0, 4),
      'signature, whole': signature,
    }
    const onSqlite = await timeSearches(database.db, samples)
    const onServer = await openPostgresMirror(await server.createDatabase('search_bench'))
    let onPostgres: SearchTiming[]
    try {
      const t1 = performance.now()
      const copied = await copyMirror(database.sqlite, onServer.database.db, [
        'wallets',
        'mints',
        'address_names',
        'transactions',
        'transfers',
      ])
      console.log(
        `copied ${copied.toLocaleString('en')} rows into PostgreSQL in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
      )
      onPostgres = await timeSearches(onServer.database.db, samples)
    } finally {
      await onServer.close()
    }
    console.log(
      `\n  ${'search'.padEnd(36)} ${'SQLite'.padStart(10)} ${'PostgreSQL'.padStart(12)}  hits`,
    )
    for (const [i, s] of onSqlite.entries()) {
      const p = onPostgres[i]
      console.log(
        `  ${s.name.padEnd(36)} ${`${s.medianMs.toFixed(2)} ms`.padStart(10)} ${`${(p?.medianMs ?? NaN).toFixed(2)} ms`.padStart(12)}  ${s.hits}/${p?.hits}`,
      )
    }
    const figures: BenchFigure[] = []
    for (const [engine, timings] of [
      ['SQLite', onSqlite],
      ['PostgreSQL', onPostgres],
    ] as const) {
      const slowest = timings.reduce((a, b) => (b.medianMs > a.medianMs ? b : a))
      figures.push({
        figure: `${engine}: header search on ${count.toLocaleString('en')} transactions, slowest median`,
        goal: `< ${GOAL_MS} ms`,
        measured: `${slowest.medianMs.toFixed(1)} ms (${slowest.name})`,
        met: slowest.medianMs < GOAL_MS,
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
  const { figures } = await runMirrorSearchBench(Number(process.argv[2] ?? 1_000_000))
  for (const f of figures) console.log(`${f.figure}: ${f.measured} (goal ${f.goal})`)
}
