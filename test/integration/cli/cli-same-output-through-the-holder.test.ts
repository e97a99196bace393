import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { serveFolder } from '../../../src-main/shell/holder/holder-server'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, type CliRun } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// A command prints the same, with the same exit code, whether it opens the folder itself or
// runs through the process that holds it: scripts written against one work against the
// other. Each command runs alone first, then beside a holder (the app's core, serving the
// folder and spending nothing meanwhile), and the two runs are compared whole.

describe('CLI: the same output through the holder as alone', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let casual: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    casual = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', casual, '--label', 'Casual'])).code).toBe(0)
    expect((await runCli([...base, 'watch', 'tag', casual, 'daily'])).code).toBe(0)
    expect((await runCli([...base, 'alerts', 'add', '--when', 'activity'])).code).toBe(0)
    const synced = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(synced.code, synced.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  const commands = (): string[][] => [
    ['watch', 'list', '--json'],
    ['watch', 'list'],
    ['status', '--json'],
    ['status'],
    ['health', '--json'],
    ['credits', '--json'],
    ['credits'],
    ['budget', '--json'],
    ['watch', 'cadence', '--json'],
    ['watch', 'cadence'],
    ['feed', '--limit', '5', '--json'],
    ['feed', '--tag', 'daily', '--limit', '5'],
    ['show', casual, '--json'],
    ['totals', '--json'],
    ['alerts', 'list', '--json'],
    ['alerts', 'try', '1', '--days', '365', '--json'],
    ['notify', 'list'],
    ['sync', '--estimate'],
    // Errors too: the same line on stderr, the same exit code.
    ['alerts', 'try', '99', '--days', '5'],
    ['watch', 'tag', testAddress(9), 'x'],
    ['show', testAddress(9)],
    ['feed', '--limit', '0'],
  ]

  it('every command prints the same and exits the same, alone and through the holder', async () => {
    const out = (name: string) => join(temp.dir, name)
    const alone: CliRun[] = []
    for (const command of commands()) alone.push(await runCli([...base, ...command]))
    const exportedAlone = await runCli([...base, 'export', '--out', out('alone.csv')])

    const app = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      serveOthers: (opening) => serveFolder({ dataDir: temp.dir, name: 'the test app' }, opening),
    })
    try {
      const through: CliRun[] = []
      for (const command of commands()) through.push(await runCli([...base, ...command]))
      // The days left in the month move on with the clock between the two runs.
      const still = (run: CliRun | undefined) => ({
        ...run,
        stdout: run?.stdout.replace(/"daysLeft": [\d.]+/, '"daysLeft": …'),
      })
      commands().forEach((command, i) =>
        expect({ command, ...still(through[i]) }).toEqual({ command, ...still(alone[i]) }),
      )
      const exportedThrough = await runCli([...base, 'export', '--out', out('through.csv')])
      expect(exportedThrough.code, exportedThrough.stderr).toBe(0)
      expect(exportedThrough.stdout.replace('through.csv', 'alone.csv')).toBe(exportedAlone.stdout)
      expect(readFileSync(out('through.csv'), 'utf8')).toBe(readFileSync(out('alone.csv'), 'utf8'))

      // They did run through it: a command given another key is refused by the holder alone.
      const other = await runCli([...base, '--api-key', 'another', 'watch', 'list'])
      expect(other.code).toBe(1)
      expect(other.stderr).toContain('is held by the test app')
    } finally {
      await app.close()
    }
  }, 120_000)
})
