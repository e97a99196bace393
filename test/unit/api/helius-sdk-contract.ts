import type { z } from 'zod'
import type { GetAssetResponseList, GetTokenAccountsResponse } from 'helius-sdk/types/das'
import type { EnhancedTransaction as SdkEnhancedTransaction } from 'helius-sdk/enhanced/types'
import type { GetAssetBatchResponse, GetPriorityFeeEstimateResponse } from 'helius-sdk/types/types'
import type { Webhook as SdkWebhook } from 'helius-sdk/types/webhooks'
import type {
  GetBalanceAtResponse,
  GetBalancesResponse,
  GetBatchIdentityResponse,
  GetFundedByResponse,
  GetHistoryResponse,
  GetIdentityResponse,
  GetTransfersResponse,
} from 'helius-sdk/wallet/types'
import type {
  GetCompressedAccountResponse,
  GetCompressedAccountsByOwnerResponse,
  GetCompressedBalanceByOwnerResponse,
  GetCompressedTokenBalancesByOwnerV2Response,
  GetCompressionSignaturesForOwnerResponse,
  GetCompressionSignaturesForTokenOwnerResponse,
  GetMultipleCompressedAccountsResponse,
  GetTransactionWithCompressionInfoResponse,
  GetValidityProofResponse,
} from 'helius-sdk/zk/types'
import type { OperationName, Operations } from '@shared/api/operations'
import type { EnhancedTransaction } from '@shared/api/webhook-delivery'

// The contract with the real service, checked by the compiler (`npm run typecheck`
// compiles this file): for every operation the service's own TypeScript SDK (helius-sdk,
// pinned in package.json) types, the SDK's answer type must be a value the app's response
// schema accepts (its input type, `z.input`). A schema made stricter than the SDK — a field
// it requires that the SDK leaves optional, a null it refuses, an enum narrower than the
// SDK's string — fails the build here, naming the field. docs/service.md, "What the app
// accepts from the service", lists where the SDK and the interface text differ.

/**
 * What an SDK type says of the wire: JSON numbers where the SDK widened to bigint (JSON
 * cannot carry one), arrays where it says readonly (a parsed body is a plain array).
 */
type Wire<T> = T extends bigint
  ? number
  : T extends readonly (infer Item)[]
    ? Wire<Item>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T

/** Compiles only when the schema accepts every answer the SDK's type allows. */
type Accepts<Schema extends z.ZodType, SdkAnswer extends z.input<Schema>> = SdkAnswer

/** The response schema of an operation. */
type Response<N extends OperationName> = Operations[N]['response']

/**
 * Which operations the SDK types: the SDK type checked, or why none is (the coverage test,
 * helius-sdk-contract.test.ts, holds this list to the operation registry).
 */
export const SDK_COVERAGE = {
  'wallet.balances': 'helius-sdk/wallet/types GetBalancesResponse',
  'wallet.history': 'helius-sdk/wallet/types GetHistoryResponse',
  'wallet.transfers': 'helius-sdk/wallet/types GetTransfersResponse',
  'wallet.identity': 'helius-sdk/wallet/types GetIdentityResponse',
  'wallet.batchIdentity': 'helius-sdk/wallet/types GetBatchIdentityResponse',
  'wallet.fundedBy': 'helius-sdk/wallet/types GetFundedByResponse',
  'wallet.balanceAt': 'helius-sdk/wallet/types GetBalanceAtResponse',
  'das.getAssetBatch': 'helius-sdk/types/types GetAssetBatchResponse',
  'das.getAssetsByAuthority': 'helius-sdk/types/das GetAssetResponseList',
  'das.getAssetsByOwner': 'helius-sdk/types/das GetAssetResponseList',
  'das.getTokenAccounts': 'helius-sdk/types/das GetTokenAccountsResponse',
  'compression.getCompressedAccountsByOwner':
    'helius-sdk/zk/types GetCompressedAccountsByOwnerResponse',
  'compression.getCompressedTokenBalancesByOwnerV2':
    'helius-sdk/zk/types GetCompressedTokenBalancesByOwnerV2Response',
  'compression.getCompressedBalanceByOwner':
    'helius-sdk/zk/types GetCompressedBalanceByOwnerResponse',
  'compression.getCompressedAccount': 'helius-sdk/zk/types GetCompressedAccountResponse',
  'compression.getMultipleCompressedAccounts':
    'helius-sdk/zk/types GetMultipleCompressedAccountsResponse',
  'compression.getCompressionSignaturesForOwner':
    'helius-sdk/zk/types GetCompressionSignaturesForOwnerResponse',
  'compression.getCompressionSignaturesForTokenOwner':
    'helius-sdk/zk/types GetCompressionSignaturesForTokenOwnerResponse',
  'compression.getTransactionWithCompressionInfo':
    'helius-sdk/zk/types GetTransactionWithCompressionInfoResponse',
  'compression.getValidityProof': 'helius-sdk/zk/types GetValidityProofResponse',
  'priorityFee.getPriorityFeeEstimate': 'helius-sdk/types/types GetPriorityFeeEstimateResponse',
  'webhooks.list': 'helius-sdk/types/webhooks Webhook[]',
  'webhooks.get': 'helius-sdk/types/webhooks Webhook',
  'webhooks.create': 'helius-sdk/types/webhooks Webhook',
  'webhooks.update': 'helius-sdk/types/webhooks Webhook',
  'webhooks.toggle': 'helius-sdk/types/webhooks Webhook',
  'webhooks.delete': 'helius-sdk/webhooks/client delete(): Promise<boolean>',
  // Standard Solana RPC goes through @solana/kit, whose types describe values after its
  // own transformers (u64 as bigint, branded addresses), not the JSON the service sends:
  // the corpus of captured answers (test/fixtures/service) checks these instead.
  'rpc.getSignaturesForAddress': null,
  'rpc.getTransaction': null,
  'rpc.getMultipleAccounts': null,
  'rpc.getTokenAccountsByOwner': null,
  'rpc.getBalance': null,
  // The deprecated token-metadata endpoint is not in helius-sdk 3.x.
  'tokenMetadata.getTokenMetadata': null,
} as const satisfies Record<OperationName, string | null>

/** The operations the SDK types. */
type Covered = {
  [N in OperationName]: (typeof SDK_COVERAGE)[N] extends string ? N : never
}[OperationName]

/** One line per covered operation: the SDK's answer, as the wire carries it. */
interface SdkContract {
  'wallet.balances': Accepts<Response<'wallet.balances'>, Wire<GetBalancesResponse>>
  'wallet.history': Accepts<Response<'wallet.history'>, Wire<GetHistoryResponse>>
  'wallet.transfers': Accepts<Response<'wallet.transfers'>, Wire<GetTransfersResponse>>
  'wallet.identity': Accepts<Response<'wallet.identity'>, Wire<GetIdentityResponse>>
  'wallet.batchIdentity': Accepts<Response<'wallet.batchIdentity'>, Wire<GetBatchIdentityResponse>>
  'wallet.fundedBy': Accepts<Response<'wallet.fundedBy'>, Wire<GetFundedByResponse>>
  'wallet.balanceAt': Accepts<Response<'wallet.balanceAt'>, Wire<GetBalanceAtResponse>>
  'das.getAssetBatch': Accepts<Response<'das.getAssetBatch'>, Wire<GetAssetBatchResponse>>
  'das.getAssetsByAuthority': Accepts<
    Response<'das.getAssetsByAuthority'>,
    Wire<GetAssetResponseList>
  >
  'das.getAssetsByOwner': Accepts<Response<'das.getAssetsByOwner'>, Wire<GetAssetResponseList>>
  'das.getTokenAccounts': Accepts<Response<'das.getTokenAccounts'>, Wire<GetTokenAccountsResponse>>
  'compression.getCompressedAccountsByOwner': Accepts<
    Response<'compression.getCompressedAccountsByOwner'>,
    Wire<GetCompressedAccountsByOwnerResponse>
  >
  'compression.getCompressedTokenBalancesByOwnerV2': Accepts<
    Response<'compression.getCompressedTokenBalancesByOwnerV2'>,
    Wire<GetCompressedTokenBalancesByOwnerV2Response>
  >
  'compression.getCompressedBalanceByOwner': Accepts<
    Response<'compression.getCompressedBalanceByOwner'>,
    Wire<GetCompressedBalanceByOwnerResponse>
  >
  'compression.getCompressedAccount': Accepts<
    Response<'compression.getCompressedAccount'>,
    Wire<GetCompressedAccountResponse>
  >
  'compression.getMultipleCompressedAccounts': Accepts<
    Response<'compression.getMultipleCompressedAccounts'>,
    Wire<GetMultipleCompressedAccountsResponse>
  >
  'compression.getCompressionSignaturesForOwner': Accepts<
    Response<'compression.getCompressionSignaturesForOwner'>,
    Wire<GetCompressionSignaturesForOwnerResponse>
  >
  'compression.getCompressionSignaturesForTokenOwner': Accepts<
    Response<'compression.getCompressionSignaturesForTokenOwner'>,
    Wire<GetCompressionSignaturesForTokenOwnerResponse>
  >
  'compression.getTransactionWithCompressionInfo': Accepts<
    Response<'compression.getTransactionWithCompressionInfo'>,
    Wire<GetTransactionWithCompressionInfoResponse>
  >
  'compression.getValidityProof': Accepts<
    Response<'compression.getValidityProof'>,
    Wire<GetValidityProofResponse>
  >
  'priorityFee.getPriorityFeeEstimate': Accepts<
    Response<'priorityFee.getPriorityFeeEstimate'>,
    Wire<GetPriorityFeeEstimateResponse>
  >
  'webhooks.list': Accepts<Response<'webhooks.list'>, Wire<SdkWebhook[]>>
  'webhooks.get': Accepts<Response<'webhooks.get'>, Wire<SdkWebhook>>
  'webhooks.create': Accepts<Response<'webhooks.create'>, Wire<SdkWebhook>>
  'webhooks.update': Accepts<Response<'webhooks.update'>, Wire<SdkWebhook>>
  'webhooks.toggle': Accepts<Response<'webhooks.toggle'>, Wire<SdkWebhook>>
  'webhooks.delete': Accepts<Response<'webhooks.delete'>, boolean>
}

/**
 * A webhook delivery carries the service's enhanced transactions (its SDK's
 * `EnhancedTransaction`, as POST /v0/transactions answers them): the schema a delivery is
 * read with for writing must accept every one the SDK's type allows.
 */
export type DeliveryContract = Accepts<typeof EnhancedTransaction, Wire<SdkEnhancedTransaction>>

/** True when two key sets are the same. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** Every covered operation has its line above, and no other. */
export const EVERY_COVERED_OPERATION_CHECKED: SameKeys<keyof SdkContract, Covered> = true
