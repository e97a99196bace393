import { z } from 'zod'
import { Signature, WalletAddress } from './base58'
import { Integer } from './numbers'

// Standard Solana RPC methods the sync engine uses. Not in the interface text: the JSON-RPC
// endpoint is a Solana RPC node, and getSignaturesForAddress is its cheapest change probe.

/** Commitment levels of standard Solana RPC. */
const Commitment = z.enum(['processed', 'confirmed', 'finalized'])

/** getSignaturesForAddress config: limit 1–1000, before/until signatures (Solana RPC). */
const SignaturesForAddressConfig = z.strictObject({
  limit: Integer.min(1).max(1000).optional(),
  before: Signature.optional(),
  until: Signature.optional(),
  commitment: Commitment.optional(),
  minContextSlot: Integer.min(0).optional(),
})

/** getSignaturesForAddress params: positional `[address, config?]` (Solana RPC). */
export const GetSignaturesForAddressParams = z.union([
  z.tuple([WalletAddress]),
  z.tuple([WalletAddress, SignaturesForAddressConfig]),
])
export type GetSignaturesForAddressParams = z.input<typeof GetSignaturesForAddressParams>

/** Transaction error of Solana RPC: null, a string ("AccountInUse") or an object ({InstructionError: …}). */
const TransactionError = z.union([z.null(), z.string(), z.record(z.string(), z.unknown())])

/** One signature, newest first (Solana RPC getSignaturesForAddress). */
export const SignatureInfo = z.object({
  signature: z.string(),
  slot: Integer,
  err: TransactionError,
  memo: z.string().nullable(),
  blockTime: Integer.nullable(),
  confirmationStatus: Commitment.nullable(),
})
export type SignatureInfo = z.infer<typeof SignatureInfo>

/** getSignaturesForAddress result (Solana RPC). */
export const GetSignaturesForAddressResult = z.array(SignatureInfo)
export type GetSignaturesForAddressResult = z.infer<typeof GetSignaturesForAddressResult>
