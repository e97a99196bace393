import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { createCore } from '../../src-main/app/core'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { appNodeEnv } from '../../scripts/app-node-flags.mjs'
import { BUILT_CLI, builtCliArgs } from '../helpers/built-cli'
import { launchChromium } from '../helpers/chromium'
import { startSimulatorProcess } from '../helpers/simulator-process'
import { generateHistoryMirror } from '../helpers/history-mirror'
import { makeTempDir } from '../helpers/temp-dir'
import { testAddress } from '../helpers/wallets'
import { BUILT_RENDERER_DIR } from '../helpers/web-shell-fixture'
import type { BenchFigure } from './bench-table'

// Cold start: from spawning the web shell (the built CLI's `serve` with the app's Node flags,
// as `npm start` runs it
// where Electron is not installed) on a data folder holding a 1,000,000-transaction mirror, to
// the first rows of History drawn in headless Chromium (goal < 1.5 s). The phases say
// where the time goes: the process until it serves (Node, modules, opening the core), the
// page until its script ran, and the page until the first History rows were drawn.
// Run: npx tsx test/bench/cold-start.bench.ts [transactions]

const GOAL_MS = 1_500
/** One untimed start first (module caches warm, as on any start after the first). */
const WARM_UPS = 1
const RUNS = 3

/** The phases of one start, in milliseconds from spawning the process. */
export interface ColdStartRun {
  servingMs: number
  scriptRanMs: number
  firstRowsMs: number
}

export interface ColdStartFigures {
  transactions: number
  /** Opening the core on the 1M mirror in this process (migrations check, mirror, start-up work). */
  coreOpenMs: number
  runs: ColdStartRun[]
  figures: BenchFigure[]
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** Spawns `heliograph serve` and resolves with its URL and the ms until it printed it. */
function startServe(
  dataDir: string,
  serviceUrl: string,
): Promise<{ url: string; servingMs: number; t0: number; stop: () => Promise<void> }> {
  const t0 = performance.now()
  const child = spawn(
    process.execPath,
    builtCliArgs(dataDir, serviceUrl, ['--data-source', 'service', 'serve']),
    { env: appNodeEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<void>((done) => child.on('exit', () => done()))
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM')
    await exited
  }
  return new Promise((done, fail) => {
    let out = ''
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}:\n${err}`)))
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const url = /Heliograph web shell: (\S+)/.exec(out)?.[1]
      if (url) done({ url, servingMs: performance.now() - t0, t0, stop })
    })
  })
}

/** Opens History of `address` and resolves when its first rows are drawn. */
async function firstHistoryRows(page: Page, url: string, address: string): Promise<number> {
  await page.goto(`${url}#/wallet/${address}/history`, { waitUntil: 'commit' })
  await page.waitForFunction(
    () =>
      document.querySelector('[role=grid][aria-label="Transaction history"] [role=row]') !== null,
    undefined,
    { polling: 'raf', timeout: 60_000 },
  )
  return performance.now()
}

/** Builds the mirror, starts the web shell cold a few times and prints the phases. */
export async function runColdStartBench(count = 1_000_000): Promise<ColdStartFigures> {
  if (!existsSync(join(BUILT_RENDERER_DIR, 'index.html')) || !existsSync(BUILT_CLI)) {
    throw new Error('The app is not built: run `npx electron-vite build` first.')
  }
  const temp = makeTempDir('heliograph-cold-start-')
  const address = testAddress(1)
  const browser = await launchChromium()
  // The person's service (watching starts with the shell), on its own process.
  const sim = await startSimulatorProcess(['--seed', '16'])
  try {
    const t0 = performance.now()
    const own = await openSqliteMirror(databasePath(temp.dir))
    own.database.sqlite.pragma('cache_size = -262144')
    generateHistoryMirror(own.database.sqlite, { address, label: 'Whale', count, seed: 2026 })
    own.database.sqlite.pragma('wal_checkpoint(TRUNCATE)')
    await own.close()
    console.log(
      `cold start: ${count.toLocaleString('en')}-transaction mirror built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    )

    // The core's own share of a start, timed here where it can be isolated.
    const t1 = performance.now()
    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'bench',
      dataSource: 'service',
      serviceUrl: sim.url,
      apiKey: 'demo',
    })
    const coreOpenMs = performance.now() - t1
    await core.close()

    const runs: ColdStartRun[] = []
    for (let i = 0; i < WARM_UPS + RUNS; i++) {
      // A fresh browser context: no cached bundle, as a window opened by a new process.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      const serve = await startServe(temp.dir, sim.url)
      try {
        const scriptRan = page.waitForEvent('domcontentloaded').then(() => performance.now())
        const firstRows = await firstHistoryRows(page, serve.url, address)
        const run = {
          servingMs: serve.servingMs,
          scriptRanMs: (await scriptRan) - serve.t0,
          firstRowsMs: firstRows - serve.t0,
        }
        if (i >= WARM_UPS) runs.push(run)
        console.log(
          `${i < WARM_UPS ? 'warm-up' : `run ${i - WARM_UPS + 1}`}: serving after ${run.servingMs.toFixed(0)} ms, ` +
            `page script ran at ${run.scriptRanMs.toFixed(0)} ms, first History rows at ${run.firstRowsMs.toFixed(0)} ms`,
        )
      } finally {
        await context.close()
        await serve.stop()
      }
    }
    const firstRowsMs = median(runs.map((r) => r.firstRowsMs))
    const servingMs = median(runs.map((r) => r.servingMs))
    const scriptRanMs = median(runs.map((r) => r.scriptRanMs))
    console.log(
      `cold start median: ${firstRowsMs.toFixed(0)} ms to the first History rows (goal < ${GOAL_MS} ms): ` +
        `process serving ${servingMs.toFixed(0)} ms (of which opening the core ~${coreOpenMs.toFixed(0)} ms), ` +
        `page script ${(scriptRanMs - servingMs).toFixed(0)} ms more, first rows ${(firstRowsMs - scriptRanMs).toFixed(0)} ms more`,
    )
    return {
      transactions: count,
      coreOpenMs,
      runs,
      figures: [
        {
          figure: `Cold start to the first History page (web shell, ${count.toLocaleString('en')} transactions)`,
          goal: `< ${(GOAL_MS / 1000).toFixed(1)} s`,
          measured: `${(firstRowsMs / 1000).toFixed(2)} s (serving ${(servingMs / 1000).toFixed(2)} s, page ${((firstRowsMs - servingMs) / 1000).toFixed(2)} s)`,
          met: firstRowsMs < GOAL_MS,
        },
      ],
    }
  } finally {
    await browser.close()
    await sim.close()
    temp.remove()
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runColdStartBench(Number(process.argv[2] ?? 1_000_000)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
