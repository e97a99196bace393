import { findJsonRpcOperation, matchRestRoute } from '@shared/api/operations'
import type { OperationInput, OperationName } from '@shared/api/operations'
import type { Handler, RecordedRequest, Reply } from '../../helpers/recorded-server'
import * as s from '../../unit/api/interface-samples'

// One valid input and one recorded answer per operation; the mapped types make the
// compiler refuse a registry operation without both.

export const VALID_INPUTS: { [N in OperationName]: OperationInput<N> } = {
  'wallet.balances': {
    wallet: s.WALLET,
    page: 1,
    limit: 50,
    showNfts: true,
    showZeroBalance: false,
  },
  'wallet.history': {
    wallet: s.WALLET,
    limit: 2,
    before: s.SIG,
    type: 'SWAP',
    tokenAccounts: 'balanceChanged',
  },
  'wallet.transfers': { wallet: s.WALLET, limit: 2, cursor: 'opaque-cursor-0' },
  'wallet.identity': { wallet: 'example.sol' },
  'wallet.batchIdentity': { addresses: [s.WALLET, s.OTHER_WALLET] },
  'wallet.fundedBy': { wallet: s.WALLET },
  'wallet.balanceAt': { wallet: s.WALLET, mint: s.USDC_MINT, time: 1_700_000_000 },
  'das.getAssetBatch': { ids: [s.ASSET_ID] },
  'das.getAssetsByAuthority': { authorityAddress: s.OTHER_WALLET, page: 1, limit: 10 },
  'das.getAssetsByOwner': {
    ownerAddress: s.WALLET,
    page: 1,
    limit: 1000,
    sortBy: { sortBy: 'created', sortDirection: 'asc' },
    displayOptions: { showFungible: true },
  },
  'das.getTokenAccounts': { owner: s.WALLET, limit: 100, cursor: 'abc' },
  'compression.getCompressedAccountsByOwner': { owner: s.WALLET, limit: 10 },
  'compression.getCompressedTokenBalancesByOwnerV2': { owner: s.WALLET, mint: s.USDC_MINT },
  'compression.getCompressedBalanceByOwner': { owner: s.WALLET },
  'compression.getCompressedAccount': { hash: s.HASH },
  'compression.getMultipleCompressedAccounts': { hashes: [s.HASH, s.TREE] },
  'compression.getCompressionSignaturesForOwner': { owner: s.WALLET, limit: 1 },
  'compression.getCompressionSignaturesForTokenOwner': { owner: s.WALLET, cursor: 'c1' },
  'compression.getTransactionWithCompressionInfo': { signature: s.SIG },
  'compression.getValidityProof': { hashes: [s.HASH] },
  'rpc.getSignaturesForAddress': [s.WALLET, { limit: 2 }],
  'rpc.getTransaction': [s.SIG, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }],
  'rpc.getMultipleAccounts': [
    [s.WALLET, s.TOKEN_ACCOUNT, s.OTHER_WALLET],
    { encoding: 'base64', dataSlice: { offset: 64, length: 8 } },
  ],
  'rpc.getTokenAccountsByOwner': [
    s.WALLET,
    { programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' },
    { encoding: 'jsonParsed' },
  ],
  'rpc.getBalance': [s.WALLET, { commitment: 'confirmed' }],
  'priorityFee.getPriorityFeeEstimate': [
    {
      transaction: 'AQAB',
      options: { transactionEncoding: 'Base64', includeAllPriorityFeeLevels: true },
    },
  ],
  'tokenMetadata.getTokenMetadata': { mintAccounts: [s.USDC_MINT], includeOffChain: true },
  'webhooks.list': {},
  'webhooks.get': { webhookID: s.WEBHOOK_ID },
  'webhooks.create': {
    webhookURL: 'https://hooks.example.invalid/in',
    transactionTypes: ['ANY'],
    accountAddresses: [s.WALLET],
    webhookType: 'enhanced',
    authHeader: 'Bearer hook-secret',
  },
  'webhooks.update': { webhookID: s.WEBHOOK_ID, accountAddresses: [s.WALLET, s.OTHER_WALLET] },
  'webhooks.delete': { webhookID: s.WEBHOOK_ID },
  'webhooks.toggle': { webhookID: s.WEBHOOK_ID, active: false },
}

/** The payload (REST body or JSON-RPC result) recorded for each operation. */
export const RECORDED: { [N in OperationName]: unknown } = {
  'wallet.balances': s.balancesBody,
  'wallet.history': s.historyBody,
  'wallet.transfers': s.transfersBody,
  'wallet.identity': s.identityBody,
  'wallet.batchIdentity': s.batchIdentityBody,
  'wallet.fundedBy': s.fundedByBody,
  'wallet.balanceAt': s.balanceAtBody,
  'das.getAssetBatch': [s.asset],
  'das.getAssetsByAuthority': s.assetListResult,
  'das.getAssetsByOwner': s.assetListResult,
  'das.getTokenAccounts': s.tokenAccountsResult,
  'compression.getCompressedAccountsByOwner': s.compressedAccountsByOwnerResult,
  'compression.getCompressedTokenBalancesByOwnerV2': s.compressedTokenBalancesResult,
  'compression.getCompressedBalanceByOwner': s.compressedBalanceByOwnerResult,
  'compression.getCompressedAccount': s.compressedAccountResult,
  'compression.getMultipleCompressedAccounts': s.multipleCompressedAccountsResult,
  'compression.getCompressionSignaturesForOwner': s.compressionSignaturesResult,
  'compression.getCompressionSignaturesForTokenOwner': s.compressionSignaturesResult,
  'compression.getTransactionWithCompressionInfo': s.transactionWithCompressionInfoResult,
  'compression.getValidityProof': s.validityProofResult,
  'rpc.getSignaturesForAddress': s.signaturesForAddressResult,
  'rpc.getTransaction': s.transactionResult,
  'rpc.getMultipleAccounts': s.multipleAccountsResult,
  'rpc.getTokenAccountsByOwner': s.tokenAccountsByOwnerResult,
  'rpc.getBalance': s.balanceResult,
  'priorityFee.getPriorityFeeEstimate': s.priorityFeeResult,
  'tokenMetadata.getTokenMetadata': [s.tokenMetadataRecord],
  'webhooks.list': [s.webhook],
  'webhooks.get': s.webhook,
  'webhooks.create': s.webhook,
  'webhooks.update': s.webhook,
  'webhooks.delete': null,
  'webhooks.toggle': { ...s.webhook, active: false },
}

type Payload = { name: OperationName; payload: unknown } | undefined

/** Which operation a request addresses, by the registry's own routing helpers. */
export function routeOf(request: RecordedRequest): OperationName | undefined {
  if (request.method === 'POST' && request.path === '/') {
    const method = (request.json as { method?: unknown } | undefined)?.method
    return typeof method === 'string' ? findJsonRpcOperation(method) : undefined
  }
  return matchRestRoute(request.method, request.path)?.name
}

/** Answers every operation with its recorded payload; `override` can change one answer. */
export function recordedHandler(
  override?: (name: OperationName, request: RecordedRequest) => Payload | Reply,
): Handler {
  return (request) => {
    const name = routeOf(request)
    if (name === undefined) return { status: 404, json: { error: 'no such route' } }
    const custom = override?.(name, request)
    if (custom !== undefined && !('name' in custom)) return custom
    const payload = custom?.payload ?? RECORDED[name]
    if (request.path !== '/') {
      if (name === 'webhooks.delete') return { status: 200, text: '' }
      return { json: payload }
    }
    const id = (request.json as { id?: unknown }).id
    return { json: { jsonrpc: '2.0', id, result: payload } }
  }
}
