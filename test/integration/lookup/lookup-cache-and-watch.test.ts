import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LookupAnswer, LookupCacheEntry, Recognised } from '@shared/ipc/lookup-schemas'
import type { CreditsOverview, WalletSyncOutcome } from '@shared/ipc/sync-schemas'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { readMirror, transferKey } from '../../helpers/mirror-contents'
import { readWalletTruth, simulatorCredits } from '../../helpers/sim-truth'
import { APP_KEY, startLookupFixture, type LookupFixture } from '../../helpers/lookup-fixture'
import { ENGINES } from '../../helpers/sync-fixture'

// The look-up cache and "watch this wallet": a look-up leaves the watchlist alone, is
// reopened for free (and offline), is asked again only on refresh; watching a looked-up
// wallet writes its pages into the mirror so the first sync does not buy them again.

describe.each(ENGINES)(
  'look-up cache, recognition and watching a looked-up wallet (on %s)',
  (engine) => {
    let f: LookupFixture
    let fresh: LookupFixture
    const credits = async (fx: LookupFixture): Promise<number> =>
      (await fx.call<CreditsOverview>('credits:overview')).totalCredits
    /**
     * Credits of everything but watching's balance looks (1-credit RPC reads the scheduler
     * makes when a wallet joins the watchlist, whenever its round happens to run).
     */
    const pageCredits = async (fx: LookupFixture): Promise<number> =>
      (await fx.call<CreditsOverview>('credits:overview')).byOperation
        .filter((o) => !o.operation.startsWith('rpc.'))
        .reduce((sum, o) => sum + o.credits, 0)

    beforeAll(async () => {
      f = await startLookupFixture({ engine })
      fresh = await startLookupFixture({ engine })
    }, 60_000)
    afterAll(async () => {
      await f?.stop()
      await fresh?.stop()
    })

    it('recognises signatures, bad input and unknown 32-byte ids without a call', async () => {
      const before = await simulatorCredits(f.sim.url, APP_KEY)
      const owner = f.sim.chain.walletByProfile('compressed-holder').address
      const signature = (
        await f.truth.compression.getCompressionSignaturesForOwner({ owner, limit: 1 })
      ).value.items[0]?.signature as string
      const sig = await f.call<Recognised>('lookup:recognise', { text: `  ${signature}\n` })
      expect(sig).toMatchObject({ text: signature, kind: 'signature' })
      expect(sig.request).toEqual({ view: 'compressed-tx', signature })

      const bad = await f.call<Recognised>('lookup:recognise', { text: `${owner.slice(0, 5)}0abc` })
      expect(bad.kind).toBe('unknown')
      expect(bad.reason).toMatch(/“0” at position 6 is not a base58 character/)
      const short = await f.call<Recognised>('lookup:recognise', { text: owner.slice(0, 20) })
      expect(short.kind).toBe('unknown')
      expect(short.reason).toMatch(/base58 of \d+ bytes/)

      const unknownId = await f.call<Recognised>('lookup:recognise', { text: owner })
      expect(unknownId.candidates).toEqual(['wallet', 'asset', 'compressed-hash'])
      expect(unknownId.reason).toMatch(/could be/)
      expect(await simulatorCredits(f.sim.url, APP_KEY)).toBe(before)
    })

    it('a look-up leaves the watchlist alone, reopens from the cache and asks again on refresh', async () => {
      const address = f.sim.chain.walletByProfile('casual').address
      const request = { view: 'wallet', address }
      const first = await f.call<LookupAnswer>('lookup:run', { request })
      expect(first).toMatchObject({ fromCache: false, credits: 510, fetchedAtSec: f.now.sec })
      expect(await f.call<WatchedWallet[]>('watchlist:list')).toEqual([])

      f.now.sec += 60
      const spent = await credits(f)
      const again = await f.call<LookupAnswer>('lookup:run', { request })
      expect(again).toMatchObject({
        fromCache: true,
        credits: 510,
        fetchedAtSec: first.fetchedAtSec,
      })
      expect(again.result).toEqual(first.result)
      expect(await credits(f)).toBe(spent)

      const refreshed = await f.call<LookupAnswer>('lookup:run', { request, refresh: true })
      expect(refreshed).toMatchObject({ fromCache: false, fetchedAtSec: f.now.sec, credits: 510 })
      expect(await credits(f)).toBe(spent + 510)
      const recent = await f.call<LookupCacheEntry[]>('lookup:recent')
      expect(recent[0]).toMatchObject({ request, fetchedAtSec: f.now.sec, credits: 510 })
      expect(recent[0]?.title).toMatch(/^Wallet /)
      // Recognised from the cache once looked up.
      const known = await f.call<Recognised>('lookup:recognise', { text: address })
      expect(known.kind).toBe('wallet')
      expect(await f.call<WatchedWallet[]>('watchlist:list')).toEqual([])
    })

    it('watching a looked-up wallet reuses its pages: look-up, watch and first sync cost one fresh sync', async () => {
      const address = f.sim.chain.walletByProfile('nft-collector').address
      // A fresh full sync of the same wallet, in another folder: what watching would cost alone.
      await fresh.call('watchlist:add', { address })
      const freshOutcome = await fresh.call<WalletSyncOutcome>('sync:run', { address })
      expect(freshOutcome.state).toBe('ok')
      const freshCredits = await pageCredits(fresh)

      const start = await pageCredits(f)
      const looked = await f.call<LookupAnswer>('lookup:run', {
        request: { view: 'wallet', address },
      })
      expect(looked.credits).toBe(510)
      const watched = await f.call<WatchedWallet>('lookup:watch', { address, label: 'Collector' })
      expect(watched).toMatchObject({ address, label: 'Collector' })
      expect(await pageCredits(f)).toBe(start + 510)
      // The pages are in the mirror before any sync, with the look-up's cursors.
      const beforeSync = await f.readStored((db) => readMirror(db, address))
      if (looked.result.view !== 'wallet') throw new Error('wrong view')
      expect(beforeSync.transactions.length).toBe(looked.result.history.data.length)
      expect(beforeSync.transfers.length).toBe(looked.result.transfers.data.length)

      const outcome = await f.call<WalletSyncOutcome>('sync:run', { address })
      expect(outcome.state).toBe('ok')
      // Nothing the look-up bought is bought again: identity and funder, the first history
      // and transfers pages, and the holdings snapshot (balances and DAS pages). The look-up
      // is moments old, so the streams' tops it read are not read again either.
      expect((await pageCredits(f)) - start - looked.credits).toBe(freshCredits - looked.credits)

      // The mirror equals the simulator's truth, as after a fresh sync.
      const truth = await readWalletTruth(f.sim.url, address)
      const stored = await f.readStored((db) => readMirror(db, address))
      expect(stored.transactions.map((t) => t.signature).sort()).toEqual(
        truth.history.map((h) => h.signature).sort(),
      )
      expect(stored.transfers.map(transferKey).sort()).toEqual(
        truth.transfers.map(transferKey).sort(),
      )
      expect(stored.nftMints.sort()).toEqual([...truth.nftMints].sort())
      const names = await fresh.readStored((db) => readMirror(db, address))
      expect(stored.transactions).toEqual(names.transactions)
      expect(await credits(f)).toBe(await simulatorCredits(f.sim.url, APP_KEY))
    })

    it('recognises what the mirror knows: a watched wallet, a held NFT, a compressed hash, a stored signature', async () => {
      const holder = fresh.sim.chain.walletByProfile('compressed-holder').address
      await fresh.call('watchlist:add', { address: holder })
      expect((await fresh.call<WalletSyncOutcome>('sync:run', { address: holder })).state).toBe(
        'ok',
      )
      const before = await credits(fresh)
      const recognise = (text: string): Promise<Recognised> =>
        fresh.call<Recognised>('lookup:recognise', { text })

      expect(await recognise(holder)).toMatchObject({ kind: 'wallet', reason: 'a watched wallet' })
      const stored = await fresh.readStored(async (db) => ({
        nft: (
          await db
            .selectFrom('balance_snapshot_nfts')
            .select('mint')
            .limit(1)
            .executeTakeFirstOrThrow()
        ).mint,
        hash: (
          await db
            .selectFrom('compressed_snapshot_accounts')
            .select('hash')
            .limit(1)
            .executeTakeFirstOrThrow()
        ).hash,
        signature: (
          await db.selectFrom('transactions').select('signature').limit(1).executeTakeFirstOrThrow()
        ).signature,
      }))
      expect(await recognise(stored.nft)).toMatchObject({
        kind: 'asset',
        request: { view: 'asset', ids: [stored.nft] },
      })
      expect(await recognise(stored.hash)).toMatchObject({
        kind: 'compressed-hash',
        request: { view: 'compressed-account', hashes: [stored.hash] },
      })
      expect((await recognise(stored.signature)).reason).toMatch(/History/)
      expect(await credits(fresh)).toBe(before)
    })

    it('a look-up of a watched wallet’s token accounts watches each with the amount it lists', async () => {
      const wallet = f.sim.chain.walletByProfile('active-trader')
      await f.call('watchlist:add', { address: wallet.address })
      const watched = () =>
        f.readStored((db) =>
          db
            .selectFrom('watched_accounts as a')
            .innerJoin('wallets as w', 'w.id', 'a.wallet_id')
            .select(['a.address', 'a.mint', 'a.observed'])
            .where('w.address', '=', wallet.address)
            .where('a.kind', '=', 'token')
            .execute(),
        )
      expect(await watched()).toEqual([])
      const answer = await f.call<LookupAnswer>('lookup:run', {
        request: { view: 'token-accounts', owner: wallet.address, page: 1 },
      })
      if (answer.result.view !== 'token-accounts') throw new Error('wrong view')
      const listed = answer.result.page.token_accounts
      expect(listed.length).toBeGreaterThan(0)
      expect((await watched()).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
        listed
          .map((a) => ({ address: a.address, mint: a.mint, observed: String(a.amount) }))
          .sort((a, b) => a.address.localeCompare(b.address)),
      )
    })

    it('a cached answer opens offline, with when it was fetched', async () => {
      const address = f.sim.chain.walletByProfile('casual').address
      const request = { view: 'wallet', address }
      const cached = await f.call<LookupAnswer>('lookup:cached', request)
      await f.sim.close()
      const offline = await f.call<LookupAnswer>('lookup:cached', request)
      expect(offline).toEqual(cached)
      expect(offline.fromCache).toBe(true)
      expect(offline.fetchedAtSec).toBe(cached.fetchedAtSec)
      const reopened = await f.call<LookupAnswer>('lookup:run', { request })
      expect(reopened.fromCache).toBe(true)
      expect(reopened.result).toEqual(cached.result)
      expect(
        await f.call('lookup:cached', {
          view: 'wallet',
          address: f.sim.chain.walletByProfile('idle').address,
        }),
      ).toBeNull()
    })
  },
)
