import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATIONS, OPERATION_NAMES } from '@shared/api/operations'
import type { OperationName } from '@shared/api/operations'
import type { ServiceClient } from '../../../src-main/service/service-client'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { rawGet, rawRpc, startTestSimulator } from './sim-test-helpers'

// Given the simulator (seed 7), every operation called through the shared client answers
// with a body its shared response schema accepts, and every bounded parameter is refused
// when out of bounds, with a message naming it.

let sim: RunningSimulator
let client: ServiceClient
let address: (p: Parameters<RunningSimulator['chain']['walletByProfile']>[0]) => string

beforeAll(async () => {
  ;({ sim, client, address } = await startTestSimulator())
})
afterAll(async () => {
  await sim.close()
})

describe('every operation answers in the shared schema', () => {
  it('covers the whole registry', async () => {
    const trader = address('active-trader')
    const collector = address('nft-collector')
    const holder = address('compressed-holder')
    const chain = sim.chain
    const holderWallet = chain.walletByProfile('compressed-holder')
    const compressionIndex = chain.collectibles(holderWallet).compressed[0] ?? 0
    const compressionSig = chain.signatureOf(holderWallet, compressionIndex)
    const hash =
      (await client.call('compression.getCompressedAccountsByOwner', { owner: holder })).value
        .items[0]?.hash ?? ''
    const assetId =
      (await client.call('das.getAssetsByOwner', { ownerAddress: collector, limit: 1 })).items[0]
        ?.id ?? ''
    const webhook = await client.call('webhooks.create', {
      webhookURL: 'http://127.0.0.1:9/hook',
      transactionTypes: ['ANY'],
      accountAddresses: [trader],
      webhookType: 'enhanced',
    })
    const inputs: { [N in OperationName]: unknown } = {
      'wallet.balances': { wallet: collector, showNfts: true },
      'wallet.history': { wallet: trader, limit: 5 },
      'wallet.transfers': { wallet: trader, limit: 5 },
      'wallet.identity': { wallet: 'tradewinds.sol' },
      'wallet.batchIdentity': { addresses: [trader, collector, 'sunny.sol'] },
      'wallet.fundedBy': { wallet: trader },
      'wallet.balanceAt': {
        wallet: trader,
        mint: 'So11111111111111111111111111111111111111111',
        time: chain.clock.genesisSec - 86_400,
      },
      'das.getAssetBatch': { ids: [assetId] },
      'das.getAssetsByAuthority': {
        authorityAddress:
          (await client.call('das.getAssetBatch', { ids: [assetId] }))[0]?.authorities[0]
            ?.address ?? trader,
      },
      'das.getAssetsByOwner': {
        ownerAddress: collector,
        options: { showFungible: true, showNativeBalance: true, showGrandTotal: true },
      },
      'das.getTokenAccounts': { owner: trader },
      'compression.getCompressedAccountsByOwner': { owner: holder },
      'compression.getCompressedTokenBalancesByOwnerV2': { owner: holder },
      'compression.getCompressedBalanceByOwner': { owner: holder },
      'compression.getCompressedAccount': { hash },
      'compression.getMultipleCompressedAccounts': { hashes: [hash] },
      'compression.getCompressionSignaturesForOwner': { owner: holder, limit: 10 },
      'compression.getCompressionSignaturesForTokenOwner': { owner: holder, limit: 10 },
      'compression.getTransactionWithCompressionInfo': { signature: compressionSig },
      'compression.getValidityProof': { hashes: [hash] },
      'rpc.getSignaturesForAddress': [trader, { limit: 3 }],
      'rpc.getTransaction': [
        compressionSig,
        { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
      ],
      'rpc.getMultipleAccounts': [
        [trader, chain.tokenAccountAddress(chain.walletByProfile('active-trader'), 1), holder],
        { encoding: 'base64', dataSlice: { offset: 64, length: 8 } },
      ],
      'rpc.getTokenAccountsByOwner': [
        collector,
        { programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' },
        { encoding: 'jsonParsed' },
      ],
      'rpc.getBalance': [trader],
      'priorityFee.getPriorityFeeEstimate': [
        { accountKeys: [trader], options: { includeAllPriorityFeeLevels: true } },
      ],
      'tokenMetadata.getTokenMetadata': {
        mintAccounts: [chain.mints[3]?.address ?? '', chain.mints[1]?.address ?? ''],
        includeOffChain: true,
      },
      'webhooks.list': {},
      'webhooks.get': { webhookID: webhook.webhookID },
      'webhooks.create': {
        webhookURL: 'http://127.0.0.1:9/other',
        transactionTypes: ['SWAP'],
        accountAddresses: [collector],
        webhookType: 'raw',
      },
      'webhooks.update': { webhookID: webhook.webhookID, accountAddresses: [trader, collector] },
      'webhooks.toggle': { webhookID: webhook.webhookID, active: false },
      'webhooks.delete': { webhookID: webhook.webhookID },
    }
    // Delete last, so the other webhook operations find the webhook.
    const ordered = [
      ...OPERATION_NAMES.filter((n) => n !== 'webhooks.delete'),
      'webhooks.delete' as const,
    ]
    for (const name of ordered) {
      const result = await client.call(name, inputs[name] as never)
      // The client validated already; parse again here so this test fails on its own.
      expect(() => OPERATIONS[name].response.parse(result), name).not.toThrow()
    }
  })

  it('answers JSON-RPC batches entry by entry', async () => {
    const trader = address('active-trader')
    const [a, b] = await client.batch([
      { operation: 'rpc.getSignaturesForAddress', input: [trader, { limit: 1 }] },
      { operation: 'das.getAssetsByOwner', input: { ownerAddress: trader, page: 1 } },
    ])
    expect(a.ok && a.value.length).toBe(1)
    expect(b.ok).toBe(true)
  })
})

describe('out-of-bounds input is refused, naming the parameter', () => {
  const restCases: [string, string][] = [
    ['balances?page=0', 'page'],
    ['balances?limit=0', 'limit'],
    ['balances?limit=101', 'limit'],
    ['balances?showNfts=maybe', 'showNfts'],
    ['history?limit=0', 'limit'],
    ['history?limit=101', 'limit'],
    ['history?before=not-a-signature', 'before'],
    ['history?after=0OIl', 'after'],
    ['history?type=NOT_A_TYPE', 'type'],
    ['history?tokenAccounts=some', 'tokenAccounts'],
    ['history?bogus=1', 'bogus'],
    ['transfers?limit=0', 'limit'],
    ['transfers?limit=101', 'limit'],
    ['transfers?cursor=nonsense', 'cursor'],
    ['balance-at?mint=So11111111111111111111111111111111111111111', 'time'],
  ]
  for (const [query, param] of restCases) {
    it(`GET ${query}`, async () => {
      const { status, body } = await rawGet(sim.url, `/v1/wallet/${address('casual')}/${query}`)
      expect(status).toBe(400)
      expect(body.error).toContain(param)
    })
  }

  it('refuses a malformed wallet path', async () => {
    const { status, body } = await rawGet(sim.url, '/v1/wallet/0xNotAnAddress/history')
    expect(status).toBe(400)
    expect(body.error).toContain('wallet')
  })

  it('refuses more than 100 batch-identity addresses', async () => {
    const res = await fetch(`${sim.url}/v1/wallet/batch-identity`, {
      method: 'POST',
      headers: { 'x-api-key': 'demo', 'content-type': 'application/json' },
      body: JSON.stringify({ addresses: Array.from({ length: 101 }, () => address('casual')) }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toContain('addresses')
  })

  it('refuses more than 100 token-metadata mints', async () => {
    const res = await fetch(`${sim.url}/v0/token-metadata?api-key=demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mintAccounts: Array.from({ length: 101 }, () => address('casual')) }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toContain('mintAccounts')
  })

  const rpcCases: [string, (a: string) => unknown, string][] = [
    ['getAssetsByOwner', (a) => ({ ownerAddress: a, page: 0 }), 'page'],
    ['getAssetsByOwner', (a) => ({ ownerAddress: a, limit: 1001 }), 'limit'],
    ['getAssetsByOwner', (a) => ({ ownerAddress: a, page: 1, cursor: 'x' }), 'page'],
    ['getAssetsByOwner', (a) => ({ ownerAddress: a, unknownField: 1 }), 'unknownField'],
    ['getAssetsByAuthority', (a) => ({ authorityAddress: a, limit: 1001 }), 'limit'],
    [
      'getAssetBatch',
      () => ({
        ids: Array.from({ length: 1001 }, () => 'So11111111111111111111111111111111111111112'),
      }),
      'ids',
    ],
    ['getTokenAccounts', (a) => ({ owner: a, limit: 1001 }), 'limit'],
    ['getTokenAccounts', () => ({}), 'owner'],
    ['getCompressedAccountsByOwner', (a) => ({ owner: a, limit: 1001 }), 'limit'],
    [
      'getCompressedAccountsByOwner',
      (a) => ({
        owner: a,
        filters: Array.from({ length: 6 }, () => ({ memcmp: { offset: 0, bytes: '1' } })),
      }),
      'filters',
    ],
    ['getCompressedTokenBalancesByOwnerV2', (a) => ({ owner: a, limit: 0 }), 'limit'],
    ['getCompressionSignaturesForOwner', (a) => ({ owner: a, limit: 1001 }), 'limit'],
    ['getCompressionSignaturesForTokenOwner', (a) => ({ owner: a, limit: 0 }), 'limit'],
    [
      'getMultipleCompressedAccounts',
      () => ({
        hashes: Array.from({ length: 1001 }, () => 'So11111111111111111111111111111111111111112'),
      }),
      'hashes',
    ],
    ['getSignaturesForAddress', (a) => [a, { limit: 1001 }], 'limit'],
    ['getSignaturesForAddress', (a) => [a, { limit: 0 }], 'limit'],
    [
      'getMultipleAccounts',
      (a) => [Array.from({ length: 101 }, () => a), { encoding: 'base64' }],
      'at most 100 pubkeys',
    ],
    ['getTokenAccountsByOwner', (a) => [a, { programId: a }, { encoding: 'base64' }], 'programId'],
    [
      'getMultipleAccounts',
      (a) => [[a], { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 8 } }],
      'dataSlice',
    ],
    [
      'getPriorityFeeEstimate',
      (a) => [{ accountKeys: [a], options: { lookbackSlots: 151 } }],
      'lookbackSlots',
    ],
    [
      'getPriorityFeeEstimate',
      (a) => [{ accountKeys: [a], options: { priorityLevel: 'Extreme' } }],
      'priorityLevel',
    ],
  ]
  for (const [method, params, param] of rpcCases) {
    it(`${method} ${param}`, async () => {
      const { body } = await rawRpc(sim.url, method, params(address('casual')))
      expect(body.error?.code).toBe(-32602)
      expect(body.error?.message).toContain(param)
    })
  }
})
