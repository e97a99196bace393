import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'

// Live demo transactions were dated weeks ago (issue 13, item 17): the demo simulator ran
// its clock from a fixed moment. Given the app on demo data, when the demo chain gains a
// transaction, then it carries the current time, and the demo history leads up to now.

describe('live demo activity carries the current time', () => {
  const temp = makeTempDir()
  let core: Core
  let simulator: RunningSimulator | null = null

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      isWatching: true,
      demo: { live: false, onStarted: (started) => (simulator = started) },
    })
    // Adding the demo wallets connects to the demo service, which starts the simulator.
    await core.dispatch('demo:add-wallets', undefined)
    if (!simulator) throw new Error('The demo simulator did not start.')
  })
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  it('a new demo transaction is dated now, and the demo history ends before it', () => {
    const sim = simulator as unknown as RunningSimulator
    const wallet = sim.chain.walletByProfile('casual')
    const newestBefore = sim.chain.timestampOf(wallet, sim.chain.txCount(wallet) - 1)
    const startedSec = Math.floor(Date.now() / 1000)
    sim.addActivity(wallet, 1)
    const liveSec = sim.chain.timestampOf(wallet, sim.chain.txCount(wallet) - 1)
    const afterSec = Math.floor(Date.now() / 1000)
    expect(liveSec).toBeGreaterThanOrEqual(startedSec - 1)
    expect(liveSec).toBeLessThanOrEqual(afterSec + 1)
    // The synthetic history leads up to the moment the demo started, not weeks before it.
    expect(newestBefore).toBeLessThan(liveSec)
    expect(liveSec - newestBefore).toBeLessThan(2 * wallet.profile.intervalSec + 60)
  })
})
