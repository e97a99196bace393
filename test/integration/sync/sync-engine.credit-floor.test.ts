import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setDepthLimit } from '../../../src-main/db/queries/sync-status'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { expectMirrorEqualsTruth, ledgerCalls } from './mirror-truth-assertions'

// The credit floor (issue 5, "Done means"): a history backfill of N transactions costs
// exactly ⌈N/100⌉ calls (100 per page is the interface's maximum, and the last page says
// hasMore=false itself, so no empty page is paid for); an unchanged wallet costs at most
// one call per stream.

const PER_STREAM_OPERATION = {
  history: 'wallet.history',
  transfers: 'wallet.transfers',
  balances: 'wallet.balances',
  'compressed-owner': 'compression.getCompressionSignaturesForOwner',
  'compressed-token-owner': 'compression.getCompressionSignaturesForTokenOwner',
} as const

describe.each(ENGINES)(
  'sync engine: a history backfill of N transactions costs exactly ⌈N/100⌉ calls (on %s)',
  (engine) => {
    let fx: SyncFixture
    beforeAll(async () => {
      fx = await startSyncFixture({ engine })
    })
    afterAll(() => fx.stop())

    // casual: 64 (< one page); compressed-holder: 300 (an exact multiple); nft-collector: 420.
    it.each([
      ['casual', 64, 1],
      ['compressed-holder', 300, 3],
      ['nft-collector', 420, 5],
    ])(
      'history backfill of %s (%i transactions) costs %i calls',
      async (profile, txCount, calls) => {
        const address = await fx.watch(profile)
        expect((await readWalletTruth(fx.sim.url, address)).txCount).toBe(txCount)

        const outcome = await fx.runtime.engine.syncWallet(address, { streams: ['history'] })

        expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
        expect(outcome.newTransactions).toBe(txCount)
        expect(await ledgerCalls(fx.db, 'wallet.history', address)).toBe(calls)
        expect((await readMirror(fx.db, address)).transactions).toHaveLength(txCount)
      },
    )

    it('history backfill of the active trader limited to 1,000 of its 6,000 transactions costs 10 calls and keeps the newest 1,000', async () => {
      const address = await fx.watch('active-trader')
      await setDepthLimit(fx.db, (await fx.runtime.engine.writer.walletId(address)) as number, {
        maxTransactions: 1_000,
        sinceSec: null,
      })

      const outcome = await fx.runtime.engine.syncWallet(address, { streams: ['history'] })

      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
      expect(await ledgerCalls(fx.db, 'wallet.history', address)).toBe(10)
      const truth = await readWalletTruth(fx.sim.url, address)
      expect(truth.txCount).toBe(6_000)
      const newest = truth.history.slice(-1_000).map((e) => e.signature)
      const stored = (await readMirror(fx.db, address)).transactions.map((t) => t.signature)
      expect(stored.sort()).toEqual(newest.sort())
      const row = await fx.runtime.engine.writer.stream(
        (await fx.runtime.engine.writer.walletId(address)) as number,
        'history',
      )
      expect(row.isBackfillComplete).toBe(true)
    })
  },
)

describe.each(ENGINES)(
  'sync engine: a re-sync of an unchanged wallet costs at most one call per stream (on %s)',
  (engine) => {
    let fx: SyncFixture
    beforeAll(async () => {
      fx = await startSyncFixture({ engine })
    })
    afterAll(() => fx.stop())

    // compressed-holder has compression signatures (the walk-down path); casual has none
    // (the stream looks again from the top, one call).
    it.each(['compressed-holder', 'casual'])('%s', async (profile) => {
      const address = await fx.watch(profile)
      const full = await fx.runtime.engine.syncWallet(address)
      expect(full.state, JSON.stringify(full)).toBe('ok')
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
      const callsPerStream = async (): Promise<Record<string, number>> =>
        Object.fromEntries(
          await Promise.all(
            Object.entries(PER_STREAM_OPERATION).map(
              async ([stream, op]) => [stream, await ledgerCalls(fx.db, op, address)] as const,
            ),
          ),
        )
      const before = await callsPerStream()

      const again = await fx.runtime.engine.syncWallet(address)

      expect(again.state).toBe('ok')
      expect(again.streams.map((s) => s.newItems)).toEqual([0, 0, expect.any(Number), 0, 0])
      const after = await callsPerStream()
      const spent = Object.fromEntries(
        Object.keys(PER_STREAM_OPERATION).map((stream) => [
          stream,
          (after[stream] ?? 0) - (before[stream] ?? 0),
        ]),
      )
      expect(spent).toEqual({
        history: 1,
        transfers: 1,
        balances: 1,
        'compressed-owner': 1,
        'compressed-token-owner': 1,
      })
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    })
  },
)
