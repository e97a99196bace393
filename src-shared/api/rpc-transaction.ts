import { z } from 'zod'
import { Signature, WalletAddress } from './base58'
import { Integer } from './numbers'
import { ParsedTokenAmount, TransactionError } from './rpc'

// Standard Solana RPC getTransaction in the jsonParsed encoding: an archival call (10
// credits). A watched wallet's change is synced from it: the account keys, the balances
// before and after and the parsed transfer instructions name what moved and to whom.

/** getTransaction config: only the jsonParsed encoding is asked for; versioned transactions accepted. */
const GetTransactionConfig = z.strictObject({
  encoding: z.literal('jsonParsed'),
  maxSupportedTransactionVersion: z.literal(0),
  commitment: z.enum(['confirmed', 'finalized']).optional(),
})

/** getTransaction params: positional `[signature, config]` (Solana RPC). */
export const GetTransactionParams = z.tuple([Signature, GetTransactionConfig])
export type GetTransactionParams = z.input<typeof GetTransactionParams>

/** An account key of a parsed message: which accounts signed and which were written. */
const ParsedAccountKey = z.object({
  pubkey: WalletAddress,
  signer: z.boolean(),
  writable: z.boolean(),
  source: z.enum(['transaction', 'lookupTable']).optional(),
})

/** An instruction of a program the node parses (system, spl-token, spl-memo, …). */
export const ParsedInstruction = z.object({
  program: z.string(),
  programId: WalletAddress,
  parsed: z.unknown(),
  stackHeight: Integer.nullable().optional(),
})

/** An instruction of a program the node does not parse: accounts and base58 data. */
export const RawInstruction = z.object({
  programId: WalletAddress,
  accounts: z.array(WalletAddress),
  data: z.string(),
  stackHeight: Integer.nullable().optional(),
})

export const TransactionInstruction = z.union([ParsedInstruction, RawInstruction])
export type TransactionInstruction = z.infer<typeof TransactionInstruction>

/** A token account's balance before or after the transaction; `accountIndex` points into the keys. */
export const TransactionTokenBalance = z.object({
  accountIndex: Integer.min(0),
  mint: WalletAddress,
  owner: WalletAddress.optional(),
  programId: WalletAddress.optional(),
  uiTokenAmount: ParsedTokenAmount,
})
export type TransactionTokenBalance = z.infer<typeof TransactionTokenBalance>

/** What the transaction did: error, fee, lamports and token balances before and after. */
const TransactionMeta = z.object({
  err: TransactionError,
  fee: Integer.min(0),
  preBalances: z.array(Integer.min(0)),
  postBalances: z.array(Integer.min(0)),
  preTokenBalances: z.array(TransactionTokenBalance).optional(),
  postTokenBalances: z.array(TransactionTokenBalance).optional(),
  innerInstructions: z
    .array(z.object({ index: Integer.min(0), instructions: z.array(TransactionInstruction) }))
    .nullable()
    .optional(),
  logMessages: z.array(z.string()).nullable().optional(),
})

/** A confirmed transaction (jsonParsed), or null when the node does not know the signature. */
export const ConfirmedTransaction = z.object({
  slot: Integer.min(0),
  blockTime: Integer.nullable(),
  meta: TransactionMeta.nullable(),
  transaction: z.object({
    signatures: z.array(Signature).min(1),
    message: z.object({
      accountKeys: z.array(ParsedAccountKey).min(1),
      instructions: z.array(TransactionInstruction),
      recentBlockhash: z.string(),
    }),
  }),
  version: z.union([z.literal('legacy'), Integer]).optional(),
})
export type ConfirmedTransaction = z.infer<typeof ConfirmedTransaction>

export const GetTransactionResult = ConfirmedTransaction.nullable()
export type GetTransactionResult = z.infer<typeof GetTransactionResult>

/** Top-level instructions, each followed by the inner ones it invoked (the order they ran). */
export function executionOrder(tx: ConfirmedTransaction): TransactionInstruction[] {
  const inner = new Map((tx.meta?.innerInstructions ?? []).map((i) => [i.index, i.instructions]))
  return tx.transaction.message.instructions.flatMap((instruction, index) => [
    instruction,
    ...(inner.get(index) ?? []),
  ])
}
