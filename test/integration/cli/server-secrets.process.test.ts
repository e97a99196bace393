import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 50, item 4, as other users of the machine see it: `heliograph server` started with
// its API key from the environment, from a file or typed at a prompt on a real terminal
// (util-linux `script` gives the run one), and the process list (`ps`) of the whole machine
// while it serves. A key typed as an argument still works; ps shows it, and the run warned.

const BIN = resolve(import.meta.dirname, '../../../scripts/heliograph.mjs')

/** Every process's command line, as any user of the machine reads it. */
const processList = (): string => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })

/** A started server: what it printed, and how to stop it. */
interface Started {
  child: ChildProcess
  output: () => string
  stop(): Promise<void>
}

/** `isGroup`: the child leads a process group (a terminal's), stopped as a whole. */
function started(child: ChildProcess, isGroup = false): Started {
  let output = ''
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()))
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  return {
    child,
    output: () => output,
    stop: async () => {
      if (isGroup) process.kill(-(child.pid as number), 'SIGTERM')
      else child.kill('SIGTERM')
      await exited
    },
  }
}

async function waitFor(server: Started, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now()
  while (!pattern.test(server.output())) {
    if (server.child.exitCode !== null) throw new Error(`exited first:\n${server.output()}`)
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`not within ${timeoutMs} ms:\n${server.output()}`)
    await sleep(100)
  }
}

const SERVING = /Heliograph team server: http/

describe('server: the API key off the command line, as `ps` shows it', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  const key = `key-${randomBytes(9).toString('hex')}`

  beforeAll(async () => {
    // In this process: a simulator of its own would carry the key on its command line.
    sim = await startSimulator({ seed: 7, live: false, keys: [key] })
    // A watched wallet: the server syncs it at once, which spends under the key it was given.
    const added = await runCli([
      '--data-dir',
      temp.dir,
      'watch',
      'add',
      sim.chain.walletByProfile('casual').address,
    ])
    if (added.code !== 0) throw new Error(added.stderr)
  }, 60_000)

  /** Waits until the simulator has charged the key more than `before`: the server uses it. */
  const keyInUse = async (before: number): Promise<void> => {
    const t0 = Date.now()
    while ((await simulatorCredits(sim.url, key)) <= before) {
      if (Date.now() - t0 > 60_000) throw new Error('the server never used the key')
      await sleep(200)
    }
  }
  afterAll(async () => {
    await sim?.close()
    temp.remove()
  })

  const args = (...more: string[]) => [
    '--data-dir',
    temp.dir,
    '--service',
    sim.url,
    ...more,
    'server',
  ]

  it('from HELIOGRAPH_API_KEY: served, and no process shows the key', async () => {
    const server = started(
      spawn(process.execPath, [BIN, ...args()], {
        env: { ...process.env, HELIOGRAPH_API_KEY: key },
      }),
    )
    try {
      await waitFor(server, SERVING)
      expect(processList()).toContain('server')
      expect(processList()).not.toContain(key)
      expect(server.output()).not.toMatch(/process list/)
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('from --api-key-file: served, and no process shows the key', async () => {
    const file = join(temp.dir, 'api-key')
    writeFileSync(file, `${key}\n`, { mode: 0o600 })
    const before = await simulatorCredits(sim.url, key)
    const server = started(spawn(process.execPath, [BIN, ...args('--api-key-file', file)]))
    try {
      await waitFor(server, SERVING)
      await keyInUse(before)
      expect(processList()).toContain(file)
      expect(processList()).not.toContain(key)
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('typed at a prompt on a terminal: not echoed, and no process shows it', async () => {
    const before = await simulatorCredits(sim.url, key)
    const command = [process.execPath, BIN, ...args('--api-key', '-')].join(' ')
    const server = started(
      spawn('script', ['-qec', command, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      }),
      true,
    )
    try {
      await waitFor(server, /API key \(--api-key, not shown\): /)
      server.child.stdin?.write(`${key}\r`)
      await waitFor(server, SERVING)
      await keyInUse(before)
      expect(server.output()).not.toContain(key)
      expect(processList()).not.toContain(key)
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('typed as an argument: it works, ps shows it, and the run warned', async () => {
    const before = await simulatorCredits(sim.url, key)
    const server = started(spawn(process.execPath, [BIN, ...args('--api-key', key)]))
    try {
      await waitFor(server, SERVING)
      await keyInUse(before)
      expect(server.output()).toContain(
        'Warning: --api-key on the command line is visible to every user of this machine in the process list (ps)',
      )
      expect(processList()).toContain(key)
    } finally {
      await server.stop()
    }
  }, 120_000)
})
