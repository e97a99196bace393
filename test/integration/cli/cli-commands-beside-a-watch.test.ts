import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holderFilePath } from '../../../src-main/app/holder-address'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { AlertView } from '@shared/ipc/alert-schemas'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli, startCliInProcess, type InProcessCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// Given `heliograph sync --every 15` watching a data folder, when a person works in another
// terminal — adds a wallet, adds rules and mutes one, adds a channel, sets a budget — then
// each command exits 0 and takes effect in the watching process: the new wallet is synced
// by it, the muted rule stays silent while the other fires and reaches the new channel, and
// the watch stops at the new budget. The watch runs on a virtual clock in this process
// (its socket is real); real processes and SIGKILL are cli-holder.process.test.ts.

const CADENCE_SEC = 15
const STEP_MS = 250

/** Advances the watch's clock until `condition` resolves true; fails after `limitMs` of it. */
async function advanceUntil(
  clock: VirtualClock,
  condition: () => Promise<boolean>,
  limitMs: number,
): Promise<void> {
  const startMs = clock.nowMs()
  while (!(await condition())) {
    if (clock.nowMs() - startMs > limitMs) throw new Error(`not within ${limitMs} virtual ms`)
    await clock.advance(STEP_MS)
    await sleep(5)
  }
}

describe('CLI: commands beside a watching `sync`', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let receiver: AlertReceiver
  let base: string[]
  let watching: InProcessCli | null = null

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    receiver = await startAlertReceiver()
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const casual = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', casual, '--label', 'Casual'])).code).toBe(0)
    const once = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    watching?.signal('SIGINT')
    await watching?.exited
    await receiver.close()
    await sim.close()
    temp.remove()
  })

  it('watch add, alerts add and mute, notify add and budget set exit 0 and take effect in the watch', async () => {
    const clock = new VirtualClock()
    watching = startCliInProcess([...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)], {
      clock,
    })
    for (let tries = 0; !watching.stderr.includes('Watching 1 wallet'); tries++) {
      if (tries > 1_000) throw new Error(`never started watching:\n${watching.stderr}`)
      await sleep(10)
    }
    expect(existsSync(holderFilePath(temp.dir))).toBe(true)

    const second = sim.chain.walletByProfile('failed-transactions').address
    const ran = async (...args: string[]) => {
      const run = await runCli([...base, ...args])
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0)
      return run
    }
    await ran('watch', 'add', second, '--label', 'Second')
    await ran('notify', 'add', 'hook', '--format', 'json', '--url', receiver.url)
    await ran('alerts', 'add', '--when', 'activity', '--name', 'loud', '--notify', 'hook')
    await ran('alerts', 'add', '--when', 'activity', '--name', 'quiet', '--notify', 'hook')
    expect((await ran('alerts', 'mute', '2')).stdout).toContain('(muted)')
    const budget = await ran('budget', 'set', '--daily', '5000', '--json')
    expect(JSON.parse(budget.stdout)).toMatchObject({ dailyBudget: 5000 })

    // The added wallet is on the list, and the watching process syncs it.
    const listed = JSON.parse((await ran('watch', 'list', '--json')).stdout) as { label: string }[]
    expect(listed.map((w) => w.label)).toEqual(['Casual', 'Second'])
    const stateOfSecond = async (): Promise<string | undefined> => {
      const statuses = JSON.parse((await ran('status', '--json')).stdout) as WalletSyncStatus[]
      return statuses.find((s) => s.address === second)?.state
    }
    await advanceUntil(clock, async () => (await stateOfSecond()) === 'up-to-date', 60_000)

    // New activity: the rule left on fires and reaches the channel; the muted one does not.
    sim.addActivity(sim.chain.walletByProfile('casual'), 1)
    const history = async (): Promise<AlertView[]> =>
      JSON.parse((await ran('alerts', 'history', '--json')).stdout) as AlertView[]
    await advanceUntil(clock, async () => (await history()).length > 0, 4 * CADENCE_SEC * 1000)
    await advanceUntil(clock, async () => receiver.received.length > 0, 60_000)
    const fired = await history()
    expect(fired.map((a) => a.rule?.name)).toEqual(['loud'])
    expect(receiver.received[0]?.body).toContain('Casual')

    // A budget set beside the watch binds it at once: at what is spent today, the next
    // change stops the watch at the budget (health says so) and nothing more is spent.
    const spentNow = async (): Promise<number> =>
      (JSON.parse((await ran('budget', '--json')).stdout) as { todayCredits: number }).todayCredits
    const atBudget = await spentNow()
    await ran('budget', 'set', '--daily', String(atBudget))
    sim.addActivity(sim.chain.walletByProfile('casual'), 1)
    const kinds = async (): Promise<string[]> =>
      (
        JSON.parse((await ran('health', '--json')).stdout) as { health: { kind: string }[] }
      ).health.map((c) => c.kind)
    await advanceUntil(
      clock,
      async () => (await kinds()).includes('budget-100'),
      4 * CADENCE_SEC * 1000,
    )
    expect(await spentNow()).toBe(atBudget)

    watching.signal('SIGTERM')
    expect(await watching.exited).toBe(0)
    // The holder's file goes with it: the next command opens the folder itself.
    expect(existsSync(holderFilePath(temp.dir))).toBe(false)
    expect((await ran('alerts', 'unmute', '2')).stdout).toContain('Unmuted rule 2')
  }, 120_000)
})
