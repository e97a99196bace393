import type { z } from 'zod'
import * as compression from './compression'
import * as das from './das'
import { FAMILY_BILLING } from './prices'
import type { EndpointClass, PriceKey } from './prices'
import * as priorityFee from './priority-fee'
import * as rpc from './rpc'
import * as rpcTransaction from './rpc-transaction'
import * as tokenMetadata from './token-metadata'
import * as wallet from './wallet-rest'
import * as webhooks from './webhooks'

// Every operation of the interface, once: wire form, schemas and billing. The client builds
// its methods from this table, the simulator routes with it, the sync engine prices with it.

/** HTTP methods used by the REST endpoints (wallet REST, token metadata, webhooks). */
type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** How the API key travels: header for the wallet REST, query elsewhere (docs/service.md, Auth). */
export type Transport = 'wallet-rest' | 'v0-rest' | 'json-rpc'

interface Billing {
  readonly priceKey: PriceKey
  readonly endpointClass: EndpointClass
}

/** A REST operation: `{name}` segments of `path` are filled from the request; the rest goes to the query (GET, DELETE) or the JSON body. */
export interface RestOperation<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
> extends Billing {
  readonly transport: 'wallet-rest' | 'v0-rest'
  readonly httpMethod: HttpMethod
  readonly path: string
  readonly request: Req
  readonly response: Res
  readonly deprecated?: boolean
}

/** A JSON-RPC operation: the request schema is the envelope's `params`, the response schema its `result`. */
export interface JsonRpcOperation<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
> extends Billing {
  readonly transport: 'json-rpc'
  readonly rpcMethod: string
  readonly request: Req
  readonly response: Res
  readonly deprecated?: boolean
}

export type Operation = RestOperation | JsonRpcOperation

function walletRest<Req extends z.ZodType, Res extends z.ZodType>(
  httpMethod: HttpMethod,
  path: string,
  request: Req,
  response: Res,
) {
  return {
    transport: 'wallet-rest',
    httpMethod,
    path,
    request,
    response,
    ...FAMILY_BILLING.wallet,
  } as const
}

function v0Rest<Req extends z.ZodType, Res extends z.ZodType>(
  httpMethod: HttpMethod,
  path: string,
  request: Req,
  response: Res,
  billing: Billing,
) {
  return { transport: 'v0-rest', httpMethod, path, request, response, ...billing } as const
}

function jsonRpc<M extends string, Req extends z.ZodType, Res extends z.ZodType>(
  rpcMethod: M,
  request: Req,
  response: Res,
  billing: Billing,
) {
  return { transport: 'json-rpc', rpcMethod, request, response, ...billing } as const
}

/** The operation registry: every operation of the service that docs/service.md lists. */
export const OPERATIONS = {
  // Wallet REST: 100 credits a call.
  'wallet.balances': walletRest(
    'GET',
    '/v1/wallet/{wallet}/balances',
    wallet.BalancesQuery,
    wallet.BalancesResponse,
  ),
  'wallet.history': walletRest(
    'GET',
    '/v1/wallet/{wallet}/history',
    wallet.HistoryQuery,
    wallet.HistoryResponse,
  ),
  'wallet.transfers': walletRest(
    'GET',
    '/v1/wallet/{wallet}/transfers',
    wallet.TransfersQuery,
    wallet.TransfersResponse,
  ),
  'wallet.identity': walletRest(
    'GET',
    '/v1/wallet/{wallet}/identity',
    wallet.IdentityQuery,
    wallet.IdentityResponse,
  ),
  'wallet.batchIdentity': walletRest(
    'POST',
    '/v1/wallet/batch-identity',
    wallet.BatchIdentityRequest,
    wallet.BatchIdentityResponse,
  ),
  'wallet.fundedBy': walletRest(
    'GET',
    '/v1/wallet/{wallet}/funded-by',
    wallet.FundedByQuery,
    wallet.FundedByResponse,
  ),
  'wallet.balanceAt': walletRest(
    'GET',
    '/v1/wallet/{wallet}/balance-at',
    wallet.BalanceAtQuery,
    wallet.BalanceAtResponse,
  ),

  // DAS JSON-RPC: 10 credits a call.
  'das.getAssetBatch': jsonRpc(
    'getAssetBatch',
    das.GetAssetBatchParams,
    das.GetAssetBatchResult,
    FAMILY_BILLING.das,
  ),
  'das.getAssetsByAuthority': jsonRpc(
    'getAssetsByAuthority',
    das.GetAssetsByAuthorityParams,
    das.GetAssetsByAuthorityResult,
    FAMILY_BILLING.das,
  ),
  'das.getAssetsByOwner': jsonRpc(
    'getAssetsByOwner',
    das.GetAssetsByOwnerParams,
    das.GetAssetsByOwnerResult,
    FAMILY_BILLING.das,
  ),
  'das.getTokenAccounts': jsonRpc(
    'getTokenAccounts',
    das.GetTokenAccountsParams,
    das.GetTokenAccountsResult,
    FAMILY_BILLING.das,
  ),

  // Compression JSON-RPC: 10 credits a call, getValidityProof 100.
  'compression.getCompressedAccountsByOwner': jsonRpc(
    'getCompressedAccountsByOwner',
    compression.GetCompressedAccountsByOwnerParams,
    compression.GetCompressedAccountsByOwnerResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getCompressedTokenBalancesByOwnerV2': jsonRpc(
    'getCompressedTokenBalancesByOwnerV2',
    compression.GetCompressedTokenBalancesByOwnerV2Params,
    compression.GetCompressedTokenBalancesByOwnerV2Result,
    FAMILY_BILLING.compression,
  ),
  'compression.getCompressedBalanceByOwner': jsonRpc(
    'getCompressedBalanceByOwner',
    compression.GetCompressedBalanceByOwnerParams,
    compression.GetCompressedBalanceByOwnerResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getCompressedAccount': jsonRpc(
    'getCompressedAccount',
    compression.GetCompressedAccountParams,
    compression.GetCompressedAccountResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getMultipleCompressedAccounts': jsonRpc(
    'getMultipleCompressedAccounts',
    compression.GetMultipleCompressedAccountsParams,
    compression.GetMultipleCompressedAccountsResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getCompressionSignaturesForOwner': jsonRpc(
    'getCompressionSignaturesForOwner',
    compression.GetCompressionSignaturesForOwnerParams,
    compression.GetCompressionSignaturesForOwnerResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getCompressionSignaturesForTokenOwner': jsonRpc(
    'getCompressionSignaturesForTokenOwner',
    compression.GetCompressionSignaturesForTokenOwnerParams,
    compression.GetCompressionSignaturesForTokenOwnerResult,
    FAMILY_BILLING.compression,
  ),
  'compression.getTransactionWithCompressionInfo': jsonRpc(
    'getTransactionWithCompressionInfo',
    compression.GetTransactionWithCompressionInfoParams,
    compression.GetTransactionWithCompressionInfoResult,
    FAMILY_BILLING.compression,
  ),
  // 100 credits and its own rate class (docs/service.md, Rate limits).
  'compression.getValidityProof': jsonRpc(
    'getValidityProof',
    compression.GetValidityProofParams,
    compression.GetValidityProofResult,
    FAMILY_BILLING.validityProof,
  ),

  // Standard Solana RPC: archival signature listings and transactions, 1-credit account reads.
  'rpc.getSignaturesForAddress': jsonRpc(
    'getSignaturesForAddress',
    rpc.GetSignaturesForAddressParams,
    rpc.GetSignaturesForAddressResult,
    FAMILY_BILLING.rpcArchival,
  ),
  'rpc.getTransaction': jsonRpc(
    'getTransaction',
    rpcTransaction.GetTransactionParams,
    rpcTransaction.GetTransactionResult,
    FAMILY_BILLING.rpcArchival,
  ),
  'rpc.getMultipleAccounts': jsonRpc(
    'getMultipleAccounts',
    rpc.GetMultipleAccountsParams,
    rpc.GetMultipleAccountsResult,
    FAMILY_BILLING.rpcStandard,
  ),
  'rpc.getTokenAccountsByOwner': jsonRpc(
    'getTokenAccountsByOwner',
    rpc.GetTokenAccountsByOwnerParams,
    rpc.GetTokenAccountsByOwnerResult,
    FAMILY_BILLING.rpcStandard,
  ),
  'rpc.getBalance': jsonRpc(
    'getBalance',
    rpc.GetBalanceParams,
    rpc.GetBalanceResult,
    FAMILY_BILLING.rpcStandard,
  ),

  // Priority fee: 1 credit.
  'priorityFee.getPriorityFeeEstimate': jsonRpc(
    'getPriorityFeeEstimate',
    priorityFee.GetPriorityFeeEstimateParams,
    priorityFee.GetPriorityFeeEstimateResult,
    FAMILY_BILLING.priorityFee,
  ),

  // Deprecated token metadata (replaced by DAS getAssetBatch).
  'tokenMetadata.getTokenMetadata': {
    ...v0Rest(
      'POST',
      '/v0/token-metadata',
      tokenMetadata.TokenMetadataRequest,
      tokenMetadata.TokenMetadataResponse,
      FAMILY_BILLING.tokenMetadata,
    ),
    deprecated: true,
  },

  // Webhooks: list, read, create, update, delete and the PATCH toggle; 100 credits each.
  'webhooks.list': v0Rest(
    'GET',
    '/v0/webhooks',
    webhooks.ListWebhooksRequest,
    webhooks.ListWebhooksResponse,
    FAMILY_BILLING.webhooks,
  ),
  'webhooks.get': v0Rest(
    'GET',
    '/v0/webhooks/{webhookID}',
    webhooks.GetWebhookRequest,
    webhooks.GetWebhookResponse,
    FAMILY_BILLING.webhooks,
  ),
  'webhooks.create': v0Rest(
    'POST',
    '/v0/webhooks',
    webhooks.CreateWebhookRequest,
    webhooks.CreateWebhookResponse,
    FAMILY_BILLING.webhooks,
  ),
  'webhooks.update': v0Rest(
    'PUT',
    '/v0/webhooks/{webhookID}',
    webhooks.UpdateWebhookRequest,
    webhooks.UpdateWebhookResponse,
    FAMILY_BILLING.webhooks,
  ),
  'webhooks.delete': v0Rest(
    'DELETE',
    '/v0/webhooks/{webhookID}',
    webhooks.DeleteWebhookRequest,
    webhooks.DeleteWebhookResponse,
    FAMILY_BILLING.webhooks,
  ),
  'webhooks.toggle': v0Rest(
    'PATCH',
    '/v0/webhooks/{webhookID}',
    webhooks.ToggleWebhookRequest,
    webhooks.ToggleWebhookResponse,
    FAMILY_BILLING.webhooks,
  ),
} as const

export type Operations = typeof OPERATIONS
export type OperationName = keyof Operations
/** What a caller passes for an operation (path + query/body, or JSON-RPC params). */
export type OperationInput<N extends OperationName> = z.input<Operations[N]['request']>
/** What an operation returns after validation. */
export type OperationOutput<N extends OperationName> = z.output<Operations[N]['response']>
export type JsonRpcOperationName = {
  [N in OperationName]: Operations[N]['transport'] extends 'json-rpc' ? N : never
}[OperationName]
type RestOperationName = Exclude<OperationName, JsonRpcOperationName>

/** All operation names, in registry order. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[]

/** The registry entry of an operation. */
export function getOperation<N extends OperationName>(name: N): Operations[N] {
  return OPERATIONS[name]
}

/** Names of the `{param}` segments of a path template, e.g. ['wallet']. */
export function pathParamNames(pathTemplate: string): string[] {
  return [...pathTemplate.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '')
}

/** Fills a path template; values are URI-encoded. */
export function fillPath(pathTemplate: string, values: Record<string, unknown>): string {
  return pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name])),
  )
}

/** The JSON-RPC operation serving a method name, for routing a request envelope. */
export function findJsonRpcOperation(rpcMethod: string): JsonRpcOperationName | undefined {
  return OPERATION_NAMES.find((n) => {
    const op: Operation = OPERATIONS[n]
    return op.transport === 'json-rpc' && op.rpcMethod === rpcMethod
  }) as JsonRpcOperationName | undefined
}

/** The REST operation serving an HTTP method and path, with its decoded path parameters. */
export function matchRestRoute(
  httpMethod: string,
  pathname: string,
): { name: RestOperationName; pathParams: Record<string, string> } | undefined {
  const segments = pathname.replace(/\/+$/, '').split('/')
  for (const name of OPERATION_NAMES) {
    const op: Operation = OPERATIONS[name]
    if (op.transport === 'json-rpc' || op.httpMethod !== httpMethod.toUpperCase()) continue
    const template = op.path.split('/')
    if (template.length !== segments.length) continue
    const pathParams: Record<string, string> = {}
    const isMatch = template.every((part, i) => {
      const segment = segments[i] ?? ''
      const param = /^\{(\w+)\}$/.exec(part)?.[1]
      if (param === undefined) return part === segment
      if (segment === '') return false
      pathParams[param] = decodeURIComponent(segment)
      return true
    })
    if (isMatch) return { name: name as RestOperationName, pathParams }
  }
  return undefined
}
