import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, startCli, type RunningCli } from '../../helpers/cli-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// Given `heliograph sync` watching a data folder, when a second process wants to write to
// it (`sync --once`), then it is refused with a message naming the first, exits non-zero
// and spends nothing; commands that only read run beside it. Each process pays the service
// with its own key, so the simulator counts what each one spent.

const WATCHER_KEY = 'watcher-key'
const SECOND_KEY = 'second-key'

describe('one writing process per data folder', () => {
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

  it('Two processes on one data folder (two `sync --once`, or the app and the CLI) both run: 650 credits were spent where 330 suffice, and each process may spend the whole budget (credit-meter.ts caches the ledger)', async () => {
    const first = await runCli([...as(WATCHER_KEY), 'sync', '--once', '--quiet'])
    expect(first.code, first.stderr).toBe(0)
    watcher = startCli([...as(WATCHER_KEY), 'sync', '--quiet', '--every', '86400'])
    await watcher.waitFor(({ stderr }) => stderr.includes('Watching 1 wallet'))

    const second = await runCli([...as(SECOND_KEY), 'sync', '--once', '--quiet'])
    expect(second.code).not.toBe(0)
    expect(second.stderr).toContain(`is in use by \`heliograph sync\` (pid ${watcher.pid})`)
    expect(second.stderr).toContain(temp.dir)
    expect(await simulatorCredits(sim.url, SECOND_KEY)).toBe(0)
    // The web shell would write too (it needs the built renderer, as `npm test` makes).
    const serve = await runCli([...as(SECOND_KEY), 'serve', '--port', '0'])
    expect(serve.code).not.toBe(0)
    expect(serve.stderr).toContain(`is in use by \`heliograph sync\` (pid ${watcher.pid})`)

    // Reading commands run beside the writer, on a read-only connection.
    const status = await runCli([...as(SECOND_KEY), 'status', '--json'])
    expect(status.code, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ label: 'Casual' })])
    const out = join(temp.dir, 'beside.csv')
    const exported = await runCli([...as(SECOND_KEY), 'export', '--out', out])
    expect(exported.code, exported.stderr).toBe(0)
    expect(readFileSync(out, 'utf8').split('\n').length).toBeGreaterThan(2)
    const list = await runCli([...as(SECOND_KEY), 'watch', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('Casual')

    watcher.child.kill('SIGTERM')
    expect(await watcher.exited).toBe(0)
    // The ledger holds exactly what the one writer paid for; the second key paid nothing.
    const credits = await runCli([...as(SECOND_KEY), 'credits', '--json'])
    expect(credits.code, credits.stderr).toBe(0)
    const { totalCredits } = JSON.parse(credits.stdout) as { totalCredits: number }
    expect(totalCredits).toBeGreaterThan(0)
    expect(totalCredits).toBe(await simulatorCredits(sim.url, WATCHER_KEY))
    expect(await simulatorCredits(sim.url, SECOND_KEY)).toBe(0)
  }, 120_000)

  it('a writer killed with SIGKILL leaves no lock behind: the next one starts at once', async () => {
    const killed = startCli([...as(WATCHER_KEY), 'sync', '--quiet', '--every', '86400'])
    await killed.waitFor(({ stderr }) => stderr.includes('Watching 1 wallet'))
    killed.child.kill('SIGKILL')
    await killed.exited
    const next = await runCli([...as(WATCHER_KEY), 'sync', '--once', '--quiet'])
    expect(next.code, next.stderr).toBe(0)
    expect(next.stdout).toMatch(/Casual: ok/)
  }, 60_000)
})
