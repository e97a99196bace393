import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shortAddress } from '@shared/domain/wallet-address'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

// Given a wallet without a label synced from the command line, when the CLI reports
// progress, cost, outcome and credits, then it names the wallet one way throughout and
// says "1 page", never "1 pages".

/** A count of one with a plural noun: "1 pages", "1 calls". */
const ONE_WITH_PLURAL = /(?<![\d,.])1 (pages|calls|credits|items|wallets|rows|transactions)\b/

describe('CLI output: one name per wallet, counts with the right noun', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let address: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    address = sim.chain.walletByProfile('idle').address
    expect((await cli([...base, 'watch', 'add', address])).code).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('sync prints the same wallet short and long in one output: now by one name only', async () => {
    const run = await cli([...base, 'sync', '--once'])
    expect(run.code, run.stderr).toBe(0)
    const output = run.stdout + run.stderr
    expect(output).toContain(address)
    expect(output).not.toContain(shortAddress(address))
    // Every progress line names the wallet by its address, like the estimate and the outcome.
    const progress = run.stderr.split('\n').filter((l) => /^ {2}\S+ \S+: /.test(l))
    expect(progress.length).toBeGreaterThan(0)
    for (const line of progress) expect(line.startsWith(`  ${address} `)).toBe(true)
  })

  it('sync and credits say "1 page" and "1 call", never "1 pages"', async () => {
    const sync = await cli([...base, 'sync', '--once'])
    expect(sync.code, sync.stderr).toBe(0)
    expect(sync.stderr).toMatch(/\b1 page,/)
    const credits = await cli([...base, 'credits'])
    const status = await cli([...base, 'status'])
    for (const run of [sync, credits, status]) {
      expect(run.stdout + run.stderr).not.toMatch(ONE_WITH_PLURAL)
      expect(run.stdout + run.stderr).not.toContain('(s)')
    }
  })
})
