import { PLAN_MONTHLY_CREDITS } from '@shared/api/prices'
import { runWatchDay, type WatchDayResult } from '../helpers/watch-day-run'

// The watch day of issue 11: 50 wallets watched for 24 simulated hours at a 60-second
// cadence (the default cadence), against the rotki-style refresher and the naive poller.
// Goals: ratio ≤ 0.03 against rotki-style, every change detected, p95 latency ≤ 120 s,
// the mirror equal to the truth. Run: npm run bench -- watch-day

/** The p-th percentile (nearest rank) of some numbers. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

const n = (value: number): string => Math.round(value).toLocaleString('en-US')

/** The one line the README quotes. */
export function watchDayLine(day: WatchDayResult): string {
  const ratio = (day.heliographCredits / day.rotkiCredits).toFixed(3)
  return (
    `watch-day: ${day.wallets} wallets, ${day.hours} h: heliograph ${n(day.heliographCredits)} credits, ` +
    `rotki-style ${n(day.rotkiCredits)} (ratio ${ratio}), naive ${n(day.naiveCredits)}; ` +
    `detected ${day.detected}/${day.changes} changes, latency p50 ${n(percentile(day.latenciesSec, 50))} s ` +
    `p95 ${n(percentile(day.latenciesSec, 95))} s; mirror equals truth: ${day.mirrorEqualsTruth ? 'yes' : 'no'}`
  )
}

/** The webhook run's line: the same day with deliveries instead of polling. */
export function watchDayWebhooksLine(day: WatchDayResult): string {
  const hooks = day.webhooks
  const seconds = (p: number) => (hooks ? percentile(hooks.latenciesSec, p) : Number.NaN).toFixed(1)
  return (
    `watch-day webhooks: ${day.wallets} wallets, ${day.hours} h: heliograph ${n(day.heliographCredits)} credits, ` +
    `deliveries ${n(hooks?.deliveries ?? 0)}; detected ${day.detected}/${day.changes} changes, ` +
    `latency p50 ${seconds(50)} s p95 ${seconds(95)} s; mirror equals truth: ${day.mirrorEqualsTruth ? 'yes' : 'no'}`
  )
}

/** What each run's day comes to over a 30-day month, against the Free plan's credits. */
export function monthLine(polling: WatchDayResult, webhooks: WatchDayResult): string {
  const free = PLAN_MONTHLY_CREDITS.free
  const month = (day: WatchDayResult) => day.heliographCredits * 30
  const share = (day: WatchDayResult) => `${((month(day) / free) * 100).toFixed(1)}% of Free`
  return (
    `month: polling ${n(month(polling))} credits (${share(polling)}), ` +
    `webhooks ${n(month(webhooks))} (${share(webhooks)})`
  )
}

export async function runWatchDayBench(): Promise<WatchDayResult> {
  const t0 = performance.now()
  const day = await runWatchDay({
    onHour: (hour, credits) => {
      if (hour % 6 === 0)
        process.stderr.write(`  ${hour} h simulated, ${n(credits)} credits so far\n`)
    },
  })
  const p = day.projection
  process.stdout.write(
    `first full sync of the ${day.wallets} wallets: ${n(day.initialSyncCredits)} credits (not counted above)\n` +
      `projection for the same watchlist and cadence: ${n(p.perDay)} credits/day ` +
      `(balance looks ${n(p.balanceLooks)}, token-account lists ${n(p.tokenAccountLists)}, ` +
      `compressed looks ${n(p.compressedLooks)}, full checks ${n(p.backstop)}, syncs of changes ${n(p.changeSyncs)})\n` +
      (day.mismatch ? `mirror differs: ${day.mismatch}\n` : '') +
      `(${((performance.now() - t0) / 1000).toFixed(0)} s of real time)\n` +
      `${watchDayLine(day)}\n`,
  )
  const t1 = performance.now()
  const hooks = await runWatchDay({
    mode: 'webhook',
    onHour: (hour, credits) => {
      if (hour % 6 === 0)
        process.stderr.write(`  webhooks: ${hour} h simulated, ${n(credits)} credits so far\n`)
    },
  })
  process.stdout.write(
    (hooks.mismatch ? `mirror differs: ${hooks.mismatch}\n` : '') +
      `(${((performance.now() - t1) / 1000).toFixed(0)} s of real time)\n` +
      `${watchDayWebhooksLine(hooks)}\n${monthLine(day, hooks)}\n`,
  )
  return day
}
