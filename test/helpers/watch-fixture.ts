import type { WatchCadence } from '@shared/ipc/settings-schemas'
import type { WatchDayProfileId } from '../../src-main/simulator/chain/wallet-profiles'
import { WatchScheduler, type CheckedWallet } from '../../src-main/sync/watch-scheduler'
import { clockReading } from './clocks'
import { startSyncFixture, type SyncFixture, type TestEngine } from './sync-fixture'

/** One wallet of the watch-day population watched on the simulator's manual clock. */
export interface WatchFixture {
  fx: SyncFixture
  address: string
  scheduler: WatchScheduler
  /** Credits the simulator charged the key so far. */
  credits(): number
  /** Moves the clock one cadence and runs a round; returns its syncs and what it cost. */
  nextRound(): Promise<{ checked: CheckedWallet[]; spent: number }>
  /** Whether the mirror holds a transaction. */
  isStored(signature: string): Promise<boolean>
}

/**
 * Watches one wallet of a watch-day profile (its live activity off) with the real engine
 * and scheduler over HTTP; the fixture is pushed onto `fixtures` for the test to stop.
 */
export async function startWatchFixture(
  engine: TestEngine,
  profile: WatchDayProfileId,
  cadence: WatchCadence,
  fixtures: SyncFixture[],
): Promise<WatchFixture> {
  const fx = await startSyncFixture({
    engine,
    sim: { population: 'watch-day', live: false, clock: { mode: 'manual' } },
  })
  fixtures.push(fx)
  const address = await fx.watch(profile)
  const scheduler = new WatchScheduler({
    schedule: fx.mirror.schedule,
    watchState: fx.mirror.watchState,
    engine: fx.runtime.engine,
    cadence: async () => cadence,
    clock: clockReading(() => fx.sim.chain.clock.nowSec()),
  })
  const credits = () => fx.sim.credits.forKey('demo').total
  return {
    fx,
    address,
    scheduler,
    credits,
    async nextRound() {
      fx.sim.chain.clock.advance(cadence.checkEverySec)
      const before = credits()
      const checked = await scheduler.runRound()
      return { checked, spent: credits() - before }
    },
    async isStored(signature) {
      const row = await fx.db
        .selectFrom('transactions')
        .select('id')
        .where('signature', '=', signature)
        .executeTakeFirst()
      return row !== undefined
    },
  }
}
