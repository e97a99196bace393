import { afterEach, describe, expect, it } from 'vitest'
import type { StreamStatus, WalletSyncOutcome, WalletSyncStatus } from '@shared/ipc/sync-schemas'
import { LeaseKeeper } from '../../../src-main/sync/lease-keeper'
import {
  runSharedSyncRound,
  type SharedSyncRoundResult,
} from '../../../src-main/sync/shared-sync-round'
import { LEASE_ENGINES, type LeaseDatabase } from '../../helpers/lease-engines'
import { VirtualClock } from '../../helpers/virtual-clock'
import { testAddress } from '../../helpers/wallets'

// A worker on a busy machine can miss its lease renewals: its sync of a wallet stops at
// once, since another worker may hold the wallet by now. That is not a cancel by the person:
// the round goes on, takes the wallet again once it is free and finishes it.

const TTL = 30_000
const WALLETS = [testAddress(1), testAddress(2)].sort()

const outcome = (address: string, state: WalletSyncOutcome['state']): WalletSyncOutcome => ({
  address,
  streams: [],
  state,
  newTransactions: 0,
})

/**
 * A shared round over WALLETS, polling every second, with the virtual clock moved on until
 * it ends (its renewals and polls wait on that clock).
 */
async function roundOnClock(
  clock: VirtualClock,
  deps: Omit<Parameters<typeof runSharedSyncRound>[0], 'addresses' | 'clock' | 'pollMs'>,
): Promise<SharedSyncRoundResult> {
  let isDone = false
  const round = runSharedSyncRound({ ...deps, addresses: WALLETS, clock, pollMs: 1_000 })
  const [result] = await Promise.all([
    round.finally(() => (isDone = true)),
    clock.advanceUntil(() => isDone, 500, 10 * TTL),
  ])
  return result
}

describe('a shared sync round', () => {
  let database: LeaseDatabase | null = null
  afterEach(async () => {
    await database?.close()
  })

  it('a lease lost mid-sync is taken again and the wallet finished, with no cancel reported', async () => {
    database = await LEASE_ENGINES.sqlite(1)
    const clock = new VirtualClock(1_795_000_000_000)
    // Renewals that never come in time: the machine is too busy to run the timer.
    const keeper = new LeaseKeeper({
      store: database.stores[0] as NonNullable<LeaseDatabase['stores'][0]>,
      holder: 'busy',
      ttlMs: TTL,
      renewEveryMs: 10 * TTL,
      watched: WALLETS,
      clock,
    })
    const runs: string[] = []
    const reported: WalletSyncOutcome[] = []
    let syncing: string | null = null
    let cancelStalled: (() => void) | null = null
    const result = await roundOnClock(clock, {
      keeper,
      syncWallet: async (address) => {
        runs.push(address)
        syncing = address
        try {
          // The first sync stalls until its lease lapses and the round stops it.
          if (runs.length === 1) {
            await new Promise<void>((resolve) => (cancelStalled = resolve))
            return outcome(address, 'cancelled')
          }
          return outcome(address, 'ok')
        } finally {
          syncing = null
        }
      },
      cancelWallet: (address) => {
        if (address === syncing) cancelStalled?.()
      },
      isSyncing: (address) => address === syncing,
      status: () => Promise.resolve([]),
      onOutcome: (o) => reported.push(o),
    })

    expect(runs[0]).toBe(runs[1])
    expect([...new Set(runs)].sort()).toEqual(WALLETS)
    expect(reported.map((o) => [o.address, o.state]).sort()).toEqual(WALLETS.map((w) => [w, 'ok']))
    expect(result.outcomes.map((o) => o.state)).toEqual(['ok', 'ok'])
  })

  it('a wallet a dead worker left mid-backfill is synced here, not counted as synced elsewhere', async () => {
    database = await LEASE_ENGINES.sqlite(2)
    const [mine, theirs] = database.stores as [
      NonNullable<LeaseDatabase['stores'][0]>,
      NonNullable<LeaseDatabase['stores'][0]>,
    ]
    const clock = new VirtualClock(1_795_000_000_000)
    const startedSec = Math.floor(clock.nowMs() / 1000)
    // The other worker takes both wallets, syncs pages of one, and dies without a word.
    const dead = new LeaseKeeper({
      store: theirs,
      holder: 'dead',
      ttlMs: TTL,
      watched: WALLETS,
      clock,
    })
    await dead.runRound()
    const left = WALLETS[0] as string
    // Its pages succeeded after the round began, but the run never finished.
    const stream = (state: StreamStatus['state']): StreamStatus => ({
      stream: 'transfers',
      state,
      itemsStored: 300,
      pagesFetched: 3,
      creditsSpent: 300,
      isBackfillComplete: state === 'ok',
      newestKey: 'n',
      backfillCursor: state === 'ok' ? null : 'c',
      depthLimitCount: null,
      depthLimitSinceSec: null,
      lastSuccessSec: startedSec + 1,
      lastError: null,
      isPaused: false,
    })
    const synced = new Set<string>()
    const status = (address: string): WalletSyncStatus => ({
      address,
      label: null,
      state: 'syncing',
      message: null,
      isPaused: false,
      creditsSpent: 0,
      streams: [stream(synced.has(address) ? 'ok' : address === left ? 'cancelled' : 'idle')],
    })
    const keeper = new LeaseKeeper({
      store: mine,
      holder: 'alive',
      ttlMs: TTL,
      watched: WALLETS,
      clock,
    })
    const result = await roundOnClock(clock, {
      keeper,
      syncWallet: async (address) => {
        synced.add(address)
        return outcome(address, 'ok')
      },
      cancelWallet: () => {},
      isSyncing: () => false,
      status: () => Promise.resolve(WALLETS.map(status)),
    })
    expect(result.syncedElsewhere).toEqual([])
    expect(result.outcomes.map((o) => o.address).sort()).toEqual(WALLETS)
  })
})
