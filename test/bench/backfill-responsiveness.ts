import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { createCore } from '../../src-main/app/core'
import { writeSettings } from '../../src-main/app/app-settings'
import { databasePath } from '../../src-main/app/data-dir'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import type { HistoryCursor } from '@shared/ipc/review-schemas'
import { profileAddressOf, startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'

// Issue 16, item 3: while a whale backfills (all streams, rate limit off, the simulator in
// its own process like the real service), a loop scrolls the History view over the same
// path the renderer uses — the core's dispatch of `history:page`, as the web shell and
// Electron's IPC do — and the main thread's event-loop delay is sampled throughout.
// Goals: query p99 < 25 ms, event-loop delay p99 < 20 ms.

export interface BackfillResponsivenessFigures {
  transactions: number
  backfillMs: number
  queries: number
  queryP50Ms: number
  queryP99Ms: number
  queryMaxMs: number
  eventLoopP99Ms: number
  eventLoopMaxMs: number
}

/** Pause between two History pages: a person scrolling fast. */
const SCROLL_PAUSE_MS = 5

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

/**
 * Backfills the whale's newest `transactions` through the app's core while History pages
 * are asked for; resolves to the latencies and the event-loop delay.
 */
export async function runBackfillResponsiveness(
  transactions = 50_000,
): Promise<BackfillResponsivenessFigures> {
  const temp = makeTempDir('heliograph-responsive-')
  const sim = await startSimulatorProcess(['--seed', '42'])
  try {
    const whale = await profileAddressOf(sim.url, 'whale')
    const setup = await openSqliteMirror(databasePath(temp.dir))
    await setup.watchlist.add({ address: whale, label: 'whale' }, 1_700_000_000)
    await setup.syncState.setDepthLimit(whale, { maxTransactions: transactions, sinceSec: null })
    await writeSettings(setup.settings, { plan: 'off' }, 1_700_000_000)
    await setup.close()

    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'bench',
      serviceUrl: sim.url,
      apiKey: 'demo',
      dataSource: 'service',
    })
    try {
      const page = async (cursor: HistoryCursor | null) => {
        const reply = await core.dispatch('history:page', { address: whale, limit: 100, cursor })
        if (!reply.ok) throw new Error(`history:page failed: ${reply.error.message}`)
        return reply.result as { nextCursor: HistoryCursor | null }
      }
      await page(null)

      const delay = monitorEventLoopDelay({ resolution: 1 })
      const latencies: number[] = []
      let isDone = false
      const t0 = performance.now()
      delay.enable()
      const backfill = core.dispatch('sync:run', { address: whale }).finally(() => {
        isDone = true
      })
      let cursor: HistoryCursor | null = null
      while (!isDone) {
        const q0 = performance.now()
        cursor = (await page(cursor)).nextCursor
        latencies.push(performance.now() - q0)
        await sleep(SCROLL_PAUSE_MS)
      }
      const outcome = await backfill
      delay.disable()
      const backfillMs = performance.now() - t0
      if (!outcome.ok) throw new Error(`the whale's backfill failed: ${outcome.error.message}`)
      const state = (outcome.result as { state: string }).state
      if (state !== 'ok') throw new Error(`the whale's backfill ended ${state}`)

      const sorted = [...latencies].sort((a, b) => a - b)
      const figures: BackfillResponsivenessFigures = {
        transactions,
        backfillMs,
        queries: latencies.length,
        queryP50Ms: percentile(sorted, 50),
        queryP99Ms: percentile(sorted, 99),
        queryMaxMs: sorted.at(-1) ?? 0,
        eventLoopP99Ms: delay.percentile(99) / 1e6,
        eventLoopMaxMs: delay.max / 1e6,
      }
      const ms = (v: number) => `${v.toFixed(1)} ms`
      process.stdout.write(
        `whale backfill (${transactions.toLocaleString('en-US')} transactions, all streams) through the core: ` +
          `${(backfillMs / 1000).toFixed(2)} s; ${figures.queries} history:page queries meanwhile, ` +
          `p50 ${ms(figures.queryP50Ms)}, p99 ${ms(figures.queryP99Ms)} (goal < 25 ms), max ${ms(figures.queryMaxMs)}; ` +
          `main-thread event-loop delay p99 ${ms(figures.eventLoopP99Ms)} (goal < 20 ms), max ${ms(figures.eventLoopMaxMs)}\n`,
      )
      return figures
    } finally {
      await core.close()
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
  runBackfillResponsiveness(Number(process.argv[2] ?? 50_000)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
    process.exit(1)
  })
}
