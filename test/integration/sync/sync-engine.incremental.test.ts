import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { expectMirrorEqualsTruth, ledgerCalls, simulatorCalls } from './mirror-truth-assertions'

// ARCHITECTURE, "Sync rules": incremental sync fetches only what is newer than the newest stored
// item. History asks with `after` = the newest stored signature, so N new transactions
// cost ⌈N/100⌉ calls, and one call when nothing is new.

async function addActivity(simUrl: string, wallet: string, count: number): Promise<string[]> {
  const response = await fetch(`${simUrl}/__sim/activity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet, count }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { signatures: string[] }).signatures
}

describe.each(ENGINES)(
  'sync engine: after live activity, an incremental sync fetches only the new items (on %s)',
  (engine) => {
    let fx: SyncFixture
    let address: string

    beforeAll(async () => {
      fx = await startSyncFixture({ engine })
      address = await fx.watch('casual')
      const first = await fx.runtime.engine.syncWallet(address)
      expect(first.state, JSON.stringify(first)).toBe('ok')
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    })
    afterAll(() => fx.stop())

    it('nothing new: one history call, one transfers call, no new row', async () => {
      const rowsBefore = (await readMirror(fx.db, address)).transactions.length
      const historyBefore = await simulatorCalls(fx.sim.url, 'wallet.history')
      const transfersBefore = await simulatorCalls(fx.sim.url, 'wallet.transfers')

      const outcome = await fx.runtime.engine.syncWallet(address)

      expect(outcome.state).toBe('ok')
      expect(outcome.newTransactions).toBe(0)
      expect((await readMirror(fx.db, address)).transactions.length).toBe(rowsBefore)
      expect((await simulatorCalls(fx.sim.url, 'wallet.history')) - historyBefore).toBe(1)
      expect((await simulatorCalls(fx.sim.url, 'wallet.transfers')) - transfersBefore).toBe(1)
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    })

    // 7 fits one page, 100 fills one page exactly, 250 spans three.
    it.each([7, 100, 250])(
      '%i new transactions: ⌈N/100⌉ history calls, N new rows',
      async (count) => {
        const rowsBefore = (await readMirror(fx.db, address)).transactions.length
        const transfersTruthBefore = (await readWalletTruth(fx.sim.url, address)).transfers.length
        const simHistoryBefore = await simulatorCalls(fx.sim.url, 'wallet.history')
        const simTransfersBefore = await simulatorCalls(fx.sim.url, 'wallet.transfers')
        const ledgerHistoryBefore = await ledgerCalls(fx.db, 'wallet.history', address)

        const added = await addActivity(fx.sim.url, address, count)
        expect(added).toHaveLength(count)
        const outcome = await fx.runtime.engine.syncWallet(address)

        expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
        expect(outcome.newTransactions).toBe(count)
        const mirror = await readMirror(fx.db, address)
        expect(mirror.transactions.length - rowsBefore).toBe(count)
        const stored = new Set(mirror.transactions.map((t) => t.signature))
        expect(added.filter((signature) => !stored.has(signature))).toEqual([])

        const historyCalls = Math.ceil(count / 100)
        expect((await simulatorCalls(fx.sim.url, 'wallet.history')) - simHistoryBefore).toBe(
          historyCalls,
        )
        expect((await ledgerCalls(fx.db, 'wallet.history', address)) - ledgerHistoryBefore).toBe(
          historyCalls,
        )
        // Transfers walk down from the newest until the first known one: the new ones plus that one.
        const newTransfers =
          (await readWalletTruth(fx.sim.url, address)).transfers.length - transfersTruthBefore
        expect((await simulatorCalls(fx.sim.url, 'wallet.transfers')) - simTransfersBefore).toBe(
          Math.ceil((newTransfers + 1) / 100),
        )

        await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
      },
    )
  },
)
