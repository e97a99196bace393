import { afterEach, describe, expect, it } from 'vitest'
import { CREDIT_PRICES } from '@shared/api/prices'
import { MAX_MULTIPLE_ACCOUNTS, TOKEN_PROGRAM_IDS } from '@shared/api/rpc'
import { changeSyncCredits } from '@shared/domain/watch-cost'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import { walletTokenAccounts } from '../../../src-main/simulator/chain/accounts'
import type { WatchDayProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import type { CheckedWallet } from '../../../src-main/sync/watch-scheduler'
import { sortedHoldings } from '../../../src-main/simulator/chain/views'
import { ENGINES, type SyncFixture, type TestEngine } from '../../helpers/sync-fixture'
import { startWatchFixture } from '../../helpers/watch-fixture'
import { expectMirrorEqualsTruth } from './mirror-truth-assertions'

// Watching by balance looks (issue 11), on the watch-day population with its live activity
// off and the simulator's clock moved by hand: what a round costs, and that what balances
// cannot show is still found — a new token account at the next listing, a transaction that
// moves no balance at the next full check.

const CADENCE: WatchCadence = {
  isWatching: true,
  checkEverySec: 60,
  tokenAccountsEverySec: 600,
  compressedEverySec: 600,
  backstopEverySec: 3_600,
}

const fixtures: SyncFixture[] = []
afterEach(async () => {
  while (fixtures.length > 0) await fixtures.pop()?.stop()
})

async function start(engine: TestEngine, profile: WatchDayProfileId) {
  const watching = await startWatchFixture(engine, profile, CADENCE, fixtures)
  const wallet = watching.fx.sim.chain.walletByProfile(profile)
  /**
   * A balance look of the wallet and its token accounts as they are on the chain now: its
   * NFT token accounts only in a round that lists the token accounts.
   */
  const lookCredits = (isListing = false) =>
    Math.ceil(
      (1 +
        walletTokenAccounts(watching.fx.sim.chain, wallet).filter(
          (a) => isListing || a.decimals > 0,
        ).length) /
        MAX_MULTIPLE_ACCOUNTS,
    ) * CREDIT_PRICES.rpcStandard
  return { ...watching, lookCredits }
}

async function inject(simUrl: string, body: Record<string, string>) {
  const response = await fetch(`${simUrl}/__sim/inject`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as { signature: string; timestamp: number }
}

/** Every call in the ledger so far, oldest first: the operation and the stream it was for. */
async function ledgerOperations(fx: SyncFixture) {
  return fx.db.selectFrom('credit_ledger').select(['operation', 'stream']).orderBy('id').execute()
}

describe.each(ENGINES)('watch scheduler: what watching costs (on %s)', (engine) => {
  it.each<WatchDayProfileId>(['watch-idle', 'watch-nft', 'watch-nft-compressed'])(
    '%s: the first round and every later one cost less than the full check they replace',
    async (profile) => {
      const { fx, address, scheduler, credits, nextRound, lookCredits } = await start(
        engine,
        profile,
      )
      // The wallet is already mirrored when watching starts.
      expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
      const before = credits()
      expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
      const fullCheck = credits() - before
      expect(fullCheck).toBeGreaterThanOrEqual(3 * CREDIT_PRICES.wallet)

      // First round: token lists, the look, and the full check's stand-in (the history's
      // newest page, or the newest signatures where fewer than ten accounts are watched).
      const first = credits()
      const round0 = await scheduler.runRound()
      const firstRound = credits() - first
      expect(firstRound).toBeLessThan(fullCheck)
      expect(round0.flatMap((c) => c.reasons)).not.toContain('full')

      // Then each round is one look, and a listing every tokenAccountsEverySec.
      const perRound: number[] = []
      for (let i = 0; i < CADENCE.tokenAccountsEverySec / CADENCE.checkEverySec; i++) {
        const { checked, spent } = await nextRound()
        expect(checked).toEqual([])
        perRound.push(spent)
      }
      const listing = TOKEN_PROGRAM_IDS.length * CREDIT_PRICES.rpcStandard
      const compressed = profile === 'watch-nft-compressed' ? 2 * CREDIT_PRICES.compression : 0
      expect(perRound.slice(0, -1)).toEqual(perRound.slice(0, -1).map(() => lookCredits()))
      expect(perRound.at(-1)).toBe(lookCredits(true) + listing + compressed)
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    },
  )

  it('a wallet that moved is synced alone, from its new transaction: no history, transfers or balances page', async () => {
    const { fx, address, scheduler, nextRound, isStored } = await start(engine, 'watch-idle')
    const other = await fx.watch('watch-active')
    await scheduler.runRound()
    await nextRound()
    const calledBefore = await ledgerOperations(fx)
    const moved = fx.sim.addActivity(fx.sim.chain.walletByAddress(address)!, 1)
    const { checked, spent } = await nextRound()
    expect(checked.map((c) => [c.address, c.reasons])).toEqual([[address, ['balance']]])
    expect(checked[0]?.syncCredits).toBe(changeSyncCredits(false))
    // The sync's calls: the wallet's newest signatures and the transaction, nothing else.
    const called = (await ledgerOperations(fx)).slice(calledBefore.length)
    expect(called.filter((c) => c.stream !== null)).toEqual([
      { operation: 'rpc.getSignaturesForAddress', stream: 'history' },
      { operation: 'rpc.getTransaction', stream: 'history' },
    ])
    const holdings = await fx.mirror.holdings.latest((await fx.mirror.writer.walletId(address))!)
    // What the balances endpoint answers now (its own view of the chain, asked without a call).
    const answer = sortedHoldings(fx.sim.chain, fx.sim.chain.walletByAddress(address)!, {
      showNative: true,
      showZeroBalance: false,
    })
    expect(holdings?.balances, 'the holdings written from the look').toEqual(answer)
    const accounts = [address, other].reduce(
      (sum, a) =>
        sum + 1 + walletTokenAccounts(fx.sim.chain, fx.sim.chain.walletByAddress(a)!).length,
      0,
    )
    const looks = Math.ceil(accounts / MAX_MULTIPLE_ACCOUNTS) * CREDIT_PRICES.rpcStandard
    expect(spent).toBeLessThanOrEqual(looks + changeSyncCredits(false))
    for (const s of moved) expect(await isStored(s), s).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })
})

describe.each(ENGINES)('watch scheduler: what balance looks cannot see (on %s)', (engine) => {
  it('a new token account someone else paid for is noticed at the next listing', async () => {
    const { fx, address, scheduler, nextRound, isStored } = await start(engine, 'watch-idle')
    await scheduler.runRound()
    const listedAt = fx.sim.chain.clock.nowSec()
    await nextRound()
    await nextRound()
    const airdrop = await inject(fx.sim.url, { wallet: address, kind: 'token-airdrop' })

    let found: CheckedWallet | undefined
    while (!found) {
      const { checked } = await nextRound()
      found = checked.find((c) => c.address === address)
      expect(fx.sim.chain.clock.nowSec() - airdrop.timestamp).toBeLessThanOrEqual(
        CADENCE.tokenAccountsEverySec,
      )
    }
    // Found by the listing, not by a balance look (the wallet's lamports did not move).
    expect(found.reasons).toEqual(['new-token-account'])
    expect(found.detectedSec).toBe(listedAt + CADENCE.tokenAccountsEverySec)
    expect(await isStored(airdrop.signature)).toBe(true)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })

  it.each<[WatchDayProfileId, string]>([
    ['watch-idle', 'memo'],
    ['watch-idle', 'failed'],
    ['watch-nft', 'memo'],
  ])(
    '%s: a %s transaction that moves no balance is caught by the full check',
    async (profile, variant) => {
      const { fx, address, scheduler, nextRound, isStored } = await start(engine, profile)
      await scheduler.runRound()
      const fullCheckAt = fx.sim.chain.clock.nowSec() + CADENCE.backstopEverySec
      await nextRound()
      const silent = await inject(fx.sim.url, { wallet: address, kind: 'silent', variant })

      let found: CheckedWallet | undefined
      while (!found) {
        const { checked } = await nextRound()
        found = checked.find((c) => c.address === address)
        expect(fx.sim.chain.clock.nowSec()).toBeLessThanOrEqual(fullCheckAt)
      }
      expect(found.detectedSec).toBe(fullCheckAt)
      expect(found.reasons).toEqual(['backstop-signature'])
      expect(found.detectedSec - silent.timestamp).toBeLessThanOrEqual(CADENCE.backstopEverySec)
      expect(await isStored(silent.signature)).toBe(true)
      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
    },
  )
})
