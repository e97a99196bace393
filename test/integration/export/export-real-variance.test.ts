import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RealVariance } from '../../../src-main/simulator/real-variance'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'

// The exports of wallets synced from the real service's variety ("SOL" mints, absent
// cursors, null prices and names) are the exports of the same wallets synced from the
// interface text's shapes, byte for byte: the edge reads the variety into one form. The
// one difference is the price of a token neither the balances answer nor DAS prices: its
// Price and Value cells are empty, never $0.

const PROFILES = ['casual', 'active-trader', 'nft-collector', 'failed-transactions']

const MOVEMENTS: Record<string, string[]> = {
  'balance changes, full': ['--kind', 'balance-changes', '--format', 'full'],
  'balance changes, Koinly': ['--kind', 'balance-changes', '--format', 'koinly'],
  'balance changes, CoinTracker': ['--kind', 'balance-changes', '--format', 'cointracker'],
  transfers: ['--kind', 'transfers'],
}

describe('CSV exports from the real service’s variety equal those from the interface text’s shapes', () => {
  const temp = makeTempDir()
  let plain: RunningSimulator
  let real: RunningSimulator
  const argsOf = (sim: RunningSimulator, name: string): string[] => [
    '--data-dir',
    join(temp.dir, name),
    '--service',
    sim.url,
    '--api-key',
    'demo',
  ]

  /** The CSV an export writes, from the plain and from the real-variety mirror. */
  async function exportBoth(name: string, exportArgs: string[]): Promise<[string, string]> {
    const texts = await Promise.all(
      (
        [
          [plain, 'plain'],
          [real, 'real'],
        ] as const
      ).map(async ([sim, which]) => {
        const out = join(temp.dir, `${name.replace(/\W+/g, '-')}-${which}.csv`)
        const run = await cli([...argsOf(sim, which), 'export', ...exportArgs, '--out', out])
        expect(run.code, run.stderr).toBe(0)
        return readFileSync(out, 'utf8')
      }),
    )
    return texts as [string, string]
  }

  beforeAll(async () => {
    // Still chains of the same seed: both mirrors sync the same history.
    plain = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    real = await startSimulator({ seed: 11, clock: { mode: 'manual' }, variance: 'real' })
    await Promise.all(
      (
        [
          [plain, 'plain'],
          [real, 'real'],
        ] as const
      ).map(async ([sim, which]) => {
        for (const profile of PROFILES) {
          const address = sim.chain.walletByProfile(profile as never).address
          const added = await cli([
            ...argsOf(sim, which),
            'watch',
            'add',
            address,
            '--label',
            profile,
          ])
          expect(added.code, added.stderr).toBe(0)
        }
        const synced = await cli([...argsOf(sim, which), 'sync', '--once', '--quiet'])
        expect(synced.code, synced.stderr).toBe(0)
      }),
    )
  }, 240_000)
  afterAll(async () => {
    await plain.close()
    await real.close()
    temp.remove()
  })

  it.each(Object.entries(MOVEMENTS))('%s: byte-equal', async (name, exportArgs) => {
    const [fromPlain, fromReal] = await exportBoth(name, exportArgs)
    expect(fromPlain.split('\n').length, name).toBeGreaterThan(2)
    expect(fromReal.split('\n'), name).toEqual(fromPlain.split('\n'))
    expect(fromReal).not.toContain(',SOL,So111')
  })

  it('balances: equal but for the tokens no one prices, whose Price and Value are empty', async () => {
    const [fromPlain, fromReal] = await exportBoth('balances', ['--kind', 'balances'])
    const variance = new RealVariance(
      real.chain.seed,
      real.chain.mints.map((m) => m.address),
    )
    const plainLines = fromPlain.split('\n')
    const realLines = fromReal.split('\n')
    expect(realLines.length).toBe(plainLines.length)
    const header = (plainLines[0] ?? '').split(',')
    const price = header.indexOf('Price (USD)')
    const value = header.indexOf('Value (USD)')
    expect(price).toBeGreaterThan(-1)
    // Each row leads with when its snapshot was taken (the two syncs ran moments apart);
    // rows go by value, so an unpriced token moves to its wallet's end: compared sorted.
    expect(header[0]).toMatch(/time|taken|as of/i)
    const rowsOf = (lines: string[]): string[][] =>
      lines
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => line.split(',').slice(1))
        .sort((a, b) => a.join(',').localeCompare(b.join(',')))
    const plainRows = rowsOf(plainLines)
    const realRows = rowsOf(realLines)
    let unpriced = 0
    for (const plainCells of plainRows) {
      const isUnpriced = plainCells.some((cell) => variance.isUnpricedByDas(cell))
      if (isUnpriced) {
        unpriced += 1
        plainCells[price - 1] = ''
        plainCells[value - 1] = ''
      }
    }
    expect(realRows).toEqual(rowsOf(['', ...plainRows.map((cells) => `x,${cells.join(',')}`)]))
    expect(unpriced).toBeGreaterThan(0)
  })
})
