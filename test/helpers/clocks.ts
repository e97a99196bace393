import { systemClock, type Clock } from '../../src-shared/clock'

/**
 * Real timers with time read from `nowSec`: a fixed moment, or the simulator's chain clock
 * (so that what the app stamps agrees with the history the simulator generated).
 *
 * @example
 * createCore({ dataDir, clock: clockReading(() => 1_800_000_000) })
 * createCore({ dataDir, clock: clockReading(() => sim.chain.clock.nowSec()) })
 */
export function clockReading(nowSec: () => number): Clock {
  return { ...systemClock, nowMs: () => nowSec() * 1000 }
}
