import { beforeAll, describe, expect, it } from 'vitest'
import { PLAN_MONTHLY_CREDITS } from '@shared/api/prices'
import { DEFAULT_WATCH_CADENCE } from '../../../src-main/app/app-settings'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { runWatchDay, type WatchDayResult } from '../../helpers/watch-day-run'

// The watch day (issue 11) as a test of behaviour on the virtual clock: 50 wallets for 24
// simulated hours at the default cadence. Credits and latencies are virtual, so they are
// exact for the seed and can be asserted; `npm run bench -- watch-day` prints the same run.
// Each engine's day is a test file of its own, so that a run's workers take them side by
// side.

/**
 * The watch day's story on one engine, over `hours` (24: the bench's day; fewer prove the
 * same behaviour on the other engine for less of the suite's time).
 */
export function describeWatchDay(engine: TestEngine, hours = 24): void {
  // The engines a run checks (the fast tier: SQLite alone) choose which days run.
  describe.skipIf(!ENGINES.includes(engine))(
    `watch day: 50 wallets, ${hours} virtual hours, default cadence (on ${engine})`,
    () => {
      let day: WatchDayResult
      /** What the run spent, as a day's worth. */
      const perDay = () => (day.heliographCredits * 24) / hours

      beforeAll(async () => {
        day = await runWatchDay({ hours, engine })
      }, 600_000)

      // The projection is of a whole day (its changes are the last 24 hours' count).
      it.skipIf(hours < 24)('the Settings projection equals what the day spent, within 10%', () => {
        expect(day.heliographCredits).toBeGreaterThan(0)
        const error =
          Math.abs(day.projection.perDay - day.heliographCredits) / day.heliographCredits
        expect(error, JSON.stringify(day.projection)).toBeLessThanOrEqual(0.1)
      })

      it('spends at most 1% of what the rotki-style refresher spends: half a Free plan a month', () => {
        expect(day.heliographCredits / day.rotkiCredits).toBeLessThanOrEqual(0.01)
        expect(perDay() * 30).toBeLessThanOrEqual(PLAN_MONTHLY_CREDITS.free / 2)
        expect(day.rotkiCredits).toBeLessThan(day.naiveCredits)
      })

      it('detects every change within two cadences (p95), and the mirror equals the truth', () => {
        expect(day.changes).toBeGreaterThanOrEqual((60 * hours) / 24)
        expect(day.detected).toBe(day.changes)
        const sorted = [...day.latenciesSec].sort((a, b) => a - b)
        const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? Infinity
        expect(p95).toBeLessThanOrEqual(2 * DEFAULT_WATCH_CADENCE.checkEverySec)
        expect(day.mismatch).toBeNull()
        expect(day.mirrorEqualsTruth).toBe(true)
      })
    },
  )
}

/**
 * The day in webhook mode: deliveries written as they come, the probe at its floors. Half
 * a day covers two of its 6-hour clocks (the webhook check, the token-account lists); the
 * bench runs the whole day.
 */
export function describeWebhookDay(engine: TestEngine, hours = 12): void {
  describe.skipIf(!ENGINES.includes(engine))(
    `watch day in webhook mode: 50 wallets, ${hours} virtual hours (on ${engine})`,
    () => {
      let day: WatchDayResult

      beforeAll(async () => {
        day = await runWatchDay({ hours, engine, mode: 'webhook' })
      }, 600_000)

      it('spends at most 3,000 credits a day, a delivery 1 credit of them', () => {
        expect((day.heliographCredits * 24) / hours).toBeLessThanOrEqual(3_000)
        // Enhanced webhooks skip failed transactions: every other one is delivered once.
        expect(day.webhooks?.deliveries).toBeGreaterThanOrEqual(day.changes - 5)
        expect(day.webhooks?.deliveries).toBeLessThanOrEqual(day.changes)
      })

      it('detects every change, delivered or not, and the mirror equals the truth', () => {
        expect(day.changes).toBeGreaterThanOrEqual((60 * hours) / 24)
        expect(day.detected).toBe(day.changes)
        expect(day.mismatch).toBeNull()
        expect(day.mirrorEqualsTruth).toBe(true)
      })
    },
  )
}

/**
 * The watch day on the real service's variety (`variance: 'real'`), polling and in webhook
 * mode: "SOL" mints, absent cursors, null prices and names, deliveries without
 * `transactionError`. Every change is still found and the mirror still equals the truth;
 * what the variety costs is not this story's (the plain days hold the credits).
 */
export function describeWatchDayOnRealVariety(hours: number): void {
  describe.each(['polling', 'webhook'] as const)(
    `watch day on the real service’s variety: 50 wallets, ${hours} virtual hours, %s (on sqlite)`,
    (mode) => {
      let day: WatchDayResult
      beforeAll(async () => {
        day = await runWatchDay({ hours, engine: 'sqlite', mode, variance: 'real' })
      }, 600_000)

      it('detects every change and the mirror equals the truth', () => {
        expect(day.changes).toBeGreaterThanOrEqual((60 * hours) / 24)
        expect(day.detected).toBe(day.changes)
        expect(day.mismatch).toBeNull()
        expect(day.mirrorEqualsTruth).toBe(true)
        // Webhook mode: the deliveries were written as delivered, not synced instead.
        if (mode === 'webhook')
          expect(day.webhooks?.deliveries).toBeGreaterThanOrEqual(day.changes - 5)
      })
    },
  )
}
