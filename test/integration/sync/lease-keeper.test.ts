import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SyncLeaseStore } from '../../../src-main/db/stores/sync-lease-store'
import { VirtualClock } from '../../helpers/virtual-clock'
import { LeaseKeeper } from '../../../src-main/sync/lease-keeper'
import { LEASE_ENGINES, type LeaseDatabase } from '../../helpers/lease-engines'
import { testAddress } from '../../helpers/wallets'

const TTL = 30_000
const WALLETS = Array.from({ length: 20 }, (_, i) => testAddress(i + 1))

/** A clock the test moves by hand. */
function manualClock(startMs = 1_795_000_000_000): VirtualClock {
  return new VirtualClock(startMs)
}

/** A keeper of the 20 wallets named `holder`, on the test's clock. */
function keeperOn(store: SyncLeaseStore, holder: string, clock: VirtualClock) {
  return new LeaseKeeper({ store, holder, ttlMs: TTL, watched: WALLETS, clock })
}

/** What the database says each holder has, wallets only. */
async function walletsByHolder(store: SyncLeaseStore, nowMs: number) {
  const byHolder = new Map<string, string[]>()
  for (const lease of await store.all(nowMs)) {
    if (!WALLETS.includes(lease.walletAddress)) continue
    byHolder.set(lease.holder, [...(byHolder.get(lease.holder) ?? []), lease.walletAddress])
  }
  return byHolder
}

describe.each(Object.keys(LEASE_ENGINES) as (keyof typeof LEASE_ENGINES)[])(
  'lease keepers on %s',
  (engine) => {
    let database: LeaseDatabase
    let storeA: SyncLeaseStore
    let storeB: SyncLeaseStore
    beforeEach(async () => {
      database = await LEASE_ENGINES[engine](2)
      ;[storeA, storeB] = database.stores as [SyncLeaseStore, SyncLeaseStore]
    })
    afterEach(() => database.close())

    it('a second worker gets half the wallets; together they hold each once', async () => {
      const clock = manualClock()
      const a = keeperOn(storeA, 'a', clock)
      const b = keeperOn(storeB, 'b', clock)
      await a.runRound()
      expect(a.mine()).toEqual([...WALLETS].sort())

      // b announces itself; a gives up its surplus on its next round; b takes it.
      await b.runRound()
      expect(b.mine()).toEqual([])
      await clock.advance(1_000)
      await a.runRound()
      await b.runRound()
      expect(a.mine()).toHaveLength(10)
      expect(b.mine()).toHaveLength(10)
      expect([...a.mine(), ...b.mine()].sort()).toEqual([...WALLETS].sort())
      for (const wallet of WALLETS) expect(a.isMine(wallet)).toBe(!b.isMine(wallet))

      const inDatabase = await walletsByHolder(storeA, clock.nowMs())
      expect(inDatabase.get('a')?.sort()).toEqual(a.mine())
      expect(inDatabase.get('b')?.sort()).toEqual(b.mine())
      await a.stop()
      await b.stop()
    })

    it('rounds of two workers running at once never give one wallet to both', async () => {
      const clock = manualClock()
      const a = keeperOn(storeA, 'a', clock)
      const b = keeperOn(storeB, 'b', clock)
      for (let round = 0; round < 4; round++) {
        await Promise.all([a.runRound(), b.runRound()])
        expect(a.mine().filter((wallet) => b.isMine(wallet))).toEqual([])
        await clock.advance(1_000)
      }
      expect(a.mine().length + b.mine().length).toBe(WALLETS.length)
      await Promise.all([a.stop(), b.stop()])
    })

    it('a worker that dies loses its wallets once their leases expire, not before', async () => {
      const clock = manualClock()
      const dead = keeperOn(storeA, 'dead', clock)
      const alive = keeperOn(storeB, 'alive', clock)
      await dead.runRound()
      await alive.runRound()
      await clock.advance(TTL - 1)
      await alive.runRound()
      expect(alive.mine()).toEqual([])
      expect(dead.isMine(WALLETS[0] as string)).toBe(true)

      // The dead one never renewed: its leases lapse, for itself too.
      await clock.advance(1)
      expect(dead.mine()).toEqual([])
      await alive.runRound()
      expect(alive.mine()).toEqual([...WALLETS].sort())
      expect([...(await walletsByHolder(storeB, clock.nowMs())).keys()]).toEqual(['alive'])
      await alive.stop()
    })

    it('stopping releases at once; the other worker takes all on its next round', async () => {
      const clock = manualClock()
      const a = keeperOn(storeA, 'a', clock)
      const b = keeperOn(storeB, 'b', clock)
      await b.runRound()
      await a.runRound()
      await b.runRound()
      await a.runRound()
      expect(a.mine()).toHaveLength(10)
      await a.stop()
      expect(a.mine()).toEqual([])
      expect(await storeA.held('a', clock.nowMs())).toEqual([])
      await b.runRound()
      await b.runRound()
      expect(b.mine()).toEqual([...WALLETS].sort())
      await b.stop()
    })

    it('gives up a wallet no longer watched', async () => {
      const clock = manualClock()
      const a = keeperOn(storeA, 'a', clock)
      await a.runRound()
      a.setWatched(WALLETS.slice(1))
      await a.runRound()
      expect(a.isMine(WALLETS[0] as string)).toBe(false)
      expect(await storeA.held('a', clock.nowMs())).not.toContain(WALLETS[0])
      expect(a.mine()).toEqual(WALLETS.slice(1).sort())
      await a.stop()
    })

    it('on its timer, two workers split the wallets and keep them renewed', async () => {
      const ttlMs = 600
      const a = new LeaseKeeper({ store: storeA, ttlMs, renewEveryMs: 50, watched: WALLETS })
      const b = new LeaseKeeper({ store: storeB, ttlMs, renewEveryMs: 50, watched: WALLETS })
      expect(a.holder).toMatch(/^.+:\d+:[0-9a-f]{8}$/)
      expect(a.holder).not.toBe(b.holder)
      await Promise.all([a.start(), b.start()])
      const deadline = Date.now() + 10_000
      while (a.mine().length !== 10 || b.mine().length !== 10) {
        if (Date.now() > deadline)
          throw new Error(`no even split: ${a.mine().length}/${b.mine().length}`)
        await new Promise((r) => setTimeout(r, 25))
      }
      // Still theirs after more than a lease's life: the timer renews them.
      await new Promise((r) => setTimeout(r, ttlMs * 2))
      expect(a.mine().length + b.mine().length).toBe(WALLETS.length)
      expect(a.mine().filter((wallet) => b.isMine(wallet))).toEqual([])
      await Promise.all([a.stop(), b.stop()])
      expect(await storeA.all(Date.now())).toEqual([])
    })
  },
)
