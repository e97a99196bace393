import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { simulatorCredits } from '../../helpers/sim-truth'
import { testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

describe.each(ENGINES)(
  'CLI: sync, status and credits against a service given on the command line (on %s)',
  (engine) => {
    const temp = makeTempDir()
    let sim: RunningSimulator
    let mirror: TestMirror | undefined
    let base: string[]
    let address: string

    beforeAll(async () => {
      sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
      mirror = await testMirror(engine, temp.dir)
      base = [...mirror.cliArgs, '--service', sim.url, '--api-key', 'demo']
      address = sim.chain.walletByProfile('casual').address
      expect((await cli([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
    })
    afterAll(async () => {
      await sim.close()
      await mirror?.drop()
      temp.remove()
    })

    it('shows the estimate first, and --estimate spends nothing', async () => {
      // `watch add` looked at the wallet's size for its estimate: that is all spent so far.
      const looked = await simulatorCredits(sim.url)
      expect(looked).toBe(22)
      const run = await cli([...base, 'sync', '--once', '--max-transactions', '5000', '--estimate'])
      expect(run.code).toBe(0)
      expect(run.stderr).toMatch(
        /Casual: First sync ≈ [\d,]+ credits \(all [\d,]+ transactions, \d+ holdings, names\)/,
      )
      expect(await simulatorCredits(sim.url)).toBe(looked)
    })

    it('syncs once, then status and credits report it; the ledger equals the service counter', async () => {
      const run = await cli([...base, 'sync', '--once', '--quiet'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toMatch(/Casual: ok/)
      const status = JSON.parse((await cli([...base, 'status', '--json'])).stdout) as {
        address: string
        state: string
        streams: { stream: string; isBackfillComplete: boolean }[]
      }[]
      expect(status).toEqual([expect.objectContaining({ address, state: 'up-to-date' })])
      expect(status[0]?.streams.every((s) => s.isBackfillComplete)).toBe(true)
      const credits = JSON.parse((await cli([...base, 'credits', '--json'])).stdout) as {
        totalCredits: number
      }
      expect(credits.totalCredits).toBe(await simulatorCredits(sim.url))
      expect(credits.totalCredits).toBeGreaterThan(0)
    })

    it('a bad key is a clear error with a non-zero exit, and the key is not printed', async () => {
      const run = await cli([
        ...(mirror as TestMirror).cliArgs,
        '--service',
        sim.url,
        '--api-key',
        'WRONG-KEY-5150',
        'sync',
        '--once',
        '--quiet',
      ])
      expect(run.code).not.toBe(0)
      expect(run.stdout + run.stderr).toMatch(/error/)
      expect(run.stdout + run.stderr).not.toContain('WRONG-KEY-5150')
    })
  },
)
