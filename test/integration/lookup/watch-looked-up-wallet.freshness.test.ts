import type { Kysely } from 'kysely'
import type { Database } from '../../../src-main/db/schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LookupAnswer } from '@shared/ipc/lookup-schemas'
import type { CreditsOverview, SyncEstimate, WalletSyncOutcome } from '@shared/ipc/sync-schemas'
import { callsOfView } from '../../../src-main/lookup/lookup-plan'
import { LOOKED_UP_TOP_FRESH_SEC } from '../../../src-main/sync/streams/looked-up-top'
import { readMirror } from '../../helpers/mirror-contents'
import { simulatorCredits } from '../../helpers/sim-truth'
import { APP_KEY, startLookupFixture, type LookupFixture } from '../../helpers/lookup-fixture'
import { ENGINES } from '../../helpers/sync-fixture'
import { expectMirrorEqualsTruth } from '../sync/mirror-truth-assertions'
import { WATCHING_OFF } from '../../helpers/watching-off'

// "Watch this wallet" right after its look-up: the first sync buys none of the pages the
// look-up bought — not the streams' tops (history's newer-than check, transfers' walk from
// the top) nor the holdings snapshot — so look-up, watch and first sync cost one fresh
// sync. A look-up older than the freshness window is trusted for nothing but its pages:
// the first sync reads the tops again, as every sync of a stored wallet does. Activity
// after a fresh look-up is not lost: the next sync reads the tops again and finds it.

/** Page operations a wallet's look-up and sync make: the look-up's, and naming mints. */
const PAGE_OPERATIONS: readonly string[] = [
  ...callsOfView({ view: 'wallet', address: '' }).map((c) => c.operation),
  'das.getAssetBatch',
]

type Calls = Record<string, number>

describe.each(ENGINES)(
  'watching a looked-up wallet: what the first sync reads again (on %s)',
  (engine) => {
    let f: LookupFixture
    /** The same simulator seed in another data folder: each wallet synced fresh, no look-up. */
    let fresh: LookupFixture

    const overview = (fx: LookupFixture): Promise<CreditsOverview> =>
      fx.call<CreditsOverview>('credits:overview')
    /** Credits of every call but watching's balance looks, whenever their round runs. */
    const pageCredits = async (fx: LookupFixture): Promise<number> =>
      (await overview(fx)).byOperation
        .filter((o) => !o.operation.startsWith('rpc.'))
        .reduce((sum, o) => sum + o.credits, 0)
    const callsByOperation = async (fx: LookupFixture): Promise<Calls> => {
      const byOperation = (await overview(fx)).byOperation
      return Object.fromEntries(
        PAGE_OPERATIONS.map((op) => [op, byOperation.find((o) => o.operation === op)?.calls ?? 0]),
      )
    }
    const callsSince = async (fx: LookupFixture, before: Calls): Promise<Calls> => {
      const after = await callsByOperation(fx)
      return Object.fromEntries(
        PAGE_OPERATIONS.map((op) => [op, (after[op] ?? 0) - (before[op] ?? 0)]),
      )
    }
    /** Credits spent on these operations so far. */
    const creditsOf = async (fx: LookupFixture, operations: readonly string[]): Promise<number> =>
      (await overview(fx)).byOperation
        .filter((o) => operations.includes(o.operation))
        .reduce((sum, o) => sum + o.credits, 0)
    const sync = async (fx: LookupFixture, address: string): Promise<void> => {
      const outcome = await fx.call<WalletSyncOutcome>('sync:run', { address })
      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    }
    /** A fresh full sync of the wallet in the other folder: its page calls and credits. */
    const freshSync = async (address: string): Promise<{ calls: Calls; credits: number }> => {
      const calls = await callsByOperation(fresh)
      const credits = await pageCredits(fresh)
      await fresh.call('watchlist:add', { address })
      await sync(fresh, address)
      return {
        calls: await callsSince(fresh, calls),
        credits: (await pageCredits(fresh)) - credits,
      }
    }
    /** The estimate's credits per line (stream or nft-holdings) for the wallet's next sync. */
    const estimatedCredits = async (address: string): Promise<Record<string, number | null>> =>
      Object.fromEntries(
        (await f.call<SyncEstimate>('sync:estimate', { address })).lines.map((l) => [
          l.stream,
          l.credits,
        ]),
      )
    const lookUp = async (address: string): Promise<LookupAnswer> => {
      const answer = await f.call<LookupAnswer>('lookup:run', {
        request: { view: 'wallet', address },
      })
      expect(answer.fromCache).toBe(false)
      return answer
    }
    /** The mint cache's names, as the History view and exports show them. */
    const mintNames = (db: Kysely<Database>): Promise<unknown[]> =>
      db
        .selectFrom('mints')
        .select(['mint', 'symbol', 'name', 'decimals'])
        .orderBy('mint')
        .execute()
    const snapshotCount = async (db: Kysely<Database>, address: string): Promise<number> =>
      Number(
        (
          await db
            .selectFrom('balance_snapshots as s')
            .innerJoin('wallets as w', 'w.id', 's.wallet_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('w.address', '=', address)
            .executeTakeFirstOrThrow()
        ).n,
      )

    beforeAll(async () => {
      f = await startLookupFixture({ engine })
      fresh = await startLookupFixture({ engine })
      // Watching off: the clock moves on in these stories, and a watching round would sync
      // wallets of its own accord; only the syncs the test runs are counted.
      for (const fx of [f, fresh]) {
        await fx.call('settings:update', { watch: WATCHING_OFF })
      }
    }, 60_000)
    afterAll(async () => {
      await f?.stop()
      await fresh?.stop()
    })

    // casual: its whole history and transfers fit the look-up's first pages, so the first
    // sync buys no page of them at all; failed-transactions: the backfills go on from the
    // look-up's cursors.
    it.each([
      { profile: 'casual', pricedAtNothing: ['history', 'transfers', 'balances', 'nft-holdings'] },
      { profile: 'failed-transactions', pricedAtNothing: ['balances', 'nft-holdings'] },
    ] as const)(
      'fresh look-up of a $profile wallet: look-up, watch and first sync cost one fresh sync',
      async ({ profile, pricedAtNothing }) => {
        const address = f.sim.chain.walletByProfile(profile).address
        const reference = await freshSync(address)

        const start = await pageCredits(f)
        const before = await callsByOperation(f)
        await lookUp(address)
        // Still inside the window when the first sync runs.
        f.now.sec += LOOKED_UP_TOP_FRESH_SEC - 60
        await f.call('lookup:watch', { address })
        // The estimate does not price again what the look-up fetched.
        const estimate = await estimatedCredits(address)
        for (const line of pricedAtNothing) expect(estimate[line], line).toBe(0)
        await sync(f, address)

        expect((await pageCredits(f)) - start).toBe(reference.credits)
        expect(await callsSince(f, before)).toEqual(reference.calls)
        await f.readStored(async (db) => {
          // The look-up's holdings snapshot stands as the first sync's: no second one.
          expect(await snapshotCount(db, address)).toBe(1)
          await expectMirrorEqualsTruth(db, f.sim.url, address)
          expect((await readMirror(db, address)).transactions).toEqual(
            await fresh.readStored(
              async (other) => (await readMirror(other, address)).transactions,
            ),
          )
          // The mints of the handed-over pages are named as a fresh sync names them.
          expect(await mintNames(db)).toEqual(await fresh.readStored(mintNames))
        })
        expect((await overview(f)).totalCredits).toBe(await simulatorCredits(f.sim.url, APP_KEY))
      },
    )

    it('a stale look-up: the first sync reads every top and takes the snapshot again, as before', async () => {
      const address = f.sim.chain.walletByProfile('compressed-holder').address
      const reference = await freshSync(address)

      const start = await pageCredits(f)
      const names = ['wallet.identity', 'wallet.fundedBy']
      const namesBefore = await creditsOf(f, names)
      const looked = await lookUp(address)
      const identityAndFunder = (await creditsOf(f, names)) - namesBefore
      f.now.sec += LOOKED_UP_TOP_FRESH_SEC
      await f.call('lookup:watch', { address })
      const estimate = await estimatedCredits(address)
      expect(estimate.balances).toBe(100)
      expect(estimate['nft-holdings']).toBe(10)
      const beforeSync = await callsByOperation(f)
      await sync(f, address)

      // Only identity and funder (not asked again) are saved: every top is read again, so the
      // sync makes as many history, transfers, balances and holdings calls as a fresh sync.
      const syncCalls = await callsSince(f, beforeSync)
      for (const op of [
        'wallet.history',
        'wallet.transfers',
        'wallet.balances',
        'das.getAssetsByOwner',
      ]) {
        expect(syncCalls[op], op).toBe(reference.calls[op])
      }
      expect(syncCalls['wallet.identity']).toBe(0)
      expect(syncCalls['wallet.fundedBy']).toBe(0)
      expect((await pageCredits(f)) - start).toBe(
        reference.credits + looked.credits - identityAndFunder,
      )
      await f.readStored(async (db) => {
        expect(await snapshotCount(db, address)).toBe(2)
        await expectMirrorEqualsTruth(db, f.sim.url, address)
      })
    })

    it('activity after a fresh look-up is found by the next sync, not lost', async () => {
      const wallet = f.sim.chain.walletByProfile('idle')
      const address = wallet.address
      await lookUp(address)
      const added = f.sim.addActivity(wallet, 3)
      f.now.sec += 60
      await f.call('lookup:watch', { address })
      const beforeFirst = await callsByOperation(f)
      await sync(f, address)

      // The first sync trusted the look-up's tops: it read none of them, so the new
      // transactions are not in the mirror yet.
      expect(await callsSince(f, beforeFirst)).toMatchObject({
        'wallet.history': 0,
        'wallet.transfers': 0,
        'wallet.balances': 0,
        'das.getAssetsByOwner': 0,
      })
      const storedAfterFirst = await f.readStored(async (db) =>
        (await readMirror(db, address)).transactions.map((t) => t.signature),
      )
      expect(storedAfterFirst.filter((s) => added.includes(s))).toEqual([])

      f.now.sec += LOOKED_UP_TOP_FRESH_SEC
      const beforeSecond = await callsByOperation(f)
      await sync(f, address)
      const second = await callsSince(f, beforeSecond)
      // The tops are read again: one `after` page holds the three new transactions, and
      // the holdings snapshot is taken anew.
      expect(second).toMatchObject({ 'wallet.history': 1, 'wallet.balances': 1 })
      expect(second['wallet.transfers']).toBeGreaterThanOrEqual(1)
      await f.readStored(async (db) => {
        const stored = (await readMirror(db, address)).transactions.map((t) => t.signature)
        expect(added.filter((s) => !stored.includes(s))).toEqual([])
        await expectMirrorEqualsTruth(db, f.sim.url, address)
      })
    })
  },
)
