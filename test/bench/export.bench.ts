import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { openDatabase } from '../../src-main/db/sqlite/database'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { runExport } from '../../src-main/export/export-job'
import type { ExportFormat } from '@shared/ipc/export-schemas'
import type { BenchFigure } from './bench-table'

// Exports 1,000,000 balance-change rows to CSV and prints the time (goal < 3 s) and the
// peak RSS and heap sampled during the run (goal: flat, < 100 MB over the baseline).
// Run: npx tsx test/bench/export.bench.ts

export interface ExportBenchFigures {
  rows: number
  format: ExportFormat
  buildMs: number
  exportMs: number
  bytes: number
  rssBeforeMb: number
  rssPeakMb: number
  heapBeforeMb: number
  heapPeakMb: number
  /** RSS at each tenth of the rows: flat when memory does not grow with rows. */
  rssByTenthMb: number[]
  /** The rows of `npm run bench`'s table: export time and peak RSS over the baseline. */
  figures: BenchFigure[]
}

const GOAL_EXPORT_SEC = 3
const GOAL_RSS_OVER_BASELINE_MB = 100

const MINTS = [
  { mint: NATIVE_SOL_MINT, symbol: 'SOL', decimals: 9 },
  { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', decimals: 6 },
  { mint: 'FeeskxE6ozTzwC3N6RiiKyWemk9M86zF5jQrgnk43bfj', symbol: 'HELIO', decimals: 9 },
]
const WALLETS = 4
const CHANGES_PER_TX = 2
const ROWS_PER_COMMIT = 10_000

const mb = (bytes: number): number => bytes / 1024 / 1024

/** A mirror with `rows` balance changes, written with prepared statements, 10k rows per commit. */
export async function buildBenchMirror(path: string, rows: number): Promise<void> {
  const database = await openDatabase(path)
  const { sqlite } = database
  const insertWallet = sqlite.prepare(
    'insert into wallets (address, label, position, added_at_sec) values (?, ?, ?, 0) returning id',
  )
  const insertMint = sqlite.prepare(
    'insert into mints (mint, symbol, name, decimals, updated_at_sec) values (?, ?, ?, ?, 0)',
  )
  const insertTx = sqlite.prepare(
    `insert into transactions (wallet_id, signature, slot, block_time_sec, fee, fee_text, fee_payer, error, is_failed, change_count)
     values (?, ?, ?, ?, 0.000005, '0.000005', ?, null, 0, ?) returning id`,
  )
  const insertChange = sqlite.prepare(
    `insert into balance_changes (transaction_id, wallet_id, ordinal, mint, amount, amount_text, amount_raw, decimals, block_time_sec, slot)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const wallets = sqlite.transaction(() => {
    for (const m of MINTS) insertMint.run(m.mint, m.symbol, m.symbol, m.decimals)
    return Array.from({ length: WALLETS }, (_, i) => {
      const address = `BenchWallet${String(i).padStart(33, '1')}`
      return { id: (insertWallet.get(address, `Bench ${i}`, i) as { id: number }).id, address }
    })
  })()
  let written = 0
  let tx = 0
  const writeChunk = sqlite.transaction((until: number) => {
    while (written < until) {
      const wallet = wallets[tx % WALLETS]!
      const time = 1_700_000_000 + tx * 30
      const slot = 250_000_000 + tx * 75
      const { id } = insertTx.get(
        wallet.id,
        `benchsig${tx}`,
        slot,
        time,
        wallet.address,
        CHANGES_PER_TX,
      ) as { id: number }
      for (let ordinal = 0; ordinal < CHANGES_PER_TX && written < until; ordinal++) {
        const mint = MINTS[(tx + ordinal) % MINTS.length]!
        const raw =
          BigInt(1 + ((tx * 7919 + ordinal * 104_729) % 1_000_000_000)) * (ordinal === 0 ? -1n : 1n)
        const text = (Number(raw) / 10 ** mint.decimals).toString()
        insertChange.run(
          id,
          wallet.id,
          ordinal,
          mint.mint,
          Number(text),
          text,
          raw.toString(),
          mint.decimals,
          time,
          slot,
        )
        written += 1
      }
      tx += 1
    }
  })
  while (written < rows) writeChunk(Math.min(rows, written + ROWS_PER_COMMIT))
  await database.close()
}

/** Builds the mirror, exports it, and prints the figures. */
export async function runExportBench(
  rows = 1_000_000,
  format: ExportFormat = 'full',
): Promise<ExportBenchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'heliograph-export-bench-'))
  try {
    const dbPath = join(dir, 'heliograph.sqlite')
    const t0 = performance.now()
    await buildBenchMirror(dbPath, rows)
    const buildMs = performance.now() - t0

    globalThis.gc?.()
    const before = process.memoryUsage()
    let rssPeak = before.rss
    let heapPeak = before.heapUsed
    const sample = (): void => {
      const now = process.memoryUsage()
      rssPeak = Math.max(rssPeak, now.rss)
      heapPeak = Math.max(heapPeak, now.heapUsed)
    }
    const sampler = setInterval(sample, 20)
    const rssByTenth: number[] = []
    const mirror = await openSqliteMirror(dbPath)
    const t1 = performance.now()
    const summary = await runExport({
      source: mirror.exports,
      kind: 'balance-changes',
      format,
      outPath: join(dir, 'export.csv'),
      onProgress: (p) => {
        sample()
        const tenth = Math.floor(p.fraction * 10)
        if (rssByTenth[tenth] === undefined) rssByTenth[tenth] = mb(process.memoryUsage().rss)
      },
    })
    const exportMs = performance.now() - t1
    clearInterval(sampler)
    await mirror.close()
    sample()

    const figures: ExportBenchFigures = {
      rows: summary.rowsRead,
      format,
      buildMs,
      exportMs,
      bytes: statSync(summary.path).size,
      rssBeforeMb: mb(before.rss),
      rssPeakMb: mb(rssPeak),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(heapPeak),
      rssByTenthMb: rssByTenth.filter((v) => v !== undefined),
      figures: [],
    }
    const exportSec = exportMs / 1000
    const rssOverMb = figures.rssPeakMb - figures.rssBeforeMb
    figures.figures = [
      {
        figure: `CSV export (${format}), ${rows.toLocaleString('en')} balance-change rows`,
        goal: `< ${GOAL_EXPORT_SEC} s`,
        measured: `${exportSec.toFixed(2)} s`,
        met: exportSec < GOAL_EXPORT_SEC,
      },
      {
        figure: 'CSV export, peak RSS over the baseline',
        goal: `< ${GOAL_RSS_OVER_BASELINE_MB} MB`,
        measured: `${rssOverMb.toFixed(0)} MB (${figures.rssBeforeMb.toFixed(0)} → ${figures.rssPeakMb.toFixed(0)} MB)`,
        met: rssOverMb < GOAL_RSS_OVER_BASELINE_MB,
      },
    ]
    process.stdout.write(
      `export ${format} of ${figures.rows.toLocaleString('en')} balance-change rows: ${(exportMs / 1000).toFixed(2)} s (goal < ${GOAL_EXPORT_SEC} s), ` +
        `${mb(figures.bytes).toFixed(0)} MB written; mirror built in ${(buildMs / 1000).toFixed(1)} s\n` +
        `export memory: RSS ${figures.rssBeforeMb.toFixed(0)} → peak ${figures.rssPeakMb.toFixed(0)} MB, ` +
        `heap ${figures.heapBeforeMb.toFixed(0)} → peak ${figures.heapPeakMb.toFixed(0)} MB; ` +
        `RSS at each 10%: ${figures.rssByTenthMb.map((v) => v.toFixed(0)).join(' ')} MB\n`,
    )
    return figures
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  const format = (process.argv[2] ?? 'full') as ExportFormat
  runExportBench(1_000_000, format).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
