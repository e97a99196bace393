import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli } from '../../helpers/cli-in-process'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 29, finding 4: a day after today (UTC) has no balances yet. It is refused before
// anything is asked, on the command line and through the channels the app uses, and
// nothing is spent.

const TODAY_NOON_SEC = Date.parse('2026-11-26T12:00:00Z') / 1000
const FUTURE_DAY = /2099-01-01 has not happened yet: today is 2026-11-26 \(UTC\)/

/** A clock whose wall time stays at noon on 2026-11-26 while its waits jump ahead. */
const todayClock = (): FastForwardClock => new FastForwardClock({ wallSec: () => TODAY_NOON_SEC })

describe('balances at a day after today are refused before any call', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let address: string
  const cli = (args: string[]) => runCli(args, { clock: todayClock() })

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    address = sim.chain.walletByProfile('casual').address
    expect((await cli([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
    const synced = await cli([...base, 'sync', '--once', '--quiet'])
    expect(synced.code, synced.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('balance-at --source service exits non-zero naming the day and today, and spends nothing', async () => {
    const before = await simulatorCredits(sim.url)
    const run = await cli([
      ...base,
      'balance-at',
      address,
      '--date',
      '2099-01-01',
      '--source',
      'service',
    ])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(FUTURE_DAY)
    expect(run.stdout).toBe('')
    expect(await simulatorCredits(sim.url)).toBe(before)
  })

  it('the mirror does not answer a future day as if it were history', async () => {
    const run = await cli([...base, 'balance-at', address, '--date', '2099-01-01'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(FUTURE_DAY)
    expect(run.stdout).toBe('')
  })

  it('tomorrow is refused and today is answered', async () => {
    const tomorrow = await cli([...base, 'balance-at', address, '--date', '2026-11-27'])
    expect(tomorrow.code).not.toBe(0)
    expect(tomorrow.stderr).toMatch(/2026-11-27 has not happened yet/)
    const today = await cli([...base, 'balance-at', address, '--date', '2026-11-26'])
    expect(today.code, today.stderr).toBe(0)
    expect(today.stdout).toMatch(/at the end of 2026-11-26 \(UTC\), from the mirror/)
  })

  it('export --kind balances --at a future day writes nothing and spends nothing', async () => {
    const before = await simulatorCredits(sim.url)
    const out = join(temp.dir, 'future.csv')
    const args = ['export', '--kind', 'balances', '--at', '2099-01-01', '--out', out]
    const run = await cli([...base, ...args, '--source', 'service'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(FUTURE_DAY)
    expect(existsSync(out)).toBe(false)
    expect(await simulatorCredits(sim.url)).toBe(before)
  })

  describe('the channels the app uses', () => {
    let core: Core

    beforeAll(async () => {
      core = await createCore({
        dataDir: temp.dir,
        shell: 'web',
        version: 'test',
        serviceUrl: sim.url,
        apiKey: 'demo',
        clock: todayClock(),
      })
    })
    afterAll(async () => {
      await core?.close()
    })

    const refusal = async (channel: string, input: unknown): Promise<string> => {
      const answer = await core.dispatch(channel, input)
      expect(answer.ok, `${channel} answered`).toBe(false)
      return answer.ok ? '' : answer.error.message
    }

    it('balances:at-plan, balances:at and the balances-at export refuse it alike', async () => {
      const before = await simulatorCredits(sim.url)
      const day = { address, date: '2099-01-01', includeNfts: false }
      expect(await refusal('balances:at-plan', day)).toMatch(FUTURE_DAY)
      expect(await refusal('balances:at', { ...day, source: 'service' })).toMatch(FUTURE_DAY)
      expect(await refusal('balances:at', { ...day, source: 'local' })).toMatch(FUTURE_DAY)
      const filters = {
        wallets: [],
        mints: [],
        failedOnly: false,
        balancesAt: { date: '2099-01-01', source: 'service', includeNfts: false },
      }
      expect(
        await refusal('export:preview', { kind: 'balances-at', format: 'full', filters }),
      ).toMatch(FUTURE_DAY)
      expect(await simulatorCredits(sim.url)).toBe(before)
    })
  })
})
