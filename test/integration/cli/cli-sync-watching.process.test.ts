import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { startCli } from '../../helpers/cli-process'
import { makeTempDir } from '../../helpers/temp-dir'

// A watching `heliograph sync` is a process a service manager stops with SIGTERM: it
// finishes the page in flight and exits 0. (What it prints while it watches, over three
// minutes, is cli-sync-watching.test.ts, on a virtual clock.)

const CADENCE_SEC = 15

describe('CLI: a watching sync as a process of its own', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const address = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('exits 0 on SIGTERM, after the page in flight', async () => {
    const watching = startCli([...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)])
    try {
      await watching.waitFor((out) => out.stderr.includes('Watching 1 wallet'))
      watching.child.kill('SIGTERM')
      expect(await watching.exited).toBe(0)
      expect(watching.stderr).toMatch(/SIGTERM: stopping after the page in flight/)
    } finally {
      if (watching.child.exitCode === null) watching.child.kill('SIGKILL')
    }
  })
})
