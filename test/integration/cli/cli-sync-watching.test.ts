import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, startCli } from '../../helpers/cli-process'
import { makeTempDir } from '../../helpers/temp-dir'

// `heliograph sync` without --once keeps watching (issue 11): on the real clock, at a
// 15-second cadence, for three minutes, printing one line per change the simulator is
// given, and exiting 0 on SIGTERM after the page in flight.

const CADENCE_SEC = 15
const STAY_UP_MS = 180_000

describe('CLI: sync keeps watching until a signal', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const address = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
    const once = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it(
    'stays up three minutes at a 15 s cadence, prints each change, and exits 0 on SIGTERM',
    async () => {
      const wallet = sim.chain.walletByProfile('casual')
      const watching = startCli([...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)])
      const startedAt = Date.now()
      const lines = () => watching.stdout.split('\n').filter((l) => l.startsWith('Casual:'))
      try {
        await watching.waitFor((out) => out.stderr.includes('Watching 1 wallet'))
        await sleep(CADENCE_SEC * 1_000)
        expect(lines()).toEqual([])

        // Two moments of activity, each printed within two cadences.
        for (const count of [1, 3]) {
          const before = lines().length
          sim.addActivity(wallet, count)
          const t0 = Date.now()
          await watching.waitFor(() => lines().length > before, 3 * CADENCE_SEC * 1_000)
          const waited = Date.now() - t0
          expect(waited).toBeLessThanOrEqual(2 * CADENCE_SEC * 1_000 + 5_000)
          expect(lines().at(-1)).toMatch(
            new RegExp(`^Casual: balance moved; ${count} new transactions?`),
          )
          await sleep(CADENCE_SEC * 1_000)
        }

        await sleep(Math.max(0, STAY_UP_MS - (Date.now() - startedAt)))
        expect(watching.child.exitCode).toBeNull()
        expect(lines()).toHaveLength(2)
        watching.child.kill('SIGTERM')
        expect(await watching.exited).toBe(0)
        expect(watching.stderr).toMatch(/SIGTERM: stopping after the page in flight/)
      } finally {
        if (watching.child.exitCode === null) watching.child.kill('SIGKILL')
      }
    },
    STAY_UP_MS + 60_000,
  )
})
