import type { CreditsOverview, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { budgetPeriodStarts } from '../../../src-main/db/stores/credit-ledger-store'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 13: removing or raising a budget that stopped wallets left them stopped until each
// was retried by hand. Once spending is under every budget again, the wallets the budget
// stopped sync again by themselves.

describe('core: raising or removing the budget resumes the wallets it stopped', () => {
  const temp = makeTempDir()
  let core: Core
  let wallets: WatchedWallet[]
  const clock = new FastForwardClock()

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  const states = async (): Promise<string[]> =>
    (await call<WalletSyncStatus[]>('sync:status', undefined)).map((s) => s.state)
  const spentToday = async (): Promise<number> =>
    (await call<CreditsOverview>('credits:overview', undefined)).todayCredits
  const isEverythingSynced = async (): Promise<boolean> =>
    (await call<WalletSyncStatus[]>('sync:status', undefined)).every(
      (s) => s.state === 'up-to-date' && s.streams.every((st) => st.isBackfillComplete),
    )
  /**
   * Sets a daily budget just above what was spent today, and syncs until it stops a wallet;
   * then holds time still. Watching runs through days of virtual rounds in seconds here: a
   * day that turns before the budget is reached resets the spending it holds, so the budget
   * is set again for the new day.
   */
  const stopAtTheBudget = async (): Promise<void> => {
    const deadlineMs = Date.now() + 30_000
    for (;;) {
      const day = budgetPeriodStarts(clock.nowMs()).dayStartMs
      await call('settings:update', { dailyBudget: (await spentToday()) + 150 })
      await call('sync:start', {})
      while (Date.now() < deadlineMs) {
        clock.stop()
        const isStoppedByBudget =
          (await states()).includes('budget') &&
          budgetPeriodStarts(clock.nowMs()).dayStartMs === day
        if (isStoppedByBudget) return
        clock.resume()
        if (budgetPeriodStarts(clock.nowMs()).dayStartMs !== day) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      if (Date.now() >= deadlineMs) throw new Error('no wallet stopped at the budget within 30 s')
    }
  }
  /** Lets time move again and waits until every wallet is synced. */
  const resumeAndSyncAll = async (): Promise<void> => {
    clock.resume()
    await expect.poll(isEverythingSynced, { timeout: 60_000 }).toBe(true)
  }

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      clock,
      demo: { live: false },
    })
    const demo = await call<DemoWalletsAdded>('demo:add-wallets', undefined)
    wallets = [...demo.alreadyWatched, ...demo.added]
    expect(wallets.length).toBeGreaterThanOrEqual(2)
  })
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  it('a raise above what was spent resumes them', async () => {
    await stopAtTheBudget()
    // A raise that still leaves the budget spent resumes nothing (time stands still here).
    const spent = await spentToday()
    await call('settings:update', { dailyBudget: spent })
    expect(await states()).toContain('budget')

    await call('settings:update', { dailyBudget: spent + 1_000_000 })
    await resumeAndSyncAll()
  }, 120_000)

  it('removing the budget resumes them', async () => {
    await stopAtTheBudget()
    await call('settings:update', { dailyBudget: null })
    await resumeAndSyncAll()
    expect(await states()).not.toContain('budget')
  }, 120_000)
})
