import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAM_NAMES, type StreamRow } from '../../../src-main/db/mirror-writer'
import { setDepthLimit } from '../../../src-main/db/queries/sync-status'
import { estimateSyncCredits } from '../../../src-main/sync/sync-estimate'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth, simulatorCredits } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { ledgerCalls } from './mirror-truth-assertions'

// ARCHITECTURE, "Sync rules": credits are a budget; the engine refuses work past the user's
// budget and can estimate a sync's cost before running it. Issue 5: it stops and says why.

const DAILY_BUDGET = 1_000
const WALLET_CALL_CREDITS = 100

describe.each(ENGINES)(
  'sync engine: a daily budget of 1,000 credits stops a 5,000-transaction backfill at the limit (on %s)',
  (engine) => {
    let fx: SyncFixture
    let address: string
    let walletId: number
    const ledgerTotal = async () => (await readMirror(fx.db, address)).ledgerCredits

    beforeAll(async () => {
      fx = await startSyncFixture({
        engine,
        budget: { dailyCredits: DAILY_BUDGET, monthlyCredits: null },
      })
      address = await fx.watch('active-trader')
      walletId = (await fx.runtime.engine.writer.walletId(address)) as number
      await setDepthLimit(fx.db, walletId, { maxTransactions: 5_000, sinceSec: null })
    })
    afterAll(() => fx.stop())

    it('estimates the cost first: 5,000 credits for history, more than the budget in all', async () => {
      const rows: Record<string, StreamRow> = {}
      for (const s of STREAM_NAMES) rows[s] = await fx.runtime.engine.writer.stream(walletId, s)
      const first = await fx.runtime.loads.firstSyncEstimate(address, null, 0)
      const estimate = estimateSyncCredits(address, rows, null, undefined, first)

      const history = estimate.lines.find((l) => l.stream === 'history')
      expect(history).toMatchObject({ calls: 50, credits: 5_000 })
      expect(estimate.summary).toMatch(/^First sync ≈ [\d,]+ credits \(newest 5,000 transactions/)
      expect(estimate.isFirstSync).toBe(true)
      expect(estimate.maxCredits).toBeGreaterThan(DAILY_BUDGET)
      // The estimate is free: nothing was called.
      expect(await ledgerTotal()).toBe(0)
    })

    it('stops at the budget and says why', async () => {
      const outcome = await fx.runtime.engine.syncWallet(address)

      expect(outcome.state).toBe('budget')
      const stopped = outcome.streams.filter((s) => s.state === 'budget')
      expect(stopped.length).toBeGreaterThan(0)
      for (const s of stopped) {
        expect(s.error).toMatch(/daily credit budget is reached/)
        expect(s.error).toContain('1,000')
      }
      // The shells are told the same.
      const done = fx.events.findLast((e) => e.type === 'wallet-state' && e.state === 'done')
      expect(done).toMatchObject({ outcome: { state: 'budget' } })
      expect((await fx.runtime.engine.writer.stream(walletId, 'history')).lastError).toMatch(
        /budget/,
      )

      // Never past the limit; and it used the budget rather than stopping early.
      const spent = await ledgerTotal()
      expect(spent).toBeLessThanOrEqual(DAILY_BUDGET)
      expect(spent).toBeGreaterThan(DAILY_BUDGET - WALLET_CALL_CREDITS)
      expect(await simulatorCredits(fx.sim.url)).toBe(spent)

      // What was stored is whole pages of the newest transactions, each exactly once.
      const stored = (await readMirror(fx.db, address)).transactions.map((t) => t.signature)
      const historyPages = await ledgerCalls(fx.db, 'wallet.history', address)
      expect(stored).toHaveLength(historyPages * 100)
      const truth = await readWalletTruth(fx.sim.url, address)
      expect(stored.sort()).toEqual(
        truth.history
          .slice(-stored.length)
          .map((e) => e.signature)
          .sort(),
      )
    })

    it('refuses work past the budget on the next run: no 100-credit call fits, nothing is overspent', async () => {
      const spent = await ledgerTotal()
      const walletCalls = async () =>
        (
          await Promise.all(
            ['wallet.history', 'wallet.transfers', 'wallet.balances'].map((op) =>
              ledgerCalls(fx.db, op, address),
            ),
          )
        ).reduce((sum, n) => sum + n, 0)
      const walletCallsBefore = await walletCalls()

      const outcome = await fx.runtime.engine.syncWallet(address)

      expect(outcome.state).toBe('budget')
      expect(await walletCalls()).toBe(walletCallsBefore)
      // Only calls that still fit (10-credit compression pages) may run.
      expect((await ledgerTotal()) - spent).toBeLessThanOrEqual(DAILY_BUDGET - spent)
      expect(await ledgerTotal()).toBeLessThanOrEqual(DAILY_BUDGET)
      expect(await simulatorCredits(fx.sim.url)).toBe(await ledgerTotal())
    })

    it('with the budget raised, the backfill resumes where it stopped and reaches the depth limit at the credit floor', async () => {
      fx.budget.dailyCredits = null
      const outcome = await fx.runtime.engine.syncWallet(address)

      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
      expect((await readMirror(fx.db, address)).transactions).toHaveLength(5_000)
      // 50 pages across the stop — none paid for twice — plus the resumed run's one
      // "anything newer?" call (`after` the newest stored signature) before it goes on.
      expect(await ledgerCalls(fx.db, 'wallet.history', address)).toBe(50 + 1)
      const truth = await readWalletTruth(fx.sim.url, address)
      const stored = (await readMirror(fx.db, address)).transactions.map((t) => t.signature)
      expect(stored.sort()).toEqual(
        truth.history
          .slice(-5_000)
          .map((e) => e.signature)
          .sort(),
      )
      expect(await ledgerTotal()).toBe(await simulatorCredits(fx.sim.url))
    })
  },
)
