import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 50, item 4: secrets off the command line, where every user of the machine reads
// them in `ps`. The API key comes from HELIOGRAPH_API_KEY, --api-key-file or `--api-key -`
// (asked at a terminal, or piped in); `notify add` reads its URL, secret or bot token the
// same way (`--url -`). One typed as an argument still works, with one warning.
// (The process list itself, and the prompt at a real terminal: server-secrets.process.test.ts.)

const KEY = 'file-key-5d21'
const SIGNING_SECRET = 'sign-me-0a7c3e'
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'
const WARNING = /visible to every user of this machine in the process list \(ps\)/g

describe('CLI: secrets off the command line', () => {
  const temp = makeTempDir()
  let receiver: AlertReceiver
  let sim: RunningSimulator
  let address: string
  const notify = (args: string[], stdin?: string) =>
    runCli(['--data-dir', temp.dir, 'notify', 'add', ...args], stdin === undefined ? {} : { stdin })

  beforeAll(async () => {
    receiver = await startAlertReceiver()
    sim = await startSimulator({ seed: 7, live: false, keys: [KEY], clock: { mode: 'manual' } })
    address = sim.chain.walletByProfile('casual').address
    const added = await runCli(['--data-dir', temp.dir, 'watch', 'add', address])
    if (added.code !== 0) throw new Error(added.stderr)
  })
  afterAll(async () => {
    await receiver.close()
    await sim.close()
    temp.remove()
  })

  it('notify add reads the URL and the signing secret from stdin, one a line, and warns of nothing', async () => {
    const run = await notify(
      ['ops', '--format', 'json', '--url', '-', '--secret', '-'],
      `${receiver.url}/T0K3N\n${SIGNING_SECRET}\n`,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(WARNING)
    expect(run.stdout).toMatch(/ops {2}json {2}http:\/\/127\.0\.0\.1:\d+\/\*\*\* {2}signed/)
    const tested = await runCli(['--data-dir', temp.dir, 'notify', 'test', 'ops'])
    expect(tested.code, tested.stdout).toBe(0)
    expect(receiver.received.at(-1)?.path).toBe(new URL(`${receiver.url}/T0K3N`).pathname)
  })

  it('a Telegram bot token from stdin', async () => {
    const run = await notify(
      ['phone', '--format', 'telegram', '--bot-token', '-', '--chat-id', '42'],
      `${BOT_TOKEN}\n`,
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).not.toContain(BOT_TOKEN)
  })

  it('a secret typed as an argument still works, with one warning naming every such flag', async () => {
    const run = await notify([
      'typed',
      '--format',
      'json',
      '--url',
      `${receiver.url}/typed`,
      '--secret',
      SIGNING_SECRET,
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.match(WARNING)).toHaveLength(1)
    expect(run.stderr).toContain('Warning: --url and --secret on the command line are visible')
    expect(run.stderr).toContain('`--url -`')
  })

  it('`-` with nothing piped in is refused, naming the flag', async () => {
    const run = await notify(['empty', '--format', 'json', '--url', '-'], '')
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(
      '--url - reads the channel URL from a prompt or from stdin, and none came.',
    )
  })

  const syncOnce = (args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) =>
    runCli(['--data-dir', temp.dir, '--service', sim.url, ...args, 'sync', '--once'], options)

  it('the API key from a file: used, and nothing said', async () => {
    const file = join(temp.dir, 'key.txt')
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 })
    chmodSync(file, 0o600)
    const before = await simulatorCredits(sim.url, KEY)
    const run = await syncOnce(['--api-key-file', file])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(WARNING)
    expect(run.stderr).not.toContain('can be read by other users')
    expect(await simulatorCredits(sim.url, KEY)).toBeGreaterThan(before)
  })

  it('a key file other users can read is used, and said', async () => {
    const file = join(temp.dir, 'open-key.txt')
    writeFileSync(file, KEY)
    chmodSync(file, 0o644)
    const run = await syncOnce(['--api-key-file', file])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(
      `Warning: ${file} can be read by other users of this machine; \`chmod 600 ${file}\``,
    )
  })

  it('a missing or empty key file, or a key given twice, is refused', async () => {
    const missing = await syncOnce(['--api-key-file', join(temp.dir, 'nope')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('cannot be read (no such file)')
    const empty = join(temp.dir, 'empty.txt')
    writeFileSync(empty, '\n', { mode: 0o600 })
    expect((await syncOnce(['--api-key-file', empty])).stderr).toContain('holds no key')
    const twice = await syncOnce(['--api-key', KEY, '--api-key-file', empty])
    expect(twice.stderr).toContain('Give the API key once')
  })

  it('the API key from HELIOGRAPH_API_KEY or piped into `--api-key -`: used, no warning', async () => {
    const fromEnv = await syncOnce([], { env: { HELIOGRAPH_API_KEY: KEY } })
    expect(fromEnv.code, fromEnv.stderr).toBe(0)
    expect(fromEnv.stderr).not.toMatch(WARNING)
    const piped = await syncOnce(['--api-key', '-'], { stdin: `${KEY}\n` })
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stderr).not.toMatch(WARNING)
  })

  it('an API key typed as an argument still works, and the run warns once', async () => {
    const run = await syncOnce(['--api-key', KEY])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr.match(WARNING)).toHaveLength(1)
    expect(run.stderr).toContain('HELIOGRAPH_API_KEY')
    expect(run.stderr).toContain('--api-key-file')
  })
})
