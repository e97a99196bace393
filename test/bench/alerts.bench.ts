import {
  expectedAlerts,
  firedAlerts,
  oracleRules,
  rulesWithOracles,
} from '../helpers/alert-oracles'
import { runWatchDay, type WatchDayResult } from '../helpers/watch-day-run'
import { percentile } from './watch-day.bench'

// The alerts bench (issue 30): the watch day (50 wallets, 24 simulated hours, the default
// cadence) with ten rules of different triggers evaluated after each wallet's sync, as the
// app does. What they should have fired is computed from the simulator's truth (its history
// and transfers of every wallet), not from the mirror; latency is real time from the page
// that brought a change being written to the alert being written; the credits for alerts
// are the day's credits with the rules minus the same day without them.
// Run: npm run bench -- alerts

interface AlertsInspection {
  expected: Set<string>
  fired: Set<string>
  firedCount: number
}

export interface AlertsBenchResult {
  rules: number
  fired: number
  expected: number
  missed: number
  extra: number
  latenciesSec: number[]
  creditsForAlerts: number
  day: WatchDayResult
}

/** The one line the README quotes. */
export function alertsLine(r: AlertsBenchResult): string {
  const s = (v: number) => v.toFixed(2)
  return (
    `alerts: ${r.rules} rules, ${r.day.hours} h: fired ${r.fired}, expected ${r.expected} ` +
    `(missed ${r.missed}, extra ${r.extra}), latency after the change lands ` +
    `p50 ${s(percentile(r.latenciesSec, 50))} s p95 ${s(percentile(r.latenciesSec, 95))} s; ` +
    `credits for alerts ${r.creditsForAlerts}`
  )
}

export async function runAlertsBench(): Promise<AlertsBenchResult> {
  const oracles = rulesWithOracles()
  const latenciesSec: number[] = []
  const tagged = new Set<string>()
  const progress = (label: string) => (hour: number, credits: number) => {
    if (hour % 6 === 0)
      process.stderr.write(`  ${label}: ${hour} h simulated, ${credits} credits\n`)
  }
  const withRules = await runWatchDay({
    onHour: progress('with rules'),
    alerts: {
      ...oracleRules(oracles, tagged),
      onFired: (report) => {
        const waitedSec = (Date.now() - report.oldestWrittenAtMs) / 1000
        for (const _ of report.alertIds) latenciesSec.push(waitedSec)
      },
    },
    inspect: async ({ sim, mirror, newSignatures }): Promise<AlertsInspection> => {
      const fired = await firedAlerts(mirror)
      return {
        expected: await expectedAlerts(sim.url, mirror, oracles, newSignatures, tagged),
        fired: new Set(fired.keys()),
        firedCount: [...fired.values()].reduce((sum, n) => sum + n, 0),
      }
    },
  })
  const without = await runWatchDay({ onHour: progress('without rules') })
  const { expected, fired, firedCount } = withRules.inspection as AlertsInspection
  return {
    rules: oracles.length,
    fired: firedCount,
    expected: expected.size,
    missed: [...expected].filter((k) => !fired.has(k)).length,
    extra: [...fired].filter((k) => !expected.has(k)).length + (firedCount - fired.size),
    latenciesSec,
    creditsForAlerts: withRules.heliographCredits - without.heliographCredits,
    day: withRules,
  }
}

export async function runAlertsBenchReport(): Promise<AlertsBenchResult> {
  const result = await runAlertsBench()
  process.stdout.write(`${alertsLine(result)}\n`)
  return result
}
