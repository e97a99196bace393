import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openMirror } from '../../../src-main/db/open-mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'

// Durable delivery: a process killed (SIGKILL) right after it wrote an alert, before any
// delivery, loses nothing: the next `heliograph sync --every` delivers it, once, and a
// later one never sends it again.

const ROOT = resolve(import.meta.dirname, '../../..')
const WRITER = resolve(import.meta.dirname, 'write-alert-then-wait.ts')
const CLI = resolve(ROOT, 'src-main/cli/main.ts')

function spawnTs(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
  return { child, output: () => output }
}

async function killed(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((done) => child.on('exit', done))
  child.kill(signal)
  await exited
}

/** Writes alert `n` in a child process and SIGKILLs it at once. */
async function writeAlertAndKill(dataDir: string, n: number): Promise<number> {
  const writer = spawnTs([WRITER, dataDir, 'ops', String(n)])
  await expect.poll(writer.output, { timeout: 30_000 }).toMatch(/written \d+/)
  await killed(writer.child)
  return Number(/written (\d+)/.exec(writer.output())![1])
}

describe('alert delivery survives a kill -9', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let receiver: AlertReceiver
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    receiver = await startAlertReceiver()
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const address = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', address])).code).toBe(0)
    const added = await runCli([
      ...base,
      'notify',
      'add',
      'ops',
      '--format',
      'json',
      '--url',
      receiver.url,
    ])
    expect(added.code, added.stderr).toBe(0)
  })
  afterAll(async () => {
    await receiver.close()
    await sim.close()
    temp.remove()
  })

  const idsReceived = (): number[] =>
    receiver.received.map((r) => (JSON.parse(r.body) as { id: number }).id)

  it('is delivered after the restart, once', { timeout: 120_000 }, async () => {
    const first = await writeAlertAndKill(temp.dir, 1)
    expect(receiver.received).toHaveLength(0)

    const watching = spawnTs([CLI, ...base, 'sync', '--quiet', '--every', '15'])
    try {
      await expect.poll(idsReceived, { timeout: 60_000 }).toEqual([first])
    } finally {
      // Stopped as a service manager stops it: the delivery under way is recorded first.
      await killed(watching.child, 'SIGTERM')
    }

    // A second alert, and another restart: it delivers the new one and not the first again
    // (both are due in the same first pass over the outbox, oldest first).
    const second = await writeAlertAndKill(temp.dir, 2)
    const again = spawnTs([CLI, ...base, 'sync', '--quiet', '--every', '15'])
    try {
      await expect.poll(idsReceived, { timeout: 60_000 }).toEqual([first, second])
    } finally {
      await killed(again.child, 'SIGTERM')
    }
    const keys = receiver.received.map((r) => r.headers['heliograph-idempotency-key'])
    expect(keys).toEqual([`heliograph-alert-${first}`, `heliograph-alert-${second}`])

    const mirror = await openMirror({ file: join(temp.dir, 'heliograph.sqlite'), isReadOnly: true })
    try {
      const views = await mirror.alerts.views([first, second])
      for (const view of views)
        expect(view.deliveries.find((d) => d.channel === 'ops')).toMatchObject({
          state: 'delivered',
          attempts: 1,
        })
    } finally {
      await mirror.close()
    }
  })
})
