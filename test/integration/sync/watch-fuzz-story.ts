import { beforeAll, describe, expect, it } from 'vitest'
import {
  runWatchFuzz,
  SCHEDULED_PATTERNS,
  type FuzzChange,
  type WatchFuzzResult,
} from '../../helpers/watch-fuzz-run'

// The watch fuzz (issue 47) as a test: a seeded day of the patterns real wallets see over
// the watch-day population (50 wallets) at the default cadence, on the virtual clock. Each
// seed is a file of its own, so that a run's workers take them side by side; `npm run
// bench -- watch-fuzz` runs more seeds and days.

/** A change the watch did not find in time, with what a person needs to look into it. */
export function lateText(c: FuzzChange): string {
  const found =
    c.detectedSec === null ? 'never found' : `found ${c.detectedSec - c.landedSec} s later`
  return `${c.pattern}: wallet ${c.wallet}, signature ${c.signature}, ${found} (bound ${c.boundSec} s)`
}

/** The fuzz's story for one seed. */
export function describeWatchFuzz(seed: number): void {
  describe(`watch fuzz, seed ${seed}: a day of real-world patterns at the default cadence`, () => {
    let fuzz: WatchFuzzResult
    beforeAll(async () => {
      fuzz = await runWatchFuzz({ seed })
    }, 1_200_000)

    it('mixes every pattern beside the population’s own activity', () => {
      const seen = new Set(fuzz.changes.map((c) => c.pattern))
      for (const pattern of SCHEDULED_PATTERNS) expect([...seen], pattern).toContain(pattern)
      expect(seen.has('reopen by purchase') || seen.has('reopen by someone else')).toBe(true)
      expect([...seen]).toContain('live')
      expect(fuzz.changes.length).toBeGreaterThan(100)
    })

    it('finds every change within the bound of what finds it (a miss names its wallet and signature)', () => {
      expect(fuzz.late.map(lateText)).toEqual([])
      expect(fuzz.changes.every((c) => c.detectedSec !== null)).toBe(true)
    })

    it('after the day the mirror equals the truth for every wallet: history, transfers, holdings', () => {
      expect(fuzz.mismatches).toEqual([])
    })

    it('every alert an oracle reads off the truth fired exactly once, and no other', () => {
      expect(fuzz.alerts.expected).toBeGreaterThan(100)
      expect(fuzz.alerts.missed).toEqual([])
      expect(fuzz.alerts.extra).toEqual([])
      expect(fuzz.alerts.repeated).toEqual([])
      expect(fuzz.alerts.fired).toBe(fuzz.alerts.expected)
    })
  })
}
