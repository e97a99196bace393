import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SyncLeaseStore } from '../../../src-main/db/stores/sync-lease-store'
import { LEASE_ENGINES, type LeaseDatabase } from '../../helpers/lease-engines'
import { testAddress } from '../../helpers/wallets'

// Millisecond times beyond 2^31, which a 32-bit integer column would not hold.
const T0 = 1_795_000_000_000
const TTL = 30_000
const WALLETS = Array.from({ length: 20 }, (_, i) => testAddress(i + 1))

describe.each(Object.keys(LEASE_ENGINES) as (keyof typeof LEASE_ENGINES)[])(
  'sync leases on %s',
  (engine) => {
    let database: LeaseDatabase
    let a: SyncLeaseStore
    let b: SyncLeaseStore
    beforeAll(async () => {
      database = await LEASE_ENGINES[engine](2)
      ;[a, b] = database.stores as [SyncLeaseStore, SyncLeaseStore]
    })
    afterAll(() => database.close())

    it('two holders acquiring 20 wallets at once never both hold one', async () => {
      const rounds = 8
      const results = await Promise.all(
        Array.from({ length: rounds }, (_, i) => [
          a.acquire(shuffled(WALLETS, i), 'host-a:1:x', T0 + i, TTL, WALLETS.length),
          b.acquire(shuffled(WALLETS, i + rounds), 'host-b:2:y', T0 + i, TTL, WALLETS.length),
        ]).flat(),
      )
      const byA = new Set(results.filter((_, i) => i % 2 === 0).flat())
      const byB = new Set(results.filter((_, i) => i % 2 === 1).flat())
      expect([...byA].filter((address) => byB.has(address))).toEqual([])
      expect(byA.size + byB.size).toBe(WALLETS.length)
      const now = T0 + rounds
      expect(await a.held('host-a:1:x', now)).toEqual([...byA].sort())
      expect(await b.held('host-b:2:y', now)).toEqual([...byB].sort())
      await a.release('host-a:1:x')
      await b.release('host-b:2:y')
      expect(await a.all(now)).toEqual([])
    })

    it('a live lease of another holder is not taken; an expired one is', async () => {
      const [wallet] = WALLETS as [string]
      expect(await a.acquire([wallet], 'a', T0, TTL, 1)).toEqual([wallet])
      expect(await b.acquire([wallet], 'b', T0 + TTL - 1, TTL, 1)).toEqual([])
      expect(await b.held('b', T0 + TTL - 1)).toEqual([])

      expect(await b.acquire([wallet], 'b', T0 + TTL, TTL, 1)).toEqual([wallet])
      expect(await a.all(T0 + TTL)).toEqual([
        { walletAddress: wallet, holder: 'b', acquiredAtMs: T0 + TTL, expiresAtMs: T0 + 2 * TTL },
      ])
      // The old holder's renewal no longer reaches it.
      expect(await a.renew('a', T0 + TTL + 1, TTL)).toEqual([])
      expect(await a.held('a', T0 + TTL + 1)).toEqual([])
      await b.release('b')
    })

    it('renewing keeps a lease past its first expiry and keeps when it was taken', async () => {
      const [first, second] = WALLETS as [string, string]
      await a.acquire([first, second], 'a', T0, TTL, 2)
      expect(await a.renew('a', T0 + TTL - 5, TTL)).toEqual([first, second].sort())
      expect(await b.acquire([first, second], 'b', T0 + TTL + 5, TTL, 2)).toEqual([])
      const leases = await b.all(T0 + TTL + 5)
      expect(leases.map((l) => [l.holder, l.acquiredAtMs, l.expiresAtMs])).toEqual([
        ['a', T0, T0 + 2 * TTL - 5],
        ['a', T0, T0 + 2 * TTL - 5],
      ])
      expect(typeof leases[0]?.expiresAtMs).toBe('number')
      await a.release('a')
    })

    it('release frees leases for others, only the holder’s own and only those named', async () => {
      const [first, second, third] = WALLETS as [string, string, string]
      expect(await a.acquire([first, second, third], 'a', T0, TTL, 3)).toHaveLength(3)
      expect(await b.release('b', [first])).toBe(0)
      expect(await a.release('a', [first, second])).toBe(2)
      expect(await b.acquire([first, second, third], 'b', T0 + 1, TTL, 3)).toEqual([first, second])
      expect(await a.release('a')).toBe(1)
      expect(await b.release('b')).toBe(2)
      expect(await a.all(T0 + 1)).toEqual([])
    })

    it('acquire holds at most max: it takes up to max and gives up the surplus', async () => {
      expect(await a.acquire(WALLETS, 'a', T0, TTL, 5)).toEqual(WALLETS.slice(0, 5))
      expect(await a.acquire(WALLETS, 'a', T0 + 1, TTL, 3)).toEqual(WALLETS.slice(0, 3))
      expect(await b.acquire(WALLETS, 'b', T0 + 1, TTL, 100)).toEqual(WALLETS.slice(3))
      expect(await a.acquire(WALLETS, 'a', T0 + 2, TTL, 0)).toEqual([])
      expect(await b.all(T0 + 2)).toHaveLength(WALLETS.length - 3)
      await b.release('b')
    })

    it('refuses times and counts that are not whole numbers', async () => {
      await expect(a.acquire(WALLETS, 'a', T0, 0, 1)).rejects.toThrow(/ttlMs must be a positive/)
      await expect(a.acquire(WALLETS, 'a', T0, TTL, -1)).rejects.toThrow(/max must be/)
      await expect(a.renew('a', 1.5, TTL)).rejects.toThrow(/nowMs must be whole/)
    })
  },
)

/** `items` in an order that depends on `seed`, so concurrent callers collide differently. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items]
  let state = seed * 2654435761 + 1
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}
