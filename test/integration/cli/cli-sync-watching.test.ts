import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'

// `heliograph sync` without --once keeps watching (issue 11): on the real clock, at a
// 15-second cadence, for three minutes, printing one line per change the simulator is
// given, and exiting 0 on SIGTERM after the page in flight.

const BIN = resolve(import.meta.dirname, '../../../scripts/heliograph.mjs')
const CADENCE_SEC = 15
const STAY_UP_MS = 180_000

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('exit', (code) => done({ code, stderr }))
  })
}

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const t0 = Date.now()
  while (!condition()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`not within ${timeoutMs} ms`)
    await sleep(200)
  }
  return Date.now() - t0
}

describe('CLI: sync keeps watching until a signal', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const address = sim.chain.walletByProfile('casual').address
    expect((await run([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
    const once = await run([...base, 'sync', '--once', '--quiet'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it(
    'stays up three minutes at a 15 s cadence, prints each change, and exits 0 on SIGTERM',
    async () => {
      const wallet = sim.chain.walletByProfile('casual')
      const child = spawn(
        process.execPath,
        [BIN, ...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      )
      const startedAt = Date.now()
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
      const lines = () => stdout.split('\n').filter((l) => l.startsWith('Casual:'))
      try {
        await until(() => stderr.includes('Watching 1 wallet'), 30_000)
        await sleep(CADENCE_SEC * 1_000)
        expect(lines()).toEqual([])

        // Two moments of activity, each printed within two cadences.
        for (const count of [1, 3]) {
          const before = lines().length
          sim.addActivity(wallet, count)
          const waited = await until(() => lines().length > before, 3 * CADENCE_SEC * 1_000)
          expect(waited).toBeLessThanOrEqual(2 * CADENCE_SEC * 1_000 + 5_000)
          expect(lines().at(-1)).toMatch(
            new RegExp(`^Casual: balance moved; ${count} new transactions?`),
          )
          await sleep(CADENCE_SEC * 1_000)
        }

        await sleep(Math.max(0, STAY_UP_MS - (Date.now() - startedAt)))
        expect(child.exitCode).toBeNull()
        expect(lines()).toHaveLength(2)
        child.kill('SIGTERM')
        expect(await exited).toBe(0)
        expect(stderr).toMatch(/SIGTERM: stopping after the page in flight/)
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
      }
    },
    STAY_UP_MS + 60_000,
  )
})
