import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { OPERATIONS } from '@shared/api/operations'
import { WEBHOOK_TRANSACTION_TYPES } from '@shared/api/enums'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { RealVariance, UNLISTED_TYPE } from '../../../src-main/simulator/real-variance'
import type { WalletProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import { rawGet, rawRpc, startTestSimulator } from './sim-test-helpers'

// `variance: 'real'`: the simulator sends, on a seeded share of its answers, the shapes the
// real service sends beyond the interface text. Read by the app's own schemas, every such
// answer means what the plain answer means: the edge reads the variety back into one form.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseJson = any

const PROFILES: WalletProfileId[] = [
  'casual',
  'active-trader',
  'nft-collector',
  'failed-transactions',
]
/** The wallets whose every page is read twice: the small ones. */
const PAGED: WalletProfileId[] = ['casual', 'nft-collector', 'failed-transactions', 'idle']

/** Every page of a cursor-paged wallet listing, as sent. */
async function pagesOf(
  sim: RunningSimulator,
  address: string,
  listing: string,
): Promise<LooseJson[]> {
  const pages: LooseJson[] = []
  let cursor: string | null = null
  const after = listing === 'history' ? 'before' : 'cursor'
  do {
    const query: string = cursor === null ? '' : `&${after}=${encodeURIComponent(cursor)}`
    const { status, body } = await rawGet(
      sim.url,
      `/v1/wallet/${address}/${listing}?limit=100${query}`,
    )
    expect(status).toBe(200)
    pages.push(body)
    cursor = body.pagination.hasMore ? (body.pagination.nextCursor as string) : null
  } while (cursor !== null)
  return pages
}

describe('the simulator on the real service’s variety (variance: real)', () => {
  let plain: RunningSimulator
  let real: RunningSimulator

  beforeAll(async () => {
    plain = (await startTestSimulator()).sim
    real = (await startTestSimulator({ variance: 'real' })).sim
  })
  afterAll(async () => {
    await plain.close()
    await real.close()
  })

  it('history and transfers: "SOL" mints, last pages without nextCursor, extra fields — read as the plain answers', async () => {
    const seen = { solNamed: 0, noCursor: 0, extra: 0, errorKeyless: 0 }
    for (const profile of PAGED) {
      const address = plain.chain.walletByProfile(profile).address
      for (const listing of ['history', 'transfers'] as const) {
        const operation = OPERATIONS[listing === 'history' ? 'wallet.history' : 'wallet.transfers']
        const [asPlain, asReal] = await Promise.all([
          pagesOf(plain, address, listing),
          pagesOf(real, address, listing),
        ])
        expect(asReal.length).toBe(asPlain.length)
        asReal.forEach((page, i) => {
          const text = JSON.stringify(page)
          seen.solNamed += (text.match(/"mint":"SOL"/g) ?? []).length
          seen.extra += (text.match(/"addedByService"/g) ?? []).length
          if (!('nextCursor' in page.pagination)) seen.noCursor += 1
          for (const entry of page.data)
            if (listing === 'history' && !('error' in entry)) seen.errorKeyless += 1
          const read = operation.response.parse(page)
          const readPlain = operation.response.parse(asPlain[i])
          if (listing === 'history') expect(read).toEqual(readPlain)
          else
            // A mint the service does not name has a null symbol; the rest is the same.
            expect(read.data.map((t: LooseJson) => ({ ...t, symbol: null }))).toEqual(
              readPlain.data.map((t: LooseJson) => ({ ...t, symbol: null })),
            )
          expect(JSON.stringify(read)).not.toContain('"mint":"SOL"')
        })
      }
    }
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0)
  })

  it('balances: null price, value, symbol, name and logo for the mints it does not price or name; the total of the priced', async () => {
    const variance = new RealVariance(
      real.chain.seed,
      real.chain.mints.map((m) => m.address),
    )
    let unpriced = 0
    let unnamed = 0
    for (const profile of PROFILES) {
      const address = plain.chain.walletByProfile(profile).address
      const path = `/v1/wallet/${address}/balances?showNfts=true&showNative=true`
      const [asPlain, asReal] = await Promise.all([rawGet(plain.url, path), rawGet(real.url, path)])
      const read = OPERATIONS['wallet.balances'].response.parse(asReal.body)
      const readPlain = OPERATIONS['wallet.balances'].response.parse(asPlain.body)
      expect(read.keptAside).toEqual([])
      expect(read.balances.map((b) => [b.mint, b.balance])).toEqual(
        readPlain.balances.map((b) => [b.mint, b.balance]),
      )
      for (const b of read.balances) {
        if (variance.isUnpriced(b.mint)) {
          unpriced += 1
          expect([b.pricePerToken, b.usdValue]).toEqual([null, null])
        } else expect(b.pricePerToken).not.toBeNull()
        if (variance.isUnnamed(b.mint)) {
          unnamed += 1
          expect([b.symbol, b.name, b.logoUri]).toEqual([null, null, null])
        }
      }
      const priced = read.balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0)
      expect(read.totalUsdValue).toBeCloseTo(priced, 2)
      expect(read.balances.find((b) => b.mint === NATIVE_SOL_MINT)?.pricePerToken).not.toBeNull()
    }
    expect(unpriced).toBeGreaterThan(0)
    expect(unnamed).toBeGreaterThan(0)
  })

  it('DAS: no price_info for half of the mints the balances leave unpriced', async () => {
    const variance = new RealVariance(
      real.chain.seed,
      real.chain.mints.map((m) => m.address),
    )
    const address = real.chain.walletByProfile('active-trader').address
    const { body } = await rawRpc(real.url, 'getAssetsByOwner', {
      ownerAddress: address,
      page: 1,
      options: { showFungible: true },
    })
    const fungible = (body.result.items as LooseJson[]).filter((a) => a.token_info !== undefined)
    expect(fungible.length).toBeGreaterThan(0)
    for (const asset of fungible)
      expect('price_info' in asset.token_info, asset.id).toBe(!variance.isUnpricedByDas(asset.id))
    expect(OPERATIONS['das.getAssetsByOwner'].response.safeParse(body.result).success).toBe(true)
  })

  it('webhooks: without active when active, with a type the app does not list — read as active', async () => {
    expect(WEBHOOK_TRANSACTION_TYPES as readonly string[]).not.toContain(UNLISTED_TYPE)
    const address = real.chain.walletByProfile('casual').address
    const created = await fetch(`${real.url}/v0/webhooks?api-key=demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        webhookURL: 'https://example.com/hook',
        transactionTypes: ['ANY'],
        accountAddresses: [address],
        webhookType: 'enhanced',
      }),
    })
    const { webhookID } = (await created.json()) as { webhookID: string }
    let activeless = 0
    let unlisted = 0
    for (let i = 0; i < 12; i++) {
      const { body } = await rawGet(real.url, `/v0/webhooks/${webhookID}?api-key=demo`, null)
      if (!('active' in body)) activeless += 1
      if ((body.transactionTypes as string[]).includes(UNLISTED_TYPE)) unlisted += 1
      const read = OPERATIONS['webhooks.get'].response.parse(body)
      expect(read.active).toBe(true)
      expect(read.transactionTypes).toContain('ANY')
    }
    expect(activeless).toBeGreaterThan(0)
    expect(activeless).toBeLessThan(12)
    expect(unlisted).toBeGreaterThan(0)
  })

  it('priority fee: all levels without the estimate; token accounts without last_indexed_slot', async () => {
    const fee = await rawRpc(real.url, 'getPriorityFeeEstimate', [
      { accountKeys: [NATIVE_SOL_MINT], options: { includeAllPriorityFeeLevels: true } },
    ])
    expect(fee.body.result.priorityFeeLevels).toBeDefined()
    expect('priorityFeeEstimate' in fee.body.result).toBe(false)
    expect(
      OPERATIONS['priorityFee.getPriorityFeeEstimate'].response.parse(fee.body.result),
    ).toMatchObject({
      priorityFeeEstimate: null,
    })
    const owner = real.chain.walletByProfile('active-trader').address
    let withoutSlot = 0
    for (let i = 0; i < 8; i++) {
      const { body } = await rawRpc(real.url, 'getTokenAccounts', { owner })
      if (!('last_indexed_slot' in body.result)) withoutSlot += 1
      expect(OPERATIONS['das.getTokenAccounts'].response.safeParse(body.result).success).toBe(true)
    }
    expect(withoutSlot).toBeGreaterThan(0)
  })

  it('without variance, the simulator sends the interface text’s shapes only', async () => {
    const address = plain.chain.walletByProfile('casual').address
    const pages = await pagesOf(plain, address, 'history')
    expect(JSON.stringify(pages)).not.toContain('"mint":"SOL"')
    expect(pages.every((p) => 'nextCursor' in p.pagination)).toBe(true)
  })
})
