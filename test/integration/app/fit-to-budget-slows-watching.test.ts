import type { HealthStatus } from '@shared/ipc/health-schemas'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { projectWatchCost, type WatchFootprint } from '@shared/domain/watch-cost'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 30, fit to budget: when the month's projection exceeds what is left of the month's
// credits, watching goes on slower instead of stopping, and says so; the Settings switch
// turns it off. Time is a virtual clock: twenty minutes of watching take a few seconds.

// The 20th of November: ten days of the month left.
const START_MS = Date.UTC(2026, 10, 20, 12, 0, 0)

describe('fit to budget lengthens the watch cadence to last the month', () => {
  const temp = makeTempDir()
  // Waits jump ahead; the ledger stamps each balance look with the virtual time it ran.
  const clock = new FastForwardClock({ startMs: START_MS })
  let sim: RunningSimulator
  let core: Core

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  /** When each balance look ran (one getMultipleAccounts call a round, one wallet), in ms. */
  const lookTimes = (): Promise<number[]> =>
    readStoredMirror({ dataDir: temp.dir }, async (db) =>
      (
        await db
          .selectFrom('credit_ledger')
          .select('at_ms')
          .where('operation', '=', 'rpc.getMultipleAccounts')
          .orderBy('id')
          .execute()
      ).map((r) => r.at_ms),
    )
  /** Seconds between the next `count` balance looks (the cadence watching runs at). */
  const nextIntervalsSec = async (count: number): Promise<number[]> => {
    const before = (await lookTimes()).length
    let times: number[] = []
    await expect
      .poll(
        async () => {
          times = await lookTimes()
          return times.length
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBeGreaterThanOrEqual(before + count + 1)
    const recent = times.slice(before, before + count + 1)
    return recent.slice(1).map((t, i) => Math.round((t - (recent[i] as number)) / 1000))
  }

  /** Each interval is the cadence, give or take a round still running when the next fell due. */
  const expectEvery = (intervals: number[], everySec: number): void => {
    for (const sec of intervals) {
      expect(sec).toBeGreaterThanOrEqual(everySec)
      expect(sec).toBeLessThanOrEqual(everySec + 5)
    }
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 32, clock: { mode: 'manual' } })
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      serviceUrl: sim.url,
      apiKey: 'demo',
      clock,
      isWatching: true,
    })
    await call('watchlist:add', { address: sim.chain.walletByProfile('idle').address })
  }, 120_000)
  afterAll(async () => {
    await core?.close()
    clock.stop()
    await sim?.close()
    temp.remove()
  })

  it('watches every minute while the month fits, every few minutes once it would not, and says so', async () => {
    // The first look after the first sync may come early, and the one after it a second
    // late (its round waits on the plan's pacing behind the first sync's last calls, while
    // the next round is due a minute from that round's start); then one a minute.
    expectEvery((await nextIntervalsSec(5)).slice(2), 60)
    expect((await call<HealthStatus>('health:status', undefined)).budgetFit).toBeNull()

    // A monthly budget that lasts the ten days left only at a quarter of the looks.
    const footprint = await call<WatchFootprint>('watch:footprint', undefined)
    const settings = await call<{ watch: Parameters<typeof projectWatchCost>[1] }>(
      'settings:get',
      undefined,
    )
    const perDay = projectWatchCost(footprint.wallets, settings.watch, {
      plan: 'off',
      monthlyBudget: null,
    }).perDay
    const spent = (await call<CreditsOverview>('credits:overview', undefined)).monthCredits
    await call('settings:update', { monthlyBudget: Math.round(spent + (perDay * 10) / 4) })

    // The look already due runs at the old cadence; then every few minutes.
    const slowed = (await nextIntervalsSec(4)).slice(1)
    const status = await call<HealthStatus>('health:status', undefined)
    const every = status.budgetFit?.checkEverySec ?? 0
    expect(every).toBeGreaterThanOrEqual(180)
    expect(every).toBeLessThanOrEqual(300)
    expectEvery(slowed, every)
    expect(status.budgetFit).toMatchObject({ baseCheckEverySec: 60 })
    expect(status.budgetFit?.line).toBe(
      `Watching every ${every / 60} min instead of every 1 min to last the month's credits.`,
    )
    const cli = await runCli(['--data-dir', temp.dir, 'status'])
    expect(cli.stdout.split('\n')[0]).toBe(status.budgetFit?.line)

    // The Settings switch turns it off: every minute again, and no line.
    await call('settings:update', { fitToBudget: false })
    expectEvery((await nextIntervalsSec(3)).slice(1), 60)
    expect((await call<HealthStatus>('health:status', undefined)).budgetFit).toBeNull()
  }, 180_000)
})
