import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { VirtualClock } from '../../helpers/virtual-clock'
import { runCli, startCliInProcess } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'

// `heliograph sync` without --once keeps watching: at a 15-second cadence, for three
// minutes of the run's clock, printing one line per change the simulator is given, and
// stopping on SIGTERM after the page in flight. The three minutes run on a virtual clock;
// the real signal to a real process is cli-sync-watching.process.test.ts.

const CADENCE_SEC = 15
const STAY_UP_MS = 180_000
/** Virtual time per step; each step leaves real time for the service's answers. */
const STEP_MS = 250

/** Advances `clock` by `ms` in steps, letting the watch's HTTP calls land between them. */
async function advanceWatching(clock: VirtualClock, ms: number): Promise<void> {
  const endMs = clock.nowMs() + ms
  while (clock.nowMs() < endMs) {
    await clock.advance(Math.min(STEP_MS, endMs - clock.nowMs()))
    await sleep(5)
  }
}

/** Advances until `condition` holds; fails after `limitMs` of virtual time. */
async function advanceUntil(
  clock: VirtualClock,
  condition: () => boolean,
  limitMs: number,
): Promise<void> {
  const startMs = clock.nowMs()
  while (!condition()) {
    if (clock.nowMs() - startMs > limitMs)
      throw new Error(`not within ${limitMs} virtual ms; pending timers ${clock.pendingTimers}`)
    await advanceWatching(clock, STEP_MS)
  }
}

describe('CLI: sync keeps watching until a signal', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const address = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', address, '--label', 'Casual'])).code).toBe(0)
    const once = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('stays up three minutes at a 15 s cadence, prints each change within two cadences, and ends with 0 on SIGTERM', async () => {
    const wallet = sim.chain.walletByProfile('casual')
    const clock = new VirtualClock()
    const watching = startCliInProcess(
      [...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)],
      { clock },
    )
    const lines = () => watching.stdout.split('\n').filter((l) => l.startsWith('Casual:'))
    try {
      for (let tries = 0; !watching.stderr.includes('Watching 1 wallet'); tries++) {
        if (tries > 600) throw new Error(`never started watching:\n${watching.stderr}`)
        await sleep(10)
      }
      const startedMs = clock.nowMs()
      await advanceWatching(clock, CADENCE_SEC * 1_000)
      expect(lines()).toEqual([])

      // Two moments of activity, each printed within two cadences.
      for (const count of [1, 3]) {
        const before = lines().length
        sim.addActivity(wallet, count)
        const t0 = clock.nowMs()
        await advanceUntil(clock, () => lines().length > before, 3 * CADENCE_SEC * 1_000)
        expect(clock.nowMs() - t0).toBeLessThanOrEqual(2 * CADENCE_SEC * 1_000)
        expect(lines().at(-1)).toMatch(
          new RegExp(`^Casual: balance moved; ${count} new transactions?`),
        )
        await advanceWatching(clock, CADENCE_SEC * 1_000)
      }

      await advanceWatching(clock, STAY_UP_MS - (clock.nowMs() - startedMs))
      expect(clock.nowMs() - startedMs).toBeGreaterThanOrEqual(STAY_UP_MS)
      expect(lines()).toHaveLength(2)
      watching.signal('SIGTERM')
      expect(await watching.exited).toBe(0)
      expect(watching.stderr).toMatch(/SIGTERM: stopping after the page in flight/)
    } finally {
      watching.signal('SIGINT')
      await watching.exited
    }
  })

  it('prints each health line as it is raised and as it is resolved', async () => {
    const fault = (method: string, body?: object) =>
      fetch(`${sim.url}/__sim/faults`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    const clock = new VirtualClock()
    const watching = startCliInProcess(
      [...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)],
      { clock },
    )
    try {
      for (let tries = 0; !watching.stderr.includes('Watching 1 wallet'); tries++) {
        if (tries > 600) throw new Error(`never started watching:\n${watching.stderr}`)
        await sleep(10)
      }
      expect((await fault('POST', { kind: 'error', status: 401, message: 'bad key' })).ok).toBe(
        true,
      )
      const raised =
        /Syncing stopped: the service rejected the API key \(HTTP 401\) \(since \d\d:\d\d UTC\)\. Replace it in Settings/
      await advanceUntil(clock, () => raised.test(watching.stderr), 4 * CADENCE_SEC * 1_000)
      await fault('DELETE')
      const resolved =
        /Syncing resumed: the service accepts the API key again \(rejected from \d\d:\d\d to \d\d:\d\d UTC\)\./
      await advanceUntil(clock, () => resolved.test(watching.stderr), 4 * CADENCE_SEC * 1_000)
      // Each once, however many calls saw it.
      expect(watching.stderr.match(new RegExp(raised.source, 'g'))).toHaveLength(1)
      expect(watching.stderr.match(new RegExp(resolved.source, 'g'))).toHaveLength(1)
      watching.signal('SIGTERM')
      expect(await watching.exited).toBe(0)
    } finally {
      watching.signal('SIGINT')
      await watching.exited
    }
  })
})
