import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, startCli } from '../../helpers/cli-process'
import { makeTempDir } from '../../helpers/temp-dir'

// Given output piped to a reader that stops reading (`| head -n 1`, or one that closes at
// once), when a command prints, then it ends at once with exit 0 and nothing on stderr,
// run alone or through a watching process that holds the folder.

const BIN = resolve(import.meta.dirname, '../../../scripts/heliograph.mjs')

/** Runs the CLI with its stdout's reader closed before it prints: every write meets EPIPE. */
function runIntoClosedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('exit', (code) => done({ code, stderr }))
  })
}

describe('CLI: output to a closed pipe', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let casual: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    casual = sim.chain.walletByProfile('casual').address
    const active = sim.chain.walletByProfile('failed-transactions').address
    for (const address of [casual, active])
      expect((await runCli([...base, 'watch', 'add', address])).code).toBe(0)
    const synced = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(synced.code, synced.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('`feed --limit 200 | head -n 1` exits 0 with one line and nothing on stderr', () => {
    const quoted = [process.execPath, BIN, ...base, 'feed', '--limit', '200']
      .map((a) => `'${a}'`)
      .join(' ')
    for (const json of ['', ' --json']) {
      const shell = spawnSync(
        'bash',
        [
          '-c',
          `${quoted}${json} 2>"$1" | head -n 1; echo "\${PIPESTATUS[0]}"; cat "$1"`,
          'x',
          `${temp.dir}/err`,
        ],
        { encoding: 'utf8' },
      )
      const [line, code, ...stderr] = shell.stdout.split('\n')
      expect(line?.length).toBeGreaterThan(0)
      expect(code).toBe('0')
      expect(stderr.join('\n')).toBe('')
    }
  }, 60_000)

  it('every command that prints ends quietly with exit 0 when its reader is gone', async () => {
    const printing = [
      ['feed', '--limit', '200'],
      ['feed', '--limit', '200', '--json'],
      ['show', casual],
      ['credits'],
      ['status'],
      ['watch', 'list'],
      ['alerts', 'try', '--when', 'activity', '--days', '30'],
      ['budget'],
    ]
    for (const command of printing) {
      const run = await runIntoClosedPipe([...base, ...command])
      expect({ command, code: run.code, stderr: run.stderr }).toEqual({
        command,
        code: 0,
        stderr: '',
      })
    }
  }, 120_000)

  it('through a watching process that holds the folder, too', async () => {
    const watcher = startCli([...base, 'sync', '--quiet', '--every', '86400'])
    try {
      await watcher.waitFor(({ stderr }) => stderr.includes('Watching 2 wallets'))
      for (const command of [['feed', '--limit', '200'], ['credits']]) {
        const run = await runIntoClosedPipe([...base, ...command])
        expect({ command, code: run.code, stderr: run.stderr }).toEqual({
          command,
          code: 0,
          stderr: '',
        })
      }
      // The watcher serves on: a command after the quiet ends still runs through it.
      const listed = await runCli([...base, 'watch', 'list'])
      expect(listed.code, listed.stderr).toBe(0)
      watcher.child.kill('SIGTERM')
      expect(await watcher.exited).toBe(0)
    } finally {
      if (watcher.child.exitCode === null) watcher.child.kill('SIGKILL')
    }
  }, 60_000)
})
