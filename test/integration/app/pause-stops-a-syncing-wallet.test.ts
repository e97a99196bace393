import { getOperation } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import type { CreditsOverview, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import type { DemoWalletsAdded, WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { FaultSpec } from '../../../src-main/simulator/fault-injector'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'
import { WATCHING_OFF } from '../../helpers/watching-off'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 13: "Pause" on Activity did nothing (isPaused stayed false), also during a sync.
// Pausing a syncing wallet starts no new call, lets the pages in flight finish and be
// written, reports the wallet paused, keeps it out of later syncs, and Resume syncs it.

/** A page of history, transfers or balances: one wallet-API call. */
const WALLET_PAGE_CREDITS = creditsPerCall(getOperation('wallet.history').priceKey)

describe('core: Pause stops a wallet’s sync and Resume continues it', () => {
  const temp = makeTempDir()
  let core: Core
  let sim: RunningSimulator | undefined
  let wallets: WatchedWallet[]

  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const answer = await core.dispatch(channel, input)
    if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
    return answer.result as T
  }
  const status = async (address: string): Promise<WalletSyncStatus> => {
    const all = await call<WalletSyncStatus[]>('sync:status', undefined)
    return all.find((s) => s.address === address) as WalletSyncStatus
  }

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      clock: new FastForwardClock(),
      demo: { live: false, onStarted: (started) => (sim = started) },
    })
    // Watching off: only the wallets asked for sync, so what runs is what the test started.
    await call('settings:update', { watch: WATCHING_OFF })
    const demo = await call<DemoWalletsAdded>('demo:add-wallets', undefined)
    wallets = [...demo.alreadyWatched, ...demo.added]
    expect(wallets.length).toBeGreaterThanOrEqual(2)
    // Slow wallet pages keep the first wallet's sync running while it is paused.
    sim?.faults.add(FaultSpec.parse({ target: 'wallet.*', kind: 'latency', latencyMs: 1_500 }))
  })
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  it('pausing during a sync stops it after the page in flight and reports it paused', async () => {
    const address = (wallets[0] as WatchedWallet).address
    await call('sync:start', { address })
    // Syncing, with a page committed and the next pages in flight.
    await expect
      .poll(
        async () => {
          const now = await status(address)
          return now.state === 'syncing' && now.streams.some((st) => st.pagesFetched > 0)
        },
        { timeout: 20_000 },
      )
      .toBe(true)

    await call('sync:pause', { address })
    const paused = await status(address)
    expect(paused.isPaused).toBe(true)
    expect(paused.state).toBe('paused')
    expect(paused.message).toMatch(/Paused/)
    // The calls in flight finished and are in the ledger: it equals what the service charged.
    const overview = await call<CreditsOverview>('credits:overview', undefined)
    expect(overview.totalCredits).toBe(await simulatorCredits(sim!.url))
    // Every wallet page paid for was written: no page in flight was thrown away.
    for (const st of paused.streams.filter((x) => ['history', 'transfers'].includes(x.stream)))
      expect(st.creditsSpent, st.stream).toBe(st.pagesFetched * WALLET_PAGE_CREDITS)
    // Balances pages are wallet pages (100) then DAS holdings pages (10): each paid one kept.
    const balances = paused.streams.find((x) => x.stream === 'balances')
    if (balances && balances.creditsSpent > 0) {
      expect(balances.pagesFetched).toBeGreaterThan(0)
      expect(balances.creditsSpent).toBeLessThanOrEqual(balances.pagesFetched * WALLET_PAGE_CREDITS)
    }
  })

  it('a paused wallet makes no call while the others sync', async () => {
    const address = (wallets[0] as WatchedWallet).address
    const before = (await status(address)).creditsSpent
    const chargedBefore = await simulatorCredits(sim!.url)
    sim?.faults.clear()
    await call('sync:start', {})
    const others = wallets.slice(1).map((w) => w.address)
    // Each of the others synced to the end of its history.
    await expect
      .poll(
        async () =>
          Promise.all(
            others.map(async (a) => {
              const s = await status(a)
              return s.state === 'up-to-date' && s.streams.every((st) => st.isBackfillComplete)
            }),
          ),
        { timeout: 60_000 },
      )
      .toEqual(others.map(() => true))
    expect(await simulatorCredits(sim!.url)).toBeGreaterThan(chargedBefore)
    const still = await status(address)
    expect(still.state).toBe('paused')
    expect(still.creditsSpent).toBe(before)
  })

  it('Resume clears the pause and syncs the wallet to the end', async () => {
    const address = (wallets[0] as WatchedWallet).address
    const before = (await status(address)).creditsSpent
    await call('sync:resume', { address })
    expect((await status(address)).isPaused).toBe(false)
    await expect
      .poll(
        async () => {
          const now = await status(address)
          return now.state === 'up-to-date' && now.creditsSpent > before
        },
        { timeout: 60_000 },
      )
      .toBe(true)
    const resumed = await status(address)
    expect(resumed.streams.every((s) => s.isBackfillComplete)).toBe(true)
    expect(resumed.creditsSpent).toBeGreaterThan(before)
  })
})
