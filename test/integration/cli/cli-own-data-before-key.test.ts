import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { demoDatabasePath } from '../../../src-main/app/data-dir'
import { DEMO_DATA_NOTICE } from '../../../src-main/cli/cli-core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'

// A new user's first commands (issue 29, finding 1): a wallet added before there is a key
// went into the demo mirror, the next sync with a key found no wallets, and a plain export
// wrote demo rows without a word. One rule now: commands that change data act on the
// person's own mirror, key or no key; reads show it once it holds a wallet, and whatever
// shows demo data says so on stderr, once.

describe('CLI: one rule for where data goes', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let address: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    address = sim.chain.walletByProfile('casual').address
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('watch add without a key, then sync with one, then a plain export: all on the own mirror', async () => {
    const dir = join(temp.dir, 'new-user')
    const added = await runCli(['--data-dir', dir, 'watch', 'add', address, '--label', 'Mine'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toBe(`Watching ${address} (Mine)\n`)
    expect(existsSync(demoDatabasePath(dir))).toBe(false)

    const synced = await runCli([
      ...['--data-dir', dir, '--service', sim.url, '--api-key', 'demo'],
      ...['sync', '--once', '--quiet'],
    ])
    expect(synced.code, synced.stderr).toBe(0)

    const out = join(dir, 'changes.csv')
    const exported = await runCli(['--data-dir', dir, 'export', '--out', out])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stderr).not.toContain(DEMO_DATA_NOTICE)
    const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((row) => row.includes(address))).toBe(true)
  }, 120_000)

  it('a read on a folder with only demo data shows it and says so on stderr, once', async () => {
    const dir = join(temp.dir, 'demo-only')
    // The app's first run on demo data: the demo mirror with its sample wallets.
    const core = await createCore({
      dataDir: dir,
      shell: 'web',
      version: 'test',
      clock: new FastForwardClock(),
      isWatching: true,
      demo: { live: false },
    })
    await core.close()
    const listed = await runCli(['--data-dir', dir, 'watch', 'list'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain('Demo:')
    expect(listed.stderr.split(DEMO_DATA_NOTICE).length - 1).toBe(1)

    // The first wallet of one's own goes to the own mirror, which reads show from then on.
    expect((await runCli(['--data-dir', dir, 'watch', 'add', address])).code).toBe(0)
    const after = await runCli(['--data-dir', dir, 'watch', 'list'])
    expect(after.stdout).toBe(`${address}\n`)
    expect(after.stderr).not.toContain(DEMO_DATA_NOTICE)
  }, 120_000)

  it('a command on what is always the person’s own (syncing, channels) refuses --data-source demo, naming the rule', async () => {
    const dir = join(temp.dir, 'refused')
    for (const [name, command] of [
      ['sync', ['sync', '--once']],
      [
        'notify add',
        ['notify', 'add', 'hook', '--format', 'json', '--url', 'https://example.com/hook'],
      ],
    ] as const) {
      const run = await runCli(['--data-dir', dir, '--data-source', 'demo', ...command])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(
        `\`heliograph ${name}\` acts on your own data, whatever is shown (syncing, webhooks, alert channels and budgets are yours): drop --data-source demo.`,
      )
    }
    expect(existsSync(demoDatabasePath(dir))).toBe(false)
  })
})
