import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LeaseKeeper } from '../../../src-main/sync/lease-keeper'
import { WatchScheduler } from '../../../src-main/sync/watch-scheduler'
import { createSyncRuntime } from '../../../src-main/sync/sync-runtime'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { expectWalletEqualsTruth } from './mirror-truth-assertions'
import { clockReading } from '../../helpers/clocks'

// Two sync workers watching one PostgreSQL mirror: each scheduler looks at the wallets its
// worker holds leases on, so every wallet's first sync runs once, in one of them.

const CADENCE = {
  isWatching: true,
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 3_600,
  backstopEverySec: 86_400,
}
const PROFILES = [
  'idle',
  'casual',
  'compressed-holder',
  'failed-transactions',
  'nft-collector',
  'empty',
]

describe('watching a mirror shared by two sync workers', () => {
  let fx: SyncFixture
  const keepers: LeaseKeeper[] = []

  beforeAll(async () => {
    fx = await startSyncFixture({ engine: 'postgres', sim: { clock: { mode: 'manual' } } })
    for (const profile of PROFILES) await fx.watch(profile)
  })
  afterAll(async () => {
    for (const keeper of keepers) await keeper.stop()
    await fx.stop()
  })

  it('splits the wallets: each is synced by one worker, and the mirror equals the truth', async () => {
    const workers = await Promise.all(
      ['a', 'b'].map(async (name) => {
        // A second worker: its own engine and lease holder over the same database.
        const runtime =
          name === 'a'
            ? fx.runtime
            : createSyncRuntime({
                mirror: fx.mirror,
                service: singleOriginServiceSettings(fx.sim.url, 'demo', { timeoutMs: 5_000 }),
                rate: 'off',
                budget: async () => ({ dailyCredits: null, monthlyCredits: null }),
              })
        const keeper = new LeaseKeeper({
          store: fx.mirror.leases,
          holder: `worker-${name}`,
          ttlMs: 30_000,
          watched: [],
        })
        keepers.push(keeper)
        await keeper.start()
        const scheduler = new WatchScheduler({
          schedule: fx.mirror.schedule,
          watchState: fx.mirror.watchState,
          engine: runtime.engine,
          cadence: async () => CADENCE,
          clock: clockReading(() => fx.sim.chain.clock.nowSec()),
          ownWallets: async () =>
            keeper.shareOf((await fx.mirror.watchlist.list()).map((w) => w.address)),
        })
        return { keeper, scheduler }
      }),
    )
    // Both are present before either looks, as two workers started together are.
    for (const w of workers) await w.keeper.runRound()
    const rounds = await Promise.all(workers.map((w) => w.scheduler.runRound()))
    const synced = rounds.map((checked) => new Set(checked.map((c) => c.address)))
    const [a, b] = synced as [Set<string>, Set<string>]
    expect([...a].filter((address) => b.has(address))).toEqual([])
    expect(a.size).toBe(PROFILES.length / 2)
    expect(b.size).toBe(PROFILES.length / 2)
    expect(new Set([...a, ...b]).size).toBe(PROFILES.length)
    // Every credit the service charged is one the two workers' syncs and looks account for.
    const syncCredits = rounds.flat().reduce((sum, c) => sum + c.syncCredits, 0)
    expect(syncCredits).toBeGreaterThan(0)
    expect(fx.sim.credits.forKey('demo').total).toBeGreaterThanOrEqual(syncCredits)
    for (const w of await fx.mirror.watchlist.list())
      await expectWalletEqualsTruth(fx.db, fx.sim.url, w.address)
  })
})
