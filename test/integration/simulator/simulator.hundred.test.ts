import { afterEach, describe, expect, it } from 'vitest'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startTestSimulator } from './sim-test-helpers'

// Given the hundred population (the memory bench's): a hundred wallets of the stated
// profiles, each with its own address and the transactions of its profile, none of them a
// wallet of the default or backfill population of the same seed.

const running: RunningSimulator[] = []
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close()
})

interface Listed {
  population: string
  wallets: { address: string; profile: string; txCount: number }[]
}

async function listWallets(population: 'hundred' | 'backfill' | 'default'): Promise<Listed> {
  const { sim } = await startTestSimulator({ seed: 16, population })
  running.push(sim)
  return (await (await fetch(`${sim.url}/__sim/wallets`)).json()) as Listed
}

describe('hundred population', () => {
  it('holds 100 distinct wallets of the default profiles, apart from the other populations', async () => {
    const { population, wallets } = await listWallets('hundred')
    expect(population).toBe('hundred')
    expect(wallets).toHaveLength(100)
    expect(new Set(wallets.map((w) => w.address)).size).toBe(100)
    const count = (profile: string) => wallets.filter((w) => w.profile === profile).length
    expect(count('idle')).toBe(40)
    expect(count('casual')).toBe(35)
    expect(count('nft-collector')).toBe(10)
    expect(count('failed-transactions')).toBe(10)
    expect(count('active-trader')).toBe(5)
    const traders = wallets.filter((w) => w.profile === 'active-trader')
    expect(Math.min(...traders.map((w) => w.txCount))).toBeGreaterThan(1_000)

    for (const other of ['default', 'backfill'] as const) {
      const theirs = new Set((await listWallets(other)).wallets.map((w) => w.address))
      expect(wallets.filter((w) => theirs.has(w.address))).toEqual([])
    }
  })
})
