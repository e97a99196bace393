import type { z } from 'zod'
import type { OperationName, Operations } from '@shared/api/operations'
import * as compression from './compression-methods'
import * as das from './das-methods'
import type { HandlerContext } from './handler-context'
import * as rpcAccounts from './rpc-account-methods'
import * as rpc from './rpc-methods'
import * as v0 from './v0-routes'
import * as wallet from './wallet-routes'

// One handler per operation of the shared registry (src-shared/api/operations.ts): the
// registry gives path, schemas and billing; this table gives the simulated behaviour.

type Handler<N extends OperationName> = (
  input: z.output<Operations[N]['request']>,
  ctx: HandlerContext,
) => unknown

const OPERATION_HANDLERS: { [N in OperationName]: Handler<N> } = {
  'wallet.balances': wallet.getBalances,
  'wallet.history': wallet.getHistory,
  'wallet.transfers': wallet.getTransfers,
  'wallet.identity': wallet.getIdentity,
  'wallet.batchIdentity': wallet.postBatchIdentity,
  'wallet.fundedBy': wallet.getFundedBy,
  'wallet.balanceAt': wallet.getBalanceAt,
  'das.getAssetBatch': das.getAssetBatch,
  'das.getAssetsByAuthority': das.getAssetsByAuthority,
  'das.getAssetsByOwner': das.getAssetsByOwner,
  'das.getTokenAccounts': das.getTokenAccounts,
  'compression.getCompressedAccountsByOwner': compression.getCompressedAccountsByOwner,
  'compression.getCompressedTokenBalancesByOwnerV2':
    compression.getCompressedTokenBalancesByOwnerV2,
  'compression.getCompressedBalanceByOwner': compression.getCompressedBalanceByOwner,
  'compression.getCompressedAccount': compression.getCompressedAccount,
  'compression.getMultipleCompressedAccounts': compression.getMultipleCompressedAccounts,
  'compression.getCompressionSignaturesForOwner': compression.getCompressionSignaturesForOwner,
  'compression.getCompressionSignaturesForTokenOwner':
    compression.getCompressionSignaturesForTokenOwner,
  'compression.getTransactionWithCompressionInfo': compression.getTransactionWithCompressionInfo,
  'compression.getValidityProof': compression.getValidityProof,
  'rpc.getSignaturesForAddress': rpc.getSignaturesForAddress,
  'rpc.getTransaction': rpc.getTransaction,
  'rpc.getMultipleAccounts': rpcAccounts.getMultipleAccounts,
  'rpc.getTokenAccountsByOwner': rpcAccounts.getTokenAccountsByOwner,
  'rpc.getBalance': rpcAccounts.getBalance,
  'priorityFee.getPriorityFeeEstimate': rpc.getPriorityFeeEstimate,
  'tokenMetadata.getTokenMetadata': v0.postTokenMetadata,
  'webhooks.list': v0.listWebhooks,
  'webhooks.get': v0.getWebhook,
  'webhooks.create': v0.createWebhook,
  'webhooks.update': v0.updateWebhook,
  'webhooks.delete': v0.deleteWebhook,
  'webhooks.toggle': v0.toggleWebhook,
}

/** Runs the handler of an operation on already-validated input. */
export function runHandler(name: OperationName, input: unknown, ctx: HandlerContext): unknown {
  const handler = OPERATION_HANDLERS[name] as (input: unknown, ctx: HandlerContext) => unknown
  return handler(input, ctx)
}
