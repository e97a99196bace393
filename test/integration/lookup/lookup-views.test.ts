import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LookupAnswer, LookupPlan } from '@shared/ipc/lookup-schemas'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { simulatorCredits } from '../../helpers/sim-truth'
import { APP_KEY, startLookupFixture, type LookupFixture } from '../../helpers/lookup-fixture'
import { ENGINES } from '../../helpers/sync-fixture'

// Each view of the look-up desk against the simulator over HTTP: what the desk answers is
// what the service answers to the same call (asked directly with another key), the plan's
// credits are what the ledger records, and the ledger equals the simulator's counter.

describe.each(ENGINES)(
  'look-up views answer what the service answers, at the planned cost (on %s)',
  (engine) => {
    let f: LookupFixture
    const ledger = async (): Promise<number> =>
      (await f.call<CreditsOverview>('credits:overview')).totalCredits
    /** Plans and runs a look-up; checks plan = ledger delta = answer's credits. */
    const runPlanned = async (request: unknown, confirmed = false): Promise<LookupAnswer> => {
      const plan = await f.call<LookupPlan>('lookup:plan', request)
      const before = await ledger()
      const answer = await f.call<LookupAnswer>('lookup:run', { request, confirmed })
      expect(answer.fromCache).toBe(false)
      expect(answer.credits).toBe((await ledger()) - before)
      if (plan.credits !== null) expect(answer.credits).toBe(plan.credits)
      return answer
    }

    beforeAll(async () => {
      f = await startLookupFixture({ engine })
    }, 60_000)
    afterAll(async () => {
      await f?.stop()
    })

    it('wallet: identity, funder, first pages and holdings for 510 credits', async () => {
      const address = f.sim.chain.walletByProfile('casual').address
      const plan = await f.call<LookupPlan>('lookup:plan', { view: 'wallet', address })
      expect(plan.credits).toBe(510)
      expect(plan.summary).toBe('510 credits: 5 wallet calls (100 each) and 1 DAS call (10)')
      expect(plan.needsConfirmation).toBe(false)
      const answer = await runPlanned({ view: 'wallet', address })
      const r = answer.result
      if (r.view !== 'wallet') throw new Error('wrong view')
      expect(r.identity).toEqual(await f.truth.wallet.identity({ wallet: address }))
      expect(r.fundedBy).toEqual(await f.truth.wallet.fundedBy({ wallet: address }))
      expect(r.history).toEqual(await f.truth.wallet.history({ wallet: address, limit: 100 }))
      expect(r.transfers).toEqual(await f.truth.wallet.transfers({ wallet: address, limit: 100 }))
      expect(r.balances).toEqual(
        await f.truth.wallet.balances({ wallet: address, page: 1, limit: 100, showNfts: true }),
      )
      expect(r.watched).toBe(false)
    })

    it('assets: by id, by owner with images on the app’s own path, token accounts', async () => {
      const owner = f.sim.chain.walletByProfile('nft-collector').address
      const byOwner = await runPlanned({ view: 'assets-by-owner', owner })
      if (byOwner.result.view !== 'assets-by-owner') throw new Error('wrong view')
      const truthPage = await f.truth.das.getAssetsByOwner({
        ownerAddress: owner,
        page: 1,
        limit: 50,
        options: { showGrandTotal: true },
      })
      expect(byOwner.result.page).toEqual(truthPage)
      expect(byOwner.credits).toBe(10)
      const imageUris = truthPage.items.flatMap((a) =>
        a.content.files
          .filter((file) => file.mime?.startsWith('image/'))
          .map((file) => file.uri ?? ''),
      )
      expect(imageUris.length).toBeGreaterThan(0)
      for (const uri of imageUris) expect(byOwner.images[uri]).toMatch(/^\/images\/\w+/)

      const ids = truthPage.items.slice(0, 3).map((a) => a.id)
      const batch = await runPlanned({ view: 'asset', ids })
      if (batch.result.view !== 'asset') throw new Error('wrong view')
      expect(batch.result.assets).toEqual(await f.truth.das.getAssetBatch({ ids }))

      const accounts = await runPlanned({ view: 'token-accounts', owner })
      if (accounts.result.view !== 'token-accounts') throw new Error('wrong view')
      expect(accounts.result.page).toEqual(
        await f.truth.das.getTokenAccounts({ owner, page: 1, limit: 100 }),
      )
      expect(await f.failure('lookup:plan', { view: 'token-accounts' })).toMatch(
        /needs an owner or a mint/,
      )
    })

    it('compressed inspector: owner, accounts by hash, a transaction, the proof on confirmation', async () => {
      const owner = f.sim.chain.walletByProfile('compressed-holder').address
      const ownerAnswer = await runPlanned({ view: 'compressed-owner', owner })
      if (ownerAnswer.result.view !== 'compressed-owner') throw new Error('wrong view')
      const truthAccounts = await f.truth.compression.getCompressedAccountsByOwner({
        owner,
        limit: 1000,
      })
      // Photon's envelope names the slot it answered at, which moves on: compare the value.
      expect(ownerAnswer.result.accounts.value).toEqual(truthAccounts.value)
      expect(ownerAnswer.credits).toBe(30)
      const hashes = truthAccounts.value.items.slice(0, 2).map((a) => a.hash)
      expect(hashes.length).toBe(2)

      const byHash = await runPlanned({ view: 'compressed-account', hashes })
      if (byHash.result.view !== 'compressed-account') throw new Error('wrong view')
      expect(byHash.result.accounts.value).toEqual(
        (await f.truth.compression.getMultipleCompressedAccounts({ hashes })).value,
      )
      expect(
        await f.failure('lookup:run', {
          request: { view: 'compressed-account', hashes, addresses: hashes },
        }),
      ).toMatch(/hashes or addresses, not both/)

      const signature = (
        await f.truth.compression.getCompressionSignaturesForOwner({ owner, limit: 1 })
      ).value.items[0]?.signature as string
      const tx = await runPlanned({ view: 'compressed-tx', signature })
      if (tx.result.view !== 'compressed-tx') throw new Error('wrong view')
      expect(tx.result.transaction).toEqual(
        await f.truth.compression.getTransactionWithCompressionInfo({ signature }),
      )

      const proofPlan = await f.call<LookupPlan>('lookup:plan', {
        view: 'compressed-proof',
        hashes,
      })
      expect(proofPlan.credits).toBe(100)
      expect(proofPlan.needsConfirmation).toBe(true)
      const before = await ledger()
      expect(
        await f.failure('lookup:run', { request: { view: 'compressed-proof', hashes } }),
      ).toMatch(/100 credits.*confirmed/)
      expect(await ledger()).toBe(before)
      const proof = await runPlanned({ view: 'compressed-proof', hashes }, true)
      if (proof.result.view !== 'compressed-proof') throw new Error('wrong view')
      expect(proof.result.proof.value).toEqual(
        (await f.truth.compression.getValidityProof({ hashes })).value,
      )
    })

    it('priority fee: every level in micro-lamports per CU and exact SOL for the budget', async () => {
      const accounts = [f.sim.chain.walletByProfile('casual').address]
      const answer = await runPlanned({ view: 'priority-fee', accounts, computeUnits: 300_000 })
      if (answer.result.view !== 'priority-fee') throw new Error('wrong view')
      expect(answer.credits).toBe(1)
      const truth = await f.truth.priorityFee.getPriorityFeeEstimate([
        { accountKeys: accounts, options: { includeAllPriorityFeeLevels: true } },
      ])
      expect(answer.result.estimate).toEqual(truth)
      const medium = answer.result.levels.find((l) => l.level === 'medium')
      expect(medium?.microLamportsPerCu).toBe(truth.priorityFeeLevels?.medium)
      // µL/CU × CU / 1e6 = lamports; / 1e9 = SOL.
      const lamports = ((truth.priorityFeeLevels?.medium ?? 0) * 300_000) / 1e6
      expect(Number(medium?.sol)).toBeCloseTo(lamports / 1e9, 15)
      expect(answer.result.levels.map((l) => l.level)).toEqual([
        'min',
        'low',
        'medium',
        'high',
        'veryHigh',
        'unsafeMax',
      ])
    })

    it('token metadata: price unknown, deprecated with the DAS alternative, runs once confirmed', async () => {
      const owner = f.sim.chain.walletByProfile('casual').address
      const held = await f.truth.das.getTokenAccounts({ owner, page: 1, limit: 1 })
      const mints = held.token_accounts.map((t) => t.mint)
      expect(mints).toHaveLength(1)
      const plan = await f.call<LookupPlan>('lookup:plan', { view: 'token-metadata', mints })
      expect(plan.credits).toBeNull()
      expect(plan.calls[0]?.creditsEach).toBeNull()
      expect(plan.needsConfirmation).toBe(true)
      expect(plan.deprecation).toMatch(/getAssetBatch/)
      expect(await f.failure('lookup:run', { request: { view: 'token-metadata', mints } })).toMatch(
        /Credits unknown/,
      )
      const answer = await runPlanned({ view: 'token-metadata', mints }, true)
      if (answer.result.view !== 'token-metadata') throw new Error('wrong view')
      expect(answer.result.metadata).toEqual(
        await f.truth.tokenMetadata.getTokenMetadata({ mintAccounts: mints }),
      )
    })

    it('the ledger holds exactly what the simulator charged the app', async () => {
      expect(await ledger()).toBe(await simulatorCredits(f.sim.url, APP_KEY))
    })
  },
)
