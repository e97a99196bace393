import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { WalletAddress } from '@shared/api/base58'
import * as compression from '@shared/api/compression'
import * as das from '@shared/api/das'
import { formatIssuePath } from '@shared/validation/zod-issues'
import * as priorityFee from '@shared/api/priority-fee'
import * as rpc from '@shared/api/rpc'
import * as tokenMetadata from '@shared/api/token-metadata'
import * as wallet from '@shared/api/wallet-rest'
import * as webhooks from '@shared/api/webhooks'
import { HASH, SIG, USDC_MINT, WALLET, WEBHOOK_ID } from './interface-samples'

// Bounds of docs/service.md, each checked at and just past the limit.

function verdict(schema: z.ZodType, input: unknown): 'ok' | string[] {
  const result = schema.safeParse(input)
  return result.success ? 'ok' : result.error.issues.map((i) => formatIssuePath(i.path))
}

const addresses = (n: number) => Array.from({ length: n }, () => WALLET)

describe('wallet path parameter: base58, 32 to 44 characters', () => {
  const base = '1'.repeat(20) + 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  it.each([32, 33, 43, 44])('accepts %i characters', (n) => {
    expect(verdict(WalletAddress, base.slice(0, n))).toBe('ok')
  })
  it.each([0, 31, 45])('rejects %i characters', (n) => {
    expect(verdict(WalletAddress, base.slice(0, n))).not.toBe('ok')
  })
  it.each(['0', 'O', 'I', 'l', '-', ' '])('rejects the non-base58 character %j', (ch) => {
    expect(verdict(WalletAddress, ch + WALLET.slice(1))).not.toBe('ok')
  })
  it('is checked in every wallet request', () => {
    expect(verdict(wallet.HistoryQuery, { wallet: 'not-an-address' })).toEqual(['wallet'])
    expect(verdict(wallet.BalancesQuery, { wallet: WALLET.slice(0, 31) })).toEqual(['wallet'])
    expect(verdict(wallet.TransfersQuery, { wallet: WALLET + 'x' })).toEqual(['wallet'])
    expect(verdict(wallet.FundedByQuery, { wallet: 'O'.repeat(40) })).toEqual(['wallet'])
  })
})

describe('wallet REST limits', () => {
  it.each([
    ['balances', wallet.BalancesQuery],
    ['history', wallet.HistoryQuery],
    ['transfers', wallet.TransfersQuery],
  ] as const)('%s limit: 1 and 100 pass, 0, 101 and 2.5 fail', (_, schema) => {
    expect(verdict(schema, { wallet: WALLET, limit: 1 })).toBe('ok')
    expect(verdict(schema, { wallet: WALLET, limit: 100 })).toBe('ok')
    expect(verdict(schema, { wallet: WALLET, limit: 0 })).toEqual(['limit'])
    expect(verdict(schema, { wallet: WALLET, limit: 101 })).toEqual(['limit'])
    expect(verdict(schema, { wallet: WALLET, limit: 2.5 })).toEqual(['limit'])
  })
  it('balances page is 1-based', () => {
    expect(verdict(wallet.BalancesQuery, { wallet: WALLET, page: 1 })).toBe('ok')
    expect(verdict(wallet.BalancesQuery, { wallet: WALLET, page: 0 })).toEqual(['page'])
  })
  it('history type takes only the listed values and before/after take signatures', () => {
    expect(
      verdict(wallet.HistoryQuery, {
        wallet: WALLET,
        type: 'SWAP',
        before: SIG,
        tokenAccounts: 'all',
      }),
    ).toBe('ok')
    expect(verdict(wallet.HistoryQuery, { wallet: WALLET, type: 'ANY' })).toEqual(['type'])
    expect(verdict(wallet.HistoryQuery, { wallet: WALLET, tokenAccounts: 'some' })).toEqual([
      'tokenAccounts',
    ])
    expect(verdict(wallet.HistoryQuery, { wallet: WALLET, after: 'short' })).toEqual(['after'])
  })
  it('rejects an unknown parameter rather than sending it', () => {
    expect(verdict(wallet.HistoryQuery, { wallet: WALLET, limt: 5 })).not.toBe('ok')
  })
  it('batch identity: 1 to 100 addresses or domains', () => {
    expect(verdict(wallet.BatchIdentityRequest, { addresses: addresses(100) })).toBe('ok')
    expect(verdict(wallet.BatchIdentityRequest, { addresses: ['toly.sol', WALLET] })).toBe('ok')
    expect(verdict(wallet.BatchIdentityRequest, { addresses: addresses(101) })).toEqual([
      'addresses',
    ])
    expect(verdict(wallet.BatchIdentityRequest, { addresses: [] })).toEqual(['addresses'])
  })
  it('identity takes an address or a domain', () => {
    expect(verdict(wallet.IdentityQuery, { wallet: 'toly.sol' })).toBe('ok')
    expect(verdict(wallet.IdentityQuery, { wallet: WALLET })).toBe('ok')
    expect(verdict(wallet.IdentityQuery, { wallet: 'no spaces.sol' })).not.toBe('ok')
  })
  it('balance-at takes exactly one of time, datetime or slot', () => {
    expect(verdict(wallet.BalanceAtQuery, { wallet: WALLET, mint: USDC_MINT, slot: 5 })).toBe('ok')
    expect(verdict(wallet.BalanceAtQuery, { wallet: WALLET, mint: USDC_MINT })).toEqual(['time'])
    expect(
      verdict(wallet.BalanceAtQuery, { wallet: WALLET, mint: USDC_MINT, slot: 5, time: 9 }),
    ).toEqual(['time'])
  })
})

describe('DAS bounds', () => {
  it('getAssetBatch: up to 1,000 ids', () => {
    expect(verdict(das.GetAssetBatchParams, { ids: addresses(1000) })).toBe('ok')
    expect(verdict(das.GetAssetBatchParams, { ids: addresses(1001) })).toEqual(['ids'])
    expect(verdict(das.GetAssetBatchParams, { ids: [] })).toEqual(['ids'])
  })
  it('getAssetsByOwner: page >= 1, limit <= 1000', () => {
    expect(
      verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, page: 1, limit: 1000 }),
    ).toBe('ok')
    expect(verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, page: 0 })).toEqual(['page'])
    expect(verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, limit: 1001 })).toEqual([
      'limit',
    ])
  })
  it.each(['before', 'after', 'cursor'])(
    'getAssetsByOwner: page cannot be combined with %s',
    (key) => {
      expect(verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, [key]: ASSET })).toBe('ok')
      expect(
        verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, page: 2, [key]: ASSET }),
      ).toEqual(['page'])
    },
  )
  it('getAssetsByOwner: displayOptions is an alias of options, not both', () => {
    expect(
      verdict(das.GetAssetsByOwnerParams, {
        ownerAddress: WALLET,
        displayOptions: { showFungible: true },
      }),
    ).toBe('ok')
    expect(
      verdict(das.GetAssetsByOwnerParams, {
        ownerAddress: WALLET,
        options: {},
        displayOptions: {},
      }),
    ).toEqual(['displayOptions'])
  })
  it('getAssetsByOwner: sortBy values and unknown fields (rejected)', () => {
    const sortBy = { sortBy: 'recent_action', sortDirection: 'desc' }
    expect(verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, sortBy })).toBe('ok')
    expect(
      verdict(das.GetAssetsByOwnerParams, { ownerAddress: WALLET, sortBy: { sortBy: 'price' } }),
    ).toEqual(['sortBy.sortBy'])
    expect(
      verdict(das.GetAssetsByOwnerParams, {
        ownerAddress: WALLET,
        options: { showEverything: true },
      }),
    ).not.toBe('ok')
  })
  it('getAssetsByAuthority: same paging rules', () => {
    expect(
      verdict(das.GetAssetsByAuthorityParams, { authorityAddress: WALLET, page: 1, limit: 1000 }),
    ).toBe('ok')
    expect(
      verdict(das.GetAssetsByAuthorityParams, { authorityAddress: WALLET, page: 1, after: ASSET }),
    ).toEqual(['page'])
  })
  it('getTokenAccounts: owner and/or mint, page not with cursor', () => {
    expect(verdict(das.GetTokenAccountsParams, { owner: WALLET })).toBe('ok')
    expect(verdict(das.GetTokenAccountsParams, { mint: USDC_MINT, limit: 1000 })).toBe('ok')
    expect(verdict(das.GetTokenAccountsParams, { limit: 10 })).toEqual(['owner'])
    expect(verdict(das.GetTokenAccountsParams, { owner: WALLET, page: 1, cursor: 'abc' })).toEqual([
      'page',
    ])
    expect(verdict(das.GetTokenAccountsParams, { owner: WALLET, limit: 1001 })).toEqual(['limit'])
  })
})

const ASSET = HASH

describe('compression bounds', () => {
  it('limit 1000 passes, 1001 fails', () => {
    expect(
      verdict(compression.GetCompressionSignaturesParams, { owner: WALLET, limit: 1000 }),
    ).toBe('ok')
    expect(
      verdict(compression.GetCompressionSignaturesParams, { owner: WALLET, limit: 1001 }),
    ).toEqual(['limit'])
    expect(
      verdict(compression.GetCompressedAccountsByOwnerParams, { owner: WALLET, limit: 1001 }),
    ).toEqual(['limit'])
  })
  it('at most 5 filters', () => {
    const filter = { memcmp: { offset: 0, bytes: '3Mc6vR' } }
    expect(
      verdict(compression.GetCompressedAccountsByOwnerParams, { owner: WALLET, filters: [filter] }),
    ).toBe('ok')
    expect(
      verdict(compression.GetCompressedAccountsByOwnerParams, {
        owner: WALLET,
        filters: Array(6).fill(filter),
      }),
    ).toEqual(['filters'])
  })
  it('getCompressedAccount needs an address or a hash', () => {
    expect(verdict(compression.GetCompressedAccountParams, { hash: HASH })).toBe('ok')
    expect(verdict(compression.GetCompressedAccountParams, { address: null, hash: null })).toEqual([
      'address',
    ])
  })
  it('getMultipleCompressedAccounts: hashes or addresses, not both, <= 1000', () => {
    expect(
      verdict(compression.GetMultipleCompressedAccountsParams, { hashes: addresses(1000) }),
    ).toBe('ok')
    expect(
      verdict(compression.GetMultipleCompressedAccountsParams, { hashes: addresses(1001) }),
    ).toEqual(['hashes'])
    expect(
      verdict(compression.GetMultipleCompressedAccountsParams, {
        hashes: [HASH],
        addresses: [HASH],
      }),
    ).toEqual(['hashes'])
  })
  it('getValidityProof needs at least one hash or new address', () => {
    expect(verdict(compression.GetValidityProofParams, { hashes: [HASH] })).toBe('ok')
    expect(
      verdict(compression.GetValidityProofParams, {
        newAddressesWithTrees: [{ address: HASH, tree: WALLET }],
      }),
    ).toBe('ok')
    expect(verdict(compression.GetValidityProofParams, { hashes: [] })).toEqual(['hashes'])
  })
})

describe('getSignaturesForAddress (Solana RPC)', () => {
  it('limit 1 to 1000', () => {
    expect(verdict(rpc.GetSignaturesForAddressParams, [WALLET])).toBe('ok')
    expect(verdict(rpc.GetSignaturesForAddressParams, [WALLET, { limit: 1000, before: SIG }])).toBe(
      'ok',
    )
    expect(verdict(rpc.GetSignaturesForAddressParams, [WALLET, { limit: 1001 }])).not.toBe('ok')
    expect(verdict(rpc.GetSignaturesForAddressParams, [WALLET, { limit: 0 }])).not.toBe('ok')
  })
})

describe('account reads (Solana RPC)', () => {
  const base64 = { encoding: 'base64' }
  it('getMultipleAccounts takes at most 100 pubkeys, naming the limit', () => {
    expect(verdict(rpc.GetMultipleAccountsParams, [addresses(100), base64])).toBe('ok')
    expect(verdict(rpc.GetMultipleAccountsParams, [addresses(101), base64])).toEqual(['[0]'])
    const refused = rpc.GetMultipleAccountsParams.safeParse([addresses(101), base64])
    expect(refused.error?.issues[0]?.message).toContain('100')
  })
  it('dataSlice is non-negative and only with base64', () => {
    const slice = { offset: 64, length: 8 }
    expect(
      verdict(rpc.GetMultipleAccountsParams, [[WALLET], { ...base64, dataSlice: slice }]),
    ).toBe('ok')
    expect(
      verdict(rpc.GetMultipleAccountsParams, [
        [WALLET],
        { ...base64, dataSlice: { offset: -1, length: 8 } },
      ]),
    ).toEqual(['[1].dataSlice.offset'])
    expect(
      verdict(rpc.GetMultipleAccountsParams, [
        [WALLET],
        { encoding: 'jsonParsed', dataSlice: slice },
      ]),
    ).toEqual(['[1].dataSlice'])
    expect(verdict(rpc.GetMultipleAccountsParams, [[WALLET], { encoding: 'base58' }])).toEqual([
      '[1].encoding',
    ])
  })
  it('getTokenAccountsByOwner filters by mint or by program, not both', () => {
    const program = { programId: rpc.TOKEN_2022_PROGRAM_ID }
    expect(verdict(rpc.GetTokenAccountsByOwnerParams, [WALLET, program, base64])).toBe('ok')
    expect(verdict(rpc.GetTokenAccountsByOwnerParams, [WALLET, { mint: USDC_MINT }, base64])).toBe(
      'ok',
    )
    expect(
      verdict(rpc.GetTokenAccountsByOwnerParams, [WALLET, { ...program, mint: USDC_MINT }, base64]),
    ).not.toBe('ok')
  })
  it('getBalance takes an address and an optional config', () => {
    expect(verdict(rpc.GetBalanceParams, [WALLET])).toBe('ok')
    expect(verdict(rpc.GetBalanceParams, [WALLET, { commitment: 'finalized' }])).toBe('ok')
    expect(verdict(rpc.GetBalanceParams, ['not-an-address'])).not.toBe('ok')
  })
})

describe('getPriorityFeeEstimate', () => {
  const withOptions = (options: object) => [{ transaction: 'AQAB', options }]
  it('lookbackSlots 1 to 150', () => {
    expect(
      verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions({ lookbackSlots: 1 })),
    ).toBe('ok')
    expect(
      verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions({ lookbackSlots: 150 })),
    ).toBe('ok')
    expect(
      verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions({ lookbackSlots: 0 })),
    ).toEqual(['[0].options.lookbackSlots'])
    expect(
      verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions({ lookbackSlots: 151 })),
    ).toEqual(['[0].options.lookbackSlots'])
  })
  it('encodings and priority levels are the enumerated ones', () => {
    const all = {
      transactionEncoding: 'Base64',
      priorityLevel: 'VeryHigh',
      includeAllPriorityFeeLevels: true,
      includeVote: false,
      recommended: true,
      evaluateEmptySlotAsZero: true,
    }
    expect(verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions(all))).toBe('ok')
    expect(
      verdict(priorityFee.GetPriorityFeeEstimateParams, withOptions({ priorityLevel: 'Max' })),
    ).toEqual(['[0].options.priorityLevel'])
    expect(
      verdict(
        priorityFee.GetPriorityFeeEstimateParams,
        withOptions({ transactionEncoding: 'Hex' }),
      ),
    ).toEqual(['[0].options.transactionEncoding'])
  })
  it('needs a transaction or account keys, in an array of one', () => {
    expect(verdict(priorityFee.GetPriorityFeeEstimateParams, [{ accountKeys: [WALLET] }])).toBe(
      'ok',
    )
    expect(verdict(priorityFee.GetPriorityFeeEstimateParams, [{}])).toEqual(['[0].transaction'])
    expect(verdict(priorityFee.GetPriorityFeeEstimateParams, { transaction: 'AQAB' })).not.toBe(
      'ok',
    )
  })
})

describe('token metadata', () => {
  it('at most 100 mint accounts', () => {
    expect(verdict(tokenMetadata.TokenMetadataRequest, { mintAccounts: addresses(100) })).toBe('ok')
    expect(verdict(tokenMetadata.TokenMetadataRequest, { mintAccounts: addresses(101) })).toEqual([
      'mintAccounts',
    ])
  })
})

describe('webhooks', () => {
  it('webhookID is a UUIDv4', () => {
    expect(verdict(webhooks.ToggleWebhookRequest, { webhookID: WEBHOOK_ID, active: false })).toBe(
      'ok',
    )
    // version nibble 1, not 4
    expect(
      verdict(webhooks.ToggleWebhookRequest, {
        webhookID: '9f1c2b3a-4d5e-1f60-8a7b-1c2d3e4f5a6b',
        active: true,
      }),
    ).toEqual(['webhookID'])
    expect(verdict(webhooks.GetWebhookRequest, { webhookID: 'webhook-1' })).toEqual(['webhookID'])
  })
  it('toggle body is { active }', () => {
    expect(
      verdict(webhooks.ToggleWebhookRequest, { webhookID: WEBHOOK_ID, active: 'yes' }),
    ).toEqual(['active'])
  })
  it('create takes only the enumerated transaction types and kinds', () => {
    const create = {
      webhookURL: 'https://hooks.example.invalid/in',
      transactionTypes: ['NFT_SALE', 'SWAP'],
      accountAddresses: [WALLET],
      webhookType: 'enhanced',
    }
    expect(verdict(webhooks.CreateWebhookRequest, create)).toBe('ok')
    expect(
      verdict(webhooks.CreateWebhookRequest, { ...create, transactionTypes: ['NOT_A_TYPE'] }),
    ).toEqual(['transactionTypes[0]'])
    expect(verdict(webhooks.CreateWebhookRequest, { ...create, webhookType: 'pager' })).toEqual([
      'webhookType',
    ])
    expect(verdict(webhooks.CreateWebhookRequest, { ...create, webhookURL: 'ftp://x' })).toEqual([
      'webhookURL',
    ])
  })
  it('update needs only the id', () => {
    expect(
      verdict(webhooks.UpdateWebhookRequest, { webhookID: WEBHOOK_ID, accountAddresses: [WALLET] }),
    ).toBe('ok')
  })
})
