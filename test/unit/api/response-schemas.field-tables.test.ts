import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import * as compression from '@shared/api/compression'
import * as das from '@shared/api/das'
import { formatIssuePath } from '@shared/validation/zod-issues'
import * as priorityFee from '@shared/api/priority-fee'
import * as rpc from '@shared/api/rpc'
import * as tokenMetadata from '@shared/api/token-metadata'
import * as wallet from '@shared/api/wallet-rest'
import * as webhooks from '@shared/api/webhooks'
import * as s from './interface-samples'

// Each table restates a field table of the service (docs/service.md, "What the app
// accepts from the service"): for every field, whether it must be present, whether JSON
// null is allowed, and a value of the wrong type. Where the SDK's types or the published
// examples and the interface text disagree, the looser is the table's verdict. The harness
// removes / nulls / corrupts each field of a valid body and checks the verdict and the
// reported path: inside the full response, or, for an item of a listing the edge reads
// item by item (where a bad item is kept aside instead of failing its page), inside the
// item as the item's schema reads it.

type Verdict = { required: boolean; nullable: boolean; wrong: unknown }
const req = (wrong: unknown): Verdict => ({ required: true, nullable: false, wrong })
const opt = (wrong: unknown): Verdict => ({ required: false, nullable: false, wrong })
const reqNull = (wrong: unknown): Verdict => ({ required: true, nullable: true, wrong })
const optNull = (wrong: unknown): Verdict => ({ required: false, nullable: true, wrong })
/** A field the interface lists with no concrete type: any value, even none. */
const NO_WRONG_TYPE = Symbol('no wrong type')
const untyped: Verdict = { required: false, nullable: true, wrong: NO_WRONG_TYPE }

interface FieldTable {
  title: string
  schema: z.ZodType
  body: unknown
  /** Path from the response root to the object whose fields the table lists. */
  at: (string | number)[]
  /**
   * The object schema of that object, to check the table covers all its fields; null for
   * an envelope read item by item, whose schema declares its lists as unknown items.
   */
  objectSchema: z.ZodObject | null
  fields: Record<string, Verdict>
}

const tables: FieldTable[] = [
  {
    // The published schema requires mint, balance, decimals and tokenProgram only.
    title: 'wallet REST balance entry (unpriced, unnamed tokens: null or absent)',
    schema: wallet.WalletBalance,
    body: s.balancesBody.balances[1],
    at: [],
    objectSchema: wallet.WalletBalance,
    fields: {
      mint: req(1),
      balance: req('1'),
      decimals: req(1.5),
      tokenProgram: req(1),
      symbol: optNull(1),
      name: optNull(1),
      pricePerToken: optNull('1'),
      usdValue: optNull('1'),
      logoUri: optNull(1),
    },
  },
  {
    title: 'wallet REST NFT entry (name, image and collection null or absent)',
    schema: wallet.WalletNft,
    body: s.balancesBody.nfts[0],
    at: [],
    objectSchema: wallet.WalletNft,
    fields: {
      mint: req(1),
      compressed: req('true'),
      name: optNull(1),
      imageUri: optNull(1),
      collectionName: optNull(1),
      collectionAddress: optNull(1),
    },
  },
  {
    title: 'wallet REST balances response',
    schema: wallet.BalancesResponse,
    body: s.balancesBody,
    at: [],
    objectSchema: null,
    fields: { balances: req({}), totalUsdValue: req('1'), pagination: req([]), nfts: opt({}) },
  },
  {
    title: 'balances page pagination',
    schema: wallet.BalancesResponse,
    body: s.balancesBody,
    at: ['pagination'],
    objectSchema: wallet.PagePagination,
    fields: { page: req('1'), limit: req('1'), hasMore: req(0) },
  },
  {
    // The published schema requires neither timestamp nor error.
    title: 'history entry (error string|null, timestamp nullable, both may be absent)',
    schema: wallet.HistoryEntry,
    body: s.historyBody.data[1],
    at: [],
    objectSchema: wallet.HistoryEntry,
    fields: {
      signature: req(1),
      slot: req('1'),
      fee: req('0.1'),
      feePayer: req(1),
      balanceChanges: req({}),
      timestamp: optNull(1.5),
      error: optNull(42),
    },
  },
  {
    title: 'history balance change',
    schema: wallet.HistoryEntry,
    body: s.historyBody.data[1],
    at: ['balanceChanges', 1],
    objectSchema: wallet.BalanceChange,
    fields: { mint: req(1), amount: req('1'), decimals: req('6') },
  },
  {
    title: 'history/transfers cursor pagination (no nextCursor on the last page: null or absent)',
    schema: wallet.HistoryResponse,
    body: s.historyBody,
    at: ['pagination'],
    objectSchema: wallet.CursorPagination,
    fields: { hasMore: req('no'), nextCursor: optNull(5) },
  },
  {
    title: 'transfer entry (symbol nullable or absent)',
    schema: wallet.TransferEntry,
    body: s.transfersBody.data[0],
    at: [],
    objectSchema: wallet.TransferEntry,
    fields: {
      signature: req(1),
      timestamp: req('1'),
      direction: req('sideways'),
      counterparty: req(1),
      mint: req(1),
      amount: req('1'),
      amountRaw: req(15200000),
      decimals: req(null),
      symbol: optNull(1),
    },
  },
  {
    title: 'wallet REST identity',
    schema: wallet.IdentityResponse,
    body: s.identityBody,
    at: [],
    objectSchema: wallet.Identity,
    fields: {
      address: req(1),
      type: req(1),
      name: req(1),
      category: req(1),
      tags: req('tag'),
      domainNames: opt('x.sol'),
    },
  },
  {
    title: 'wallet REST funded-by',
    schema: wallet.FundedByResponse,
    body: s.fundedByBody,
    at: [],
    objectSchema: wallet.FundedBy,
    fields: {
      funder: req(1),
      funderName: optNull(1),
      funderType: optNull(1),
      mint: req(1),
      symbol: req(1),
      amount: req('2'),
      amountRaw: req(2),
      decimals: req('9'),
      signature: req(1),
      timestamp: req('1'),
      date: req(1),
      slot: req('1'),
      explorerUrl: req(1),
    },
  },
  {
    title: 'wallet REST balance-at',
    schema: wallet.BalanceAtResponse,
    body: s.balanceAtBody,
    at: [],
    objectSchema: wallet.BalanceAtResponse,
    fields: {
      wallet: req(1),
      mint: req(1),
      isNative: req('false'),
      balance: req(10.5),
      balanceRaw: req(10500000),
      decimals: req('6'),
      requested: req('now'),
      asOf: reqNull('slot'),
    },
  },
  {
    title: 'DAS asset',
    schema: das.GetAssetBatchResult,
    body: [s.asset],
    at: [0],
    objectSchema: das.Asset,
    // The SDK types all but id, interface and ownership as optional; an interface the app
    // does not list stays as its text.
    fields: {
      interface: req(9),
      id: req(1),
      content: optNull('x'),
      authorities: optNull({}),
      compression: opt([]),
      grouping: optNull({}),
      royalty: opt(1),
      creators: optNull({}),
      ownership: req('me'),
      supply: optNull(5),
      token_info: opt(5),
      inscription: optNull(5),
      spl20: optNull(5),
      plugins: opt(5),
      is_agent: opt('yes'),
      agent_token: opt(1),
      asset_signer: opt(1),
      mutable: opt('yes'),
      burnt: opt('no'),
    },
  },
  {
    title: 'DAS asset ownership',
    schema: das.GetAssetBatchResult,
    body: [s.asset],
    at: [0, 'ownership'],
    objectSchema: das.Asset.shape.ownership,
    fields: {
      frozen: req('no'),
      delegated: req('no'),
      delegate: optNull(1),
      ownership_model: req(1),
      owner: req(1),
    },
  },
  {
    title: 'DAS asset royalty',
    schema: das.GetAssetBatchResult,
    body: [s.asset],
    at: [0, 'royalty'],
    objectSchema: das.Asset.shape.royalty.unwrap(),
    fields: {
      royalty_model: req(1),
      target: optNull(1),
      percent: req('5%'),
      basis_points: req(0.5),
      primary_sale_happened: req('yes'),
      locked: req('no'),
    },
  },
  {
    title: 'DAS asset compression',
    schema: das.GetAssetBatchResult,
    body: [s.asset],
    at: [0, 'compression'],
    objectSchema: das.Asset.shape.compression.unwrap(),
    fields: {
      eligible: req(1),
      compressed: req(1),
      data_hash: req(1),
      creator_hash: req(1),
      asset_hash: req(1),
      tree: req(1),
      seq: req('1'),
      leaf_id: req('1'),
    },
  },
  {
    title: 'DAS asset content (metadata and last_indexed_slot can be absent)',
    schema: das.Asset,
    body: s.assetListResult.items[0],
    at: ['content'],
    objectSchema: das.AssetContent,
    fields: {
      last_indexed_slot: opt('1'),
      $schema: opt(1),
      json_uri: opt(1),
      files: optNull({}),
      metadata: opt('m'),
    },
  },
  {
    title: 'DAS listing envelope (grand_total with options.showGrandTotal)',
    schema: das.GetAssetsByOwnerResult,
    body: s.assetListResult,
    at: [],
    objectSchema: null,
    fields: {
      last_indexed_slot: optNull('1'),
      total: req('1'),
      limit: req('1'),
      page: opt('1'),
      cursor: optNull(1),
      before: optNull(1),
      after: optNull(1),
      grand_total: opt('1'),
      items: req({}),
    },
  },
  {
    // The SDK types every field as optional: an account without its address, mint, owner
    // or amount is kept aside; the others read as null when absent.
    title: 'getTokenAccounts token account',
    schema: das.TokenAccount,
    body: s.tokenAccountsResult.token_accounts[0],
    at: [],
    objectSchema: das.TokenAccount,
    fields: {
      address: req(1),
      mint: req(1),
      owner: req(1),
      amount: req('1'),
      delegated_amount: optNull(0.5),
      frozen: optNull('no'),
      // "present in the response schema with no concrete type", as the service says
      burnt: untyped,
    },
  },
  {
    title: 'getTokenAccounts envelope (every field optional in the SDK)',
    schema: das.GetTokenAccountsResult,
    body: s.tokenAccountsResult,
    at: [],
    objectSchema: null,
    fields: {
      last_indexed_slot: optNull('1'),
      total: optNull('1'),
      limit: optNull('1'),
      page: opt('1'),
      cursor: optNull(1),
      token_accounts: optNull({}),
    },
  },
  {
    title: 'compressed account (address and data null or absent)',
    schema: compression.GetCompressedAccountsByOwnerResult,
    body: s.compressedAccountsByOwnerResult,
    at: ['value', 'items', 0],
    objectSchema: compression.CompressedAccount,
    fields: {
      hash: req(1),
      lamports: req('1'),
      leafIndex: req('1'),
      owner: req(1),
      seq: req('1'),
      slotCreated: req('1'),
      tree: req(1),
      address: optNull(1),
      data: optNull('AQID'),
    },
  },
  {
    title: 'compression signature item',
    schema: compression.GetCompressionSignaturesResult,
    body: s.compressionSignaturesResult,
    at: ['value', 'items', 0],
    objectSchema: compression.CompressionSignature,
    fields: { blockTime: req('1'), signature: req(1), slot: req('1'), error: optNull(1) },
  },
  {
    title: 'validity proof',
    schema: compression.GetValidityProofResult,
    body: s.validityProofResult,
    at: ['value'],
    objectSchema: compression.ValidityProof,
    fields: {
      compressedProof: req('abc'),
      leafIndices: req(['1']),
      leaves: req([1]),
      merkleTrees: req([1]),
      rootIndices: req(['1']),
      roots: req([1]),
    },
  },
  {
    title: 'Solana RPC getSignaturesForAddress item',
    schema: rpc.GetSignaturesForAddressResult,
    body: s.signaturesForAddressResult,
    at: [1],
    objectSchema: rpc.SignatureInfo,
    fields: {
      signature: req(1),
      slot: req('1'),
      err: reqNull(42),
      memo: reqNull(1),
      blockTime: reqNull('1'),
      confirmationStatus: reqNull('done'),
    },
  },
  {
    title: 'Solana RPC getMultipleAccounts account',
    schema: rpc.GetMultipleAccountsResult,
    body: s.multipleAccountsResult,
    at: ['value', 1],
    objectSchema: rpc.AccountInfo,
    fields: {
      lamports: req('1'),
      owner: req(1),
      data: req('gJaYAAAAAAA='),
      executable: req('false'),
      rentEpoch: req('1'),
      space: req('165'),
    },
  },
  {
    title: 'Solana RPC getTokenAccountsByOwner entry',
    schema: rpc.GetTokenAccountsByOwnerResult,
    body: s.tokenAccountsByOwnerResult,
    at: ['value', 0],
    objectSchema: rpc.OwnedTokenAccount,
    fields: { pubkey: req(1), account: req('x') },
  },
  {
    // Read on its own: inside the account, a failing union names only `data`.
    title: 'Solana RPC parsed token amount',
    schema: rpc.ParsedTokenAccountData,
    body: s.tokenAccountsByOwnerResult.value[1]!.account.data,
    at: ['parsed', 'info', 'tokenAmount'],
    objectSchema: rpc.ParsedTokenAmount,
    fields: {
      amount: req(10),
      decimals: req('6'),
      uiAmount: reqNull('10'),
      uiAmountString: req(10),
    },
  },
  {
    title: 'priority-fee result (levels when asked, possibly without the estimate)',
    schema: priorityFee.GetPriorityFeeEstimateResult,
    body: s.priorityFeeResult,
    at: [],
    objectSchema: priorityFee.GetPriorityFeeEstimateResult,
    fields: { priorityFeeEstimate: optNull('1'), priorityFeeLevels: opt(1) },
  },
  {
    title: 'token metadata record',
    schema: tokenMetadata.TokenMetadataResponse,
    body: [s.tokenMetadataRecord],
    at: [0],
    objectSchema: tokenMetadata.TokenMetadataRecord,
    fields: {
      account: req(1),
      onChainAccountInfo: req('x'),
      onChainMetadata: req('x'),
      offChainMetadata: opt('x'),
      legacyMetadata: reqNull('x'),
    },
  },
  {
    // The SDK and the published schema leave `active` out (default true); kinds and types
    // the app does not list stay as their text.
    title: 'webhook (webhookType, encoding, txnStatus)',
    schema: webhooks.ListWebhooksResponse,
    body: [s.webhook],
    at: [0],
    objectSchema: webhooks.Webhook,
    fields: {
      webhookID: req(1),
      wallet: req(1),
      webhookURL: req(1),
      transactionTypes: optNull([1]),
      accountAddresses: optNull('x'),
      authHeader: opt(1),
      active: opt('true'),
      webhookType: opt(1),
      encoding: opt(1),
      txnStatus: opt(1),
    },
  },
]

// JSON round trip, not structuredClone: samples share sub-objects, a mutation must hit one place.
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

function objectAt(root: unknown, path: (string | number)[]): Record<string, unknown> {
  let current: unknown = root
  for (const key of path) current = (current as Record<string | number, unknown>)[key]
  if (typeof current !== 'object' || current === null)
    throw new Error(`no object at ${path.join('.')}`)
  return current as Record<string, unknown>
}

function rejectionPaths(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body)
  return result.success ? [] : result.error.issues.map((i) => formatIssuePath(i.path))
}

describe.each(tables)('$title', (table) => {
  const fieldPath = (field: string) => formatIssuePath([...table.at, field])

  it('accepts the interface-shaped body as is', () => {
    expect(rejectionPaths(table.schema, table.body)).toEqual([])
  })

  it.skipIf(table.objectSchema === null)(
    'lists every field the schema declares, and nothing it does not',
    () => {
      expect(Object.keys(table.fields).sort()).toEqual(
        Object.keys(table.objectSchema?.shape ?? {}).sort(),
      )
    },
  )

  it('accepts an extra unknown field (the service adds fields over time)', () => {
    const body = clone(table.body)
    objectAt(body, table.at).someFutureField = { nested: [1, 2, 3] }
    expect(rejectionPaths(table.schema, body)).toEqual([])
  })

  for (const [field, verdict] of Object.entries(table.fields)) {
    it(`${field}: missing is ${verdict.required ? 'rejected' : 'accepted'}`, () => {
      const body = clone(table.body)
      delete objectAt(body, table.at)[field]
      const paths = rejectionPaths(table.schema, body)
      if (verdict.required) expect(paths).toContain(fieldPath(field))
      else expect(paths).toEqual([])
    })

    it(`${field}: null is ${verdict.nullable ? 'accepted' : 'rejected'}`, () => {
      const body = clone(table.body)
      objectAt(body, table.at)[field] = null
      const paths = rejectionPaths(table.schema, body)
      if (verdict.nullable) expect(paths).toEqual([])
      else
        expect(paths.some((p) => p === fieldPath(field) || p.startsWith(fieldPath(field)))).toBe(
          true,
        )
    })

    it.skipIf(verdict.wrong === NO_WRONG_TYPE)(
      `${field}: a value of the wrong type is rejected`,
      () => {
        const body = clone(table.body)
        objectAt(body, table.at)[field] = clone(verdict.wrong)
        const paths = rejectionPaths(table.schema, body)
        expect(paths.some((p) => p === fieldPath(field) || p.startsWith(fieldPath(field)))).toBe(
          true,
        )
      },
    )
  }
})

describe('nullable values inside envelopes', () => {
  it('getCompressedAccount value may be null', () => {
    expect(
      compression.GetCompressedAccountResult.safeParse({ context: { slot: 1 }, value: null })
        .success,
    ).toBe(true)
  })
  it('getMultipleCompressedAccounts items may be null', () => {
    expect(
      rejectionPaths(
        compression.GetMultipleCompressedAccountsResult,
        s.multipleCompressedAccountsResult,
      ),
    ).toEqual([])
  })
  it('compression cursors may be null or missing (the SDK types them optional): the end', () => {
    const body = clone(s.compressedTokenBalancesResult) as { value: Record<string, unknown> }
    body.value.cursor = null
    expect(
      compression.GetCompressedTokenBalancesByOwnerV2Result.parse(body).value.cursor,
    ).toBeNull()
    delete body.value.cursor
    expect(
      compression.GetCompressedTokenBalancesByOwnerV2Result.parse(body).value.cursor,
    ).toBeNull()
    body.value.cursor = 5
    expect(rejectionPaths(compression.GetCompressedTokenBalancesByOwnerV2Result, body)).toEqual([
      'value.cursor',
    ])
  })
  it('context.slot is required in every compression envelope', () => {
    expect(
      rejectionPaths(compression.GetCompressedBalanceByOwnerResult, { context: {}, value: 1 }),
    ).toEqual(['context.slot'])
  })
  it('getTransactionWithCompressionInfo accepts the 2.9 shape and rejects a bad nested account', () => {
    expect(
      rejectionPaths(
        compression.GetTransactionWithCompressionInfoResult,
        s.transactionWithCompressionInfoResult,
      ),
    ).toEqual([])
    const body = clone(s.transactionWithCompressionInfoResult)
    ;(body.compression_info.openedAccounts[0]!.account as Record<string, unknown>).lamports = '1'
    expect(rejectionPaths(compression.GetTransactionWithCompressionInfoResult, body)).toEqual([
      'compression_info.openedAccounts[0].account.lamports',
    ])
  })
  it('token-metadata parts carry an error string, empty for none', () => {
    const body = clone([s.tokenMetadataRecord])
    ;(body[0]!.onChainMetadata as Record<string, unknown>).error = null
    expect(rejectionPaths(tokenMetadata.TokenMetadataResponse, body)).toEqual([
      '[0].onChainMetadata.error',
    ])
  })
  it('getMultipleAccounts keeps a null for each missing account (Solana RPC)', () => {
    expect(rejectionPaths(rpc.GetMultipleAccountsResult, s.multipleAccountsResult)).toEqual([])
    expect(
      rpc.GetMultipleAccountsResult.safeParse({ context: { slot: 1 }, value: [null, null] })
        .success,
    ).toBe(true)
  })
  it('getBalance needs context.slot and a lamport count', () => {
    expect(rejectionPaths(rpc.GetBalanceResult, s.balanceResult)).toEqual([])
    expect(rejectionPaths(rpc.GetBalanceResult, { context: { slot: 1 }, value: -1 })).toEqual([
      'value',
    ])
  })
  it('keeps a history entry with a drifted amount aside, naming its deep path, and reads the rest', () => {
    const body = clone(s.historyBody)
    ;(body.data[1]!.balanceChanges[1] as Record<string, unknown>).amount = '15.2'
    const page = wallet.HistoryResponse.parse(body)
    expect(page.data.map((e) => e.signature)).toEqual([s.historyBody.data[0]!.signature])
    expect(page.keptAside).toEqual([
      {
        index: 1,
        key: s.historyBody.data[1]!.signature,
        reason: expect.stringMatching(/^balanceChanges\[1\]\.amount: /),
        raw: body.data[1],
      },
    ])
  })
})
