import {
  runWatchFuzz,
  type FuzzChange,
  type FuzzPattern,
  type WatchFuzzResult,
} from '../helpers/watch-fuzz-run'
import { percentile } from './watch-day.bench'

// The watch fuzz (issue 47) over more seeds and days than `npm test` runs: seeded days of
// the patterns real wallets see over the watch-day population (50 wallets) at the default
// cadence, on the virtual clock. A change counts as detected when it reached the mirror
// within the bound of what finds it; latency is virtual seconds from the moment it landed
// to the round that found it in the mirror. Run: npm run bench -- watch-fuzz
// (WATCH_FUZZ_SEEDS and WATCH_FUZZ_DAYS choose how many; 4 seeds of 2 days by default).

const SEEDS = Number(process.env.WATCH_FUZZ_SEEDS ?? 4)
const DAYS = Number(process.env.WATCH_FUZZ_DAYS ?? 2)

/** Patterns in the order the line lists them: what the watch does most first. */
const ORDER: readonly FuzzPattern[] = [
  'live',
  'purchase',
  'receipt into a just-opened account',
  'receipt into a known account',
  'token-2022',
  'close',
  'reopen by purchase',
  'reopen by someone else',
  'failed swap',
  'burst during a look',
  'between a look and its sync',
  'airdrop',
  'receipt into a new account',
  'live compressed',
  'silent memo',
  'silent failed',
]

const n = (value: number): string => Math.round(value).toLocaleString('en-US')

/** A latency as the line says it: seconds, minutes or hours. */
function latencyText(sec: number): string {
  if (sec < 120) return `${Math.round(sec)} s`
  if (sec < 7_200) return `${Math.round(sec / 60)} min`
  return `${(sec / 3_600).toFixed(1)} h`
}

/** The one line the README quotes. */
export function watchFuzzLine(runs: readonly WatchFuzzResult[]): string {
  const changes: FuzzChange[] = runs.flatMap((r) => r.changes)
  const late = new Set(runs.flatMap((r) => r.late).map((c) => c.signature))
  const detected = changes.filter((c) => !late.has(c.signature)).length
  const isEqual = runs.every((r) => r.mismatches.length === 0)
  const days = runs.reduce((sum, r) => sum + r.days, 0)
  const credits = runs.reduce((sum, r) => sum + r.watchingCredits, 0) / days
  const byPattern = ORDER.flatMap((pattern) => {
    const waited = changes
      .filter((c) => c.pattern === pattern && c.detectedSec !== null)
      .map((c) => Math.max(0, (c.detectedSec as number) - c.landedSec))
    return waited.length === 0 ? [] : [`${pattern} ${latencyText(percentile(waited, 95))}`]
  })
  return (
    `watch-fuzz: ${runs.length} seeds, ${n(changes.length)} changes: detected ${n(detected)}/${n(changes.length)}, ` +
    `mirror equals truth: ${isEqual ? 'yes' : 'no'}; p95 latency by pattern: ${byPattern.join(', ')}; ` +
    `credits/day ${n(credits)}`
  )
}

/** The alerts' line: what the oracle expected against what fired. */
export function watchFuzzAlertsLine(runs: readonly WatchFuzzResult[]): string {
  const sum = (f: (r: WatchFuzzResult) => number) => runs.reduce((s, r) => s + f(r), 0)
  return (
    `watch-fuzz alerts: 10 rules: fired ${n(sum((r) => r.alerts.fired))}, expected ` +
    `${n(sum((r) => r.alerts.expected))} (missed ${n(sum((r) => r.alerts.missed.length))}, ` +
    `extra ${n(sum((r) => r.alerts.extra.length))}, fired twice ${n(sum((r) => r.alerts.repeated.length))})`
  )
}

export async function runWatchFuzzBench(): Promise<WatchFuzzResult[]> {
  const runs: WatchFuzzResult[] = []
  for (let seed = 1; seed <= SEEDS; seed++) {
    const t0 = performance.now()
    const run = await runWatchFuzz({
      seed,
      days: DAYS,
      onDay: (day, credits) =>
        process.stderr.write(`  seed ${seed}: day ${day} watched, ${n(credits)} credits so far\n`),
    })
    runs.push(run)
    process.stdout.write(
      `seed ${seed}: ${run.changes.length} changes over ${DAYS} days, ${run.late.length} late, ` +
        `${run.skipped} injections refused, ${((performance.now() - t0) / 1000).toFixed(0)} s of real time\n` +
        [...run.mismatches, ...run.late.map((c) => `late: ${c.pattern} ${c.wallet} ${c.signature}`)]
          .map((line) => `  ${line}\n`)
          .join('') +
        [...run.alerts.missed, ...run.alerts.extra, ...run.alerts.repeated]
          .map((line) => `  alert: ${line}\n`)
          .join(''),
    )
  }
  process.stdout.write(`${watchFuzzLine(runs)}\n${watchFuzzAlertsLine(runs)}\n`)
  return runs
}
