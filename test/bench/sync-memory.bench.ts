import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { writeSettings } from '../../src-main/app/app-settings'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { HUNDRED_SHAPE } from '../../src-main/simulator/chain/populations'
import { appNodeEnv } from '../../scripts/app-node-flags.mjs'
import { builtCliArgs } from '../helpers/built-cli'
import { startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'
import type { BenchFigure } from './bench-table'

// Memory while many wallets sync: the simulator's `hundred` population (100 wallets, from
// idle ones to traders with thousands of transactions) added to a fresh watch list, then
// `sync --once` of all of them, unpaced, in the built CLI with the Node flags `npm start` gives
// the web shell and its environment (scripts/app-node-flags.mjs), its RSS sampled
// every 50 ms from /proc (goal: peak < 200 MB).
// Run: npx tsx test/bench/sync-memory.bench.ts

const GOAL_MB = 200
const SAMPLE_MS = 50

export interface SyncMemoryFigures {
  wallets: number
  transactions: number
  syncSec: number
  rssPeakMb: number
  rssMedianMb: number
  figures: BenchFigure[]
}

/** Resident set size of a process in MB, or null once it is gone (Linux /proc). */
function rssMbOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
    return kb === undefined ? null : Number(kb) / 1024
  } catch {
    return null
  }
}

/** Syncs the hundred wallets once in a child process and prints its RSS. */
export async function runSyncMemoryBench(): Promise<SyncMemoryFigures> {
  const temp = makeTempDir('heliograph-sync-memory-')
  const sim = await startSimulatorProcess(['--population', 'hundred', '--seed', '16'])
  try {
    const { wallets } = (await (await fetch(`${sim.url}/__sim/wallets`)).json()) as {
      wallets: { address: string; profile: string }[]
    }
    const expected = HUNDRED_SHAPE.reduce((n, g) => n + g.count, 0)
    if (wallets.length !== expected)
      throw new Error(`the simulator holds ${wallets.length} wallets, not ${expected}`)
    const mirror = await openSqliteMirror(databasePath(temp.dir))
    for (const w of wallets) await mirror.watchlist.add({ address: w.address }, 1_700_000_000)
    // Unpaced: the sync runs at the pace of this machine, the most it can hold in flight.
    await writeSettings(mirror.settings, { plan: 'off' }, 1_700_000_000)
    await mirror.close()

    const t0 = performance.now()
    const child = spawn(process.execPath, builtCliArgs(temp.dir, sim.url, ['sync', '--once']), {
      env: appNodeEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      if (process.env.BENCH_VERBOSE) process.stdout.write(c)
    })
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    const samples: number[] = []
    const sampler = setInterval(() => {
      const mb = rssMbOf(child.pid as number)
      if (mb !== null) samples.push(mb)
    }, SAMPLE_MS)
    const code = await new Promise<number | null>((done) => child.on('exit', done))
    clearInterval(sampler)
    const syncSec = (performance.now() - t0) / 1000
    if (code !== 0) throw new Error(`sync exited with ${code}:\n${out}`)

    const check = await openSqliteMirror(databasePath(temp.dir))
    const { n } = check.database.sqlite.prepare('select count(*) as n from transactions').get() as {
      n: number
    }
    await check.close()
    const sorted = [...samples].sort((a, b) => a - b)
    const rssPeakMb = sorted.at(-1) ?? 0
    const rssMedianMb = sorted[Math.floor(sorted.length / 2)] ?? 0
    console.log(
      `${wallets.length} wallets, ${n.toLocaleString('en')} transactions synced in ${syncSec.toFixed(1)} s; ` +
        `main-process RSS median ${rssMedianMb.toFixed(0)} MB, peak ${rssPeakMb.toFixed(0)} MB (goal < ${GOAL_MB} MB; ${samples.length} samples)`,
    )
    return {
      wallets: wallets.length,
      transactions: n,
      syncSec,
      rssPeakMb,
      rssMedianMb,
      figures: [
        {
          figure: `RSS while ${wallets.length} wallets sync (peak, main process)`,
          goal: `< ${GOAL_MB} MB`,
          measured: `${rssPeakMb.toFixed(0)} MB (median ${rssMedianMb.toFixed(0)} MB)`,
          met: rssPeakMb < GOAL_MB,
        },
      ],
    }
  } finally {
    await sim.close()
    temp.remove()
  }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  runSyncMemoryBench().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
