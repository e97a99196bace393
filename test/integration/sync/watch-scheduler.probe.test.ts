import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WatchScheduler } from '../../../src-main/sync/watch-scheduler'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth } from '../../helpers/sim-truth'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'

/** Calls per operation recorded in the ledger since row `afterId`. */
function callsSince(fx: SyncFixture, afterId: number): Record<string, number> {
  const rows = fx.database.sqlite
    .prepare('select operation, count(*) as n from credit_ledger where id > ? group by operation')
    .all(afterId) as { operation: string; n: number }[]
  return Object.fromEntries(rows.map((r) => [r.operation, r.n]))
}

function lastLedgerId(fx: SyncFixture): number {
  return (
    fx.database.sqlite.prepare('select coalesce(max(id), 0) as id from credit_ledger').get() as {
      id: number
    }
  ).id
}

describe('watching: the change probe spares wallet calls when nothing moved, and catches what did', () => {
  let fx: SyncFixture
  let scheduler: WatchScheduler
  let address: string
  const cadence = { isWatching: true, minIntervalSec: 60, maxIntervalSec: 3_600 }

  beforeAll(async () => {
    fx = await startSyncFixture({ sim: { clock: { mode: 'manual' } } })
    address = await fx.watch('casual')
    scheduler = new WatchScheduler({
      schedule: fx.mirror.schedule,
      baseline: fx.mirror.probe,
      engine: fx.runtime.engine,
      cadence: async () => cadence,
    })
  })
  afterAll(() => fx.stop())

  it('a first check backfills everything; the next one takes the probe baseline and syncs', async () => {
    expect((await scheduler.checkWallet(address))?.state).toBe('ok')
    const before = lastLedgerId(fx)
    expect((await scheduler.checkWallet(address))?.state).toBe('ok')
    const calls = callsSince(fx, before)
    // No baseline yet: the probe lists token accounts and looks, then the full check runs.
    expect(calls['rpc.getSignaturesForAddress']).toBeGreaterThanOrEqual(1)
    expect(calls['das.getTokenAccounts']).toBe(1)
    expect(calls['wallet.history']).toBe(1)
  })

  it('with nothing new, a check costs probes and compression calls only — no 100-credit wallet call', async () => {
    const before = lastLedgerId(fx)
    const outcome = await scheduler.checkWallet(address)
    expect(outcome?.state).toBe('ok')
    const calls = callsSince(fx, before)
    expect(calls['wallet.history'] ?? 0).toBe(0)
    expect(calls['wallet.transfers'] ?? 0).toBe(0)
    expect(calls['wallet.balances'] ?? 0).toBe(0)
    expect(calls['rpc.getSignaturesForAddress']).toBeGreaterThanOrEqual(1)
    const credits = fx.database.sqlite
      .prepare('select sum(credits) as c from credit_ledger where id > ?')
      .get(before) as { c: number }
    expect(credits.c).toBeLessThan(200)
  })

  it('after new activity the probe sees it and the sync brings the mirror level with the truth', async () => {
    await fetch(`${fx.sim.url}/__sim/activity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: address, count: 12 }),
    })
    const before = lastLedgerId(fx)
    const outcome = await scheduler.checkWallet(address)
    expect(outcome?.newTransactions).toBe(12)
    expect(callsSince(fx, before)['wallet.history']).toBe(1)
    const truth = await readWalletTruth(fx.sim.url, address)
    expect(readMirror(fx.database.sqlite, address).transactions.length).toBe(truth.history.length)
  })

  it('a paused wallet, or watching switched off, is not checked on the timer; "sync now" still runs', async () => {
    await fx.mirror.schedule.setPaused(address, true, 1_700_000_000)
    expect(await fx.mirror.schedule.isPaused(address)).toBe(true)
    const before = lastLedgerId(fx)
    fx.database.sqlite.prepare('update watch_schedule set next_check_sec = 0').run()
    scheduler.poke()
    await scheduler.idle()
    expect(lastLedgerId(fx)).toBe(before)

    await fx.mirror.schedule.setPaused(address, false, 1_700_000_000)
    await scheduler.syncNow(address)
    cadence.isWatching = false
    fx.database.sqlite.prepare('update watch_schedule set next_check_sec = 0').run()
    await scheduler.idle()
    const afterResume = lastLedgerId(fx)
    expect(afterResume).toBeGreaterThan(before) // resumed and asked: it runs
    fx.database.sqlite.prepare('update watch_schedule set next_check_sec = 0').run()
    scheduler.poke()
    await scheduler.idle()
    expect(lastLedgerId(fx)).toBe(afterResume)
  })
})
