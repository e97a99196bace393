import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { holderFilePath } from '../../../src-main/app/holder-address'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { runCli, startCli, type RunningCli } from '../../helpers/cli-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// Given `heliograph sync --every 15` holding a data folder, when other `heliograph`
// processes run on it, then every command — reading or writing — runs through the watching
// process and exits 0 (what they add is synced by it), a second watcher or web shell is
// refused naming it, and a process given another key is refused in one line, spending
// nothing. A holder killed with SIGKILL leaves its socket and holder file behind; the next
// command finds nobody listening and opens the folder itself.

const WATCHER_KEY = 'watcher-key'
const SECOND_KEY = 'second-key'

describe('one process holds a data folder and serves the others', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  const as = (key: string): string[] => [
    '--data-dir',
    temp.dir,
    '--service',
    sim.url,
    '--api-key',
    key,
  ]
  let watcher: RunningCli | null = null

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      clock: { mode: 'manual' },
      keys: [WATCHER_KEY, SECOND_KEY],
    })
    const address = sim.chain.walletByProfile('casual').address
    const added = await runCli([...as(WATCHER_KEY), 'watch', 'add', address, '--label', 'Casual'])
    expect(added.code, added.stderr).toBe(0)
  })
  afterAll(async () => {
    if (watcher?.child.exitCode === null) watcher.child.kill('SIGKILL')
    await watcher?.exited
    await sim.close()
    temp.remove()
  })

  it('beside `sync --every 15`, watch add, alerts add, alerts mute 1, notify add and budget set exit 0, and the added wallet is synced by the watch', async () => {
    watcher = startCli([...as(WATCHER_KEY), 'sync', '--quiet', '--every', '15'])
    await watcher.waitFor(({ stderr }) => stderr.includes('Watching 1 wallet'))
    const run = async (...args: string[]) => {
      const done = await runCli([...as(WATCHER_KEY), ...args])
      expect(done.code, `${args.join(' ')}: ${done.stderr}`).toBe(0)
      return done
    }
    const second = sim.chain.walletByProfile('failed-transactions').address
    await run('watch', 'add', second, '--label', 'Second')
    await run('alerts', 'add', '--when', 'failed')
    expect((await run('alerts', 'mute', '1')).stdout).toContain('(muted)')
    await run('notify', 'add', 'hook', '--format', 'json', '--url', 'https://example.com/hook')
    await run('budget', 'set', '--daily', '5000')

    const listed = JSON.parse((await run('watch', 'list', '--json')).stdout) as { label: string }[]
    expect(listed.map((w) => w.label)).toEqual(['Casual', 'Second'])
    for (let tries = 0; ; tries++) {
      const statuses = JSON.parse((await run('status', '--json')).stdout) as WalletSyncStatus[]
      if (statuses.find((s) => s.address === second)?.state === 'up-to-date') break
      if (tries > 60) throw new Error(`the watch did not sync the added wallet:\n${watcher.stderr}`)
      await sleep(500)
    }
    // A sync once beside the watch runs in it, its progress streamed back as it goes.
    const once = await run('sync', '--once')
    expect(once.stdout).toMatch(/^Casual: ok /m)
    expect(once.stdout).toMatch(/^Second: ok /m)
    expect(once.stderr).toMatch(/^ {2}Second history: done, /m)
    const budget = JSON.parse((await run('budget', '--json')).stdout) as { dailyBudget: number }
    expect(budget.dailyBudget).toBe(5000)
    // Reading commands too, and an export the watcher writes where this command said.
    const out = join(temp.dir, 'beside.csv')
    await run('export', '--out', out)
    expect(readFileSync(out, 'utf8').split('\n').length).toBeGreaterThan(2)
    // Everything ran through the watcher: its key paid for every call.
    expect(await simulatorCredits(sim.url, SECOND_KEY)).toBe(0)
  }, 120_000)

  it('a second watcher or web shell is refused naming the holder; another key is refused in one line and spends nothing', async () => {
    const pid = watcher?.pid
    const second = await runCli([...as(WATCHER_KEY), 'sync', '--quiet', '--every', '60'])
    expect(second.code).not.toBe(0)
    expect(second.stderr).toContain(`is in use by \`heliograph sync\` (pid ${pid})`)
    const serve = await runCli([...as(WATCHER_KEY), 'serve', '--port', '0'])
    expect(serve.code).not.toBe(0)
    expect(serve.stderr).toContain(`is in use by \`heliograph sync\` (pid ${pid})`)

    for (const command of [
      ['sync', '--once', '--quiet'],
      ['watch', 'list'],
    ]) {
      const other = await runCli([...as(SECOND_KEY), ...command])
      expect(other.code).toBe(1)
      expect(other.stderr).toBe(
        `heliograph: The data folder ${temp.dir} is held by \`heliograph sync\` (pid ${pid}), which runs with another --service, --api-key or --database than \`heliograph ${command.slice(0, 2).join(' ').replace(' --once', '')}\` was given: run it without them to use that process's, or stop that process first.\n`,
      )
    }
    expect(await simulatorCredits(sim.url, SECOND_KEY)).toBe(0)
  }, 60_000)

  it('a holder killed with SIGKILL leaves its socket behind; the next command, reading or writing, works', async () => {
    watcher?.child.kill('SIGKILL')
    await watcher?.exited
    expect(existsSync(holderFilePath(temp.dir))).toBe(true)
    expect(existsSync(join(temp.dir, 'heliograph.sock'))).toBe(true)

    const list = await runCli([...as(WATCHER_KEY), 'watch', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stderr).toBe('')
    expect(list.stdout).toContain('Casual')
    const unmuted = await runCli([...as(WATCHER_KEY), 'alerts', 'unmute', '1'])
    expect(unmuted.code, unmuted.stderr).toBe(0)
    expect(unmuted.stdout).toContain('Unmuted rule 1')
    // The writer that took over left nothing behind when it ended.
    expect(existsSync(holderFilePath(temp.dir))).toBe(false)

    // And a watcher starts at once on the folder the killed one held.
    const next = startCli([...as(WATCHER_KEY), 'sync', '--quiet', '--every', '86400'])
    try {
      await next.waitFor(({ stderr }) => stderr.includes('Watching 2 wallets'))
      const listed = await runCli([...as(WATCHER_KEY), 'watch', 'list'])
      expect(listed.code, listed.stderr).toBe(0)
      next.child.kill('SIGTERM')
      expect(await next.exited).toBe(0)
    } finally {
      if (next.child.exitCode === null) next.child.kill('SIGKILL')
    }
  }, 60_000)
})
