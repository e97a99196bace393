import { join } from 'node:path'
import { ENDPOINT_CLASSES, PLAN_RATE_LIMITS_RPS, type EndpointClass } from '@shared/api/prices'
import { openSqliteMirror } from '../../src-main/db/sqlite/mirror'
import { singleOriginServiceSettings } from '../../src-main/service/service-settings'
import { createSyncRuntime } from '../../src-main/sync/sync-runtime'
import {
  classWindow,
  fetchRateLog,
  requestsBeforeRetryAfter,
  tightestSpanMs,
} from '../helpers/rate-log'
import { startSimulatorProcess } from '../helpers/simulator-process'
import { makeTempDir } from '../helpers/temp-dir'
import type { BenchFigure } from './bench-table'

// Issue 16, item 2: the plan's rate limit as the only limit. The simulator (in its own
// process, enforcing the plan per key and endpoint class in one-second windows) serves the
// 20 wallets of its `backfill` population; the engine backfills them all at once for a
// fixed time. From the simulator's log of every rated request, per class the sync uses:
// requests let through per second in steady state ÷ the plan's rate, 429s in steady state
// and in all, and requests that came while a 429's Retry-After still ran.
//
// Steady state of a class: from WARM_UP_MS after its first request to the last moment the
// engine still had calls of that class waiting for the rate (sampled every SAMPLE_MS), so a
// class whose work runs out early (Photon on Developer) is judged only while it had work.
// Run: npx tsx test/bench/rate-limit.bench.ts [free|developer]

const WARM_UP_MS = 3_000
/** Below this much steady state a class's work ran out too soon to judge its utilisation. */
const MIN_STEADY_SEC = 10
const SAMPLE_MS = 20
/** Requests within this long after a 429 were on the wire before the client could read it. */
const IN_FLIGHT_MS = 100
const RUN_SEC: Record<BenchPlan, number> = {
  free: Number(process.env.RATE_BENCH_FREE_SEC ?? 60),
  developer: Number(process.env.RATE_BENCH_DEVELOPER_SEC ?? 60),
}
const NO_BUDGET = { dailyCredits: null, monthlyCredits: null }

type BenchPlan = 'free' | 'developer'

export interface ClassFigures {
  endpointClass: EndpointClass
  allowedRps: number
  passedRps: number
  utilisation: number
  steadySec: number
  /** Share of the steady window the engine had calls of the class waiting for the rate. */
  backloggedShare: number
  steady429s: number
  total429s: number
  requests: number
  earlyRequests: number
  /** Shortest time in which limit + 1 requests arrived in steady state (< 1,000 ms risks a 429). */
  tightestSpanMs: number | null
}

/** Backfills the backfill population's 20 wallets at once on a plan; figures per class. */
export async function runRateLimitPlan(plan: BenchPlan): Promise<ClassFigures[]> {
  const temp = makeTempDir('heliograph-rate-bench-')
  const sim = await startSimulatorProcess([
    '--seed',
    '42',
    '--plan',
    plan,
    '--population',
    'backfill',
  ])
  const mirror = await openSqliteMirror(join(temp.dir, 'rate.sqlite'))
  try {
    const runtime = createSyncRuntime({
      mirror,
      service: singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 30_000 }),
      rate: plan,
      budget: async () => NO_BUDGET,
    })
    const { wallets } = (await (await fetch(`${sim.url}/__sim/wallets`)).json()) as {
      wallets: { address: string; profile: string }[]
    }
    for (const w of wallets)
      await mirror.watchlist.add({ address: w.address, label: w.profile }, 1_700_000_000)

    // When each class had calls waiting for the rate.
    const lastBacklogMs = new Map<EndpointClass, number>()
    const backlogSamples = new Map<EndpointClass, number[]>()
    const sampler = setInterval(() => {
      const now = Date.now()
      for (const c of ENDPOINT_CLASSES) {
        if (runtime.shaper.waitingCalls(c) === 0) continue
        lastBacklogMs.set(c, now)
        backlogSamples.set(c, [...(backlogSamples.get(c) ?? []), now])
      }
    }, SAMPLE_MS)

    const runs = wallets.map((w) => runtime.engine.syncWallet(w.address).catch(() => null))
    const stop = setTimeout(() => void runtime.engine.finishPagesAndStop(), RUN_SEC[plan] * 1000)
    await Promise.all(runs)
    clearTimeout(stop)
    clearInterval(sampler)
    await runtime.meter.idle()

    const log = await fetchRateLog(sim.url)
    const early = requestsBeforeRetryAfter(log, IN_FLIGHT_MS)
    const figures: ClassFigures[] = []
    for (const endpointClass of ENDPOINT_CLASSES) {
      const ofClass = log.filter((d) => d.endpointClass === endpointClass)
      if (ofClass.length === 0) continue
      const allowedRps = PLAN_RATE_LIMITS_RPS[plan][endpointClass]
      const fromMs = (ofClass[0]?.atMs ?? 0) + WARM_UP_MS
      const toMs = lastBacklogMs.get(endpointClass) ?? fromMs
      const steady = classWindow(log, endpointClass, fromMs, toMs)
      const samples = (backlogSamples.get(endpointClass) ?? []).filter(
        (t) => t >= fromMs && t < toMs,
      )
      figures.push({
        endpointClass,
        allowedRps,
        passedRps: steady.passedRps,
        utilisation: steady.passedRps / allowedRps,
        steadySec: steady.seconds,
        backloggedShare:
          steady.seconds > 0 ? (samples.length * SAMPLE_MS) / 1000 / steady.seconds : 0,
        steady429s: steady.limited,
        total429s: ofClass.filter((d) => d.retryAfterSec !== null).length,
        requests: ofClass.length,
        earlyRequests: early.filter((e) => e.endpointClass === endpointClass).length,
        tightestSpanMs: tightestSpanMs(log, endpointClass, allowedRps, fromMs, toMs),
      })
    }
    return figures
  } finally {
    await mirror.close()
    await sim.close()
    temp.remove()
  }
}

/** Runs the rate-limit benchmark on Free and Developer; prints and returns its table rows. */
export async function runRateLimitBench(
  plans: readonly BenchPlan[] = ['free', 'developer'],
): Promise<{ figures: BenchFigure[] }> {
  const rows: BenchFigure[] = []
  for (const plan of plans) {
    const perClass = await runRateLimitPlan(plan)
    for (const f of perClass) {
      process.stdout.write(
        `${plan} ${f.endpointClass}: ${f.passedRps.toFixed(2)} of ${f.allowedRps} rps ` +
          `(${(f.utilisation * 100).toFixed(1)}%) over ${f.steadySec.toFixed(1)} s of steady state ` +
          `(calls waiting for the rate ${(f.backloggedShare * 100).toFixed(0)}% of it); ` +
          `429s ${f.steady429s} in steady state, ${f.total429s} in all, of ${f.requests} requests; ` +
          `requests before Retry-After ran out: ${f.earlyRequests}; ` +
          `${f.allowedRps + 1} requests in ${f.tightestSpanMs ?? '–'} ms at the closest (a 429 needs < 1,000)\n`,
      )
      const name = `rate limit, ${plan} plan, ${f.endpointClass} class`
      rows.push(
        {
          figure: `${name}: utilisation in steady state`,
          goal: '≥ 95%',
          measured:
            `${(f.utilisation * 100).toFixed(1)}% (${f.passedRps.toFixed(2)}/${f.allowedRps} rps, ${f.steadySec.toFixed(0)} s)` +
            (f.steadySec < MIN_STEADY_SEC
              ? ' — too short to judge: the class ran out of work'
              : ''),
          met: f.steadySec < MIN_STEADY_SEC ? null : f.utilisation >= 0.95,
        },
        {
          figure: `${name}: 429s in steady state (in all)`,
          goal: '0',
          measured: `${f.steady429s} (${f.total429s})`,
          met: f.steady429s === 0,
        },
        {
          figure: `${name}: requests before Retry-After ran out`,
          goal: '0',
          measured: String(f.earlyRequests),
          met: f.earlyRequests === 0,
        },
      )
    }
  }
  return { figures: rows }
}

if (
  process.argv[1] !== undefined &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href
) {
  const only = process.argv[2]
  if (only !== undefined && only !== 'free' && only !== 'developer')
    throw new Error(`plan must be free or developer, not ${only}`)
  runRateLimitBench(only ? [only] : undefined)
    .then(({ figures }) => {
      process.stdout.write(`${figures.map((f) => `${f.figure}: ${f.measured}`).join('\n')}\n`)
    })
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
      process.exit(1)
    })
}
