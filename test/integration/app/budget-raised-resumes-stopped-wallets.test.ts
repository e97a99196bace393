import type { CreditsOverview, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { makeTempDir } from '../../helpers/temp-dir'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 13: removing or raising a budget that stopped wallets left them stopped until each
// was retried by hand. Once spending is under every budget again, the wallets the budget
// stopped sync again by themselves.

describe('core: raising or removing the budget resumes the wallets it stopped', () => {
  const temp = makeTempDir()
  let core: Core
  let wallets: WatchedWallet[]

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
  /** Sets a daily budget just above what was spent, and syncs until it stops a wallet. */
  const stopAtTheBudget = async (): Promise<void> => {
    await call('settings:update', { dailyBudget: (await spentToday()) + 150 })
    await call('sync:start', {})
    await expect.poll(states, { timeout: 30_000 }).toContain('budget')
    // Nothing resumes on its own while the budget still holds.
    expect(await states()).toContain('budget')
  }

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      clock: new FastForwardClock(),
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
    // A raise that still leaves the budget spent resumes nothing.
    const spent = await spentToday()
    await call('settings:update', { dailyBudget: spent })
    expect(await states()).toContain('budget')

    await call('settings:update', { dailyBudget: spent + 1_000_000 })
    await expect.poll(isEverythingSynced, { timeout: 60_000 }).toBe(true)
  }, 120_000)

  it('removing the budget resumes them', async () => {
    await stopAtTheBudget()
    await call('settings:update', { dailyBudget: null })
    await expect.poll(isEverythingSynced, { timeout: 60_000 }).toBe(true)
    expect(await states()).not.toContain('budget')
  }, 120_000)
})
