import { z } from 'zod'
import { EndCursor, knownOrNull } from './answer-edge'
import { Base58Hash, Signature, WalletAddress } from './base58'
import { Integer, IntegerAmount } from './numbers'

// Compression JSON-RPC (docs/service.md, Compression). Params are named objects. Results
// are read at the edge (answer-edge.ts): what the SDK's types leave out reads as null.

/** Page size of compression listings: default and maximum 1000. */
export const COMPRESSION_MAX_LIMIT = 1000

/** `{ context: { slot }, value }` envelope of compression results. */
function compressionEnvelope<V extends z.ZodType>(value: V) {
  // context.slot = newest slot the indexer has processed.
  return z.object({ context: z.object({ slot: Integer }), value })
}

/**
 * Compressed account; `address` is null (or absent) for accounts without one, and `data`
 * absent for accounts that hold none (both read as null).
 */
export const CompressedAccount = z.object({
  hash: z.string(),
  lamports: IntegerAmount,
  leafIndex: Integer,
  owner: z.string(),
  seq: Integer,
  slotCreated: Integer,
  tree: z.string(),
  address: knownOrNull(z.string()),
  data: knownOrNull(
    z.object({ data: z.string(), dataHash: z.string(), discriminator: IntegerAmount }),
  ),
})
export type CompressedAccount = z.infer<typeof CompressedAccount>

/** Compressed token balance: `{ balance, mint }`. */
const CompressedTokenBalance = z.object({ balance: IntegerAmount, mint: z.string() })

/** Compression signature item; `error` is optional. */
export const CompressionSignature = z.object({
  blockTime: Integer,
  signature: z.string(),
  slot: Integer,
  error: z.string().nullable().optional(),
})
export type CompressionSignature = z.infer<typeof CompressionSignature>

/** A cursor is null (or absent) when fewer than `limit` items come back. */
const NullableCursor = EndCursor

const pagingParams = {
  cursor: z.string().min(1).nullable().optional(),
  limit: Integer.min(1).max(COMPRESSION_MAX_LIMIT).optional(),
}

/** memcmp filter (element shape undocumented; Photon's memcmp form, uncertain). */
const CompressedAccountFilter = z.strictObject({
  memcmp: z.strictObject({ offset: Integer.min(0), bytes: z.string().min(1) }),
})

/** getCompressedAccountsByOwner params; at most 5 filters. */
export const GetCompressedAccountsByOwnerParams = z.strictObject({
  owner: WalletAddress,
  filters: z.array(CompressedAccountFilter).max(5).optional(),
  dataSlice: z.strictObject({ offset: Integer.min(0), length: Integer.min(0) }).optional(),
  ...pagingParams,
})
export type GetCompressedAccountsByOwnerParams = z.input<typeof GetCompressedAccountsByOwnerParams>

/** getCompressedAccountsByOwner result; ascending by hash, cursor = last hash. */
export const GetCompressedAccountsByOwnerResult = compressionEnvelope(
  z.object({ items: z.array(CompressedAccount), cursor: NullableCursor }),
)
export type GetCompressedAccountsByOwnerResult = z.infer<typeof GetCompressedAccountsByOwnerResult>

/** getCompressedTokenBalancesByOwnerV2 params; `mint` is optional. */
export const GetCompressedTokenBalancesByOwnerV2Params = z.strictObject({
  owner: WalletAddress,
  mint: WalletAddress.nullable().optional(),
  ...pagingParams,
})
export type GetCompressedTokenBalancesByOwnerV2Params = z.input<
  typeof GetCompressedTokenBalancesByOwnerV2Params
>

/** getCompressedTokenBalancesByOwnerV2 result; cursor = mint. */
export const GetCompressedTokenBalancesByOwnerV2Result = compressionEnvelope(
  z.object({ items: z.array(CompressedTokenBalance), cursor: NullableCursor }),
)
export type GetCompressedTokenBalancesByOwnerV2Result = z.infer<
  typeof GetCompressedTokenBalancesByOwnerV2Result
>

/** getCompressedBalanceByOwner params. */
export const GetCompressedBalanceByOwnerParams = z.strictObject({ owner: WalletAddress })
export type GetCompressedBalanceByOwnerParams = z.input<typeof GetCompressedBalanceByOwnerParams>

/** getCompressedBalanceByOwner result: total lamports of the owner's compressed accounts. */
export const GetCompressedBalanceByOwnerResult = compressionEnvelope(IntegerAmount)
export type GetCompressedBalanceByOwnerResult = z.infer<typeof GetCompressedBalanceByOwnerResult>

/** getCompressedAccount params: address or hash. */
export const GetCompressedAccountParams = z
  .strictObject({
    address: Base58Hash.nullable().optional(),
    hash: Base58Hash.nullable().optional(),
  })
  .refine((p) => (p.address ?? null) !== null || (p.hash ?? null) !== null, {
    message: 'give address or hash',
    path: ['address'],
  })
export type GetCompressedAccountParams = z.input<typeof GetCompressedAccountParams>

/** getCompressedAccount result; `value` may be null. */
export const GetCompressedAccountResult = compressionEnvelope(CompressedAccount.nullable())
export type GetCompressedAccountResult = z.infer<typeof GetCompressedAccountResult>

/** getMultipleCompressedAccounts params: hashes or addresses, not both, ≤1000. */
export const GetMultipleCompressedAccountsParams = z
  .strictObject({
    addresses: z.array(Base58Hash).min(1).max(1000).nullable().optional(),
    hashes: z.array(Base58Hash).min(1).max(1000).nullable().optional(),
  })
  .refine((p) => (p.addresses == null) !== (p.hashes == null), {
    message: 'give exactly one of addresses or hashes',
    path: ['hashes'],
  })
export type GetMultipleCompressedAccountsParams = z.input<
  typeof GetMultipleCompressedAccountsParams
>

/** getMultipleCompressedAccounts result; missing entries are null. */
export const GetMultipleCompressedAccountsResult = compressionEnvelope(
  z.object({ items: z.array(CompressedAccount.nullable()) }),
)
export type GetMultipleCompressedAccountsResult = z.infer<
  typeof GetMultipleCompressedAccountsResult
>

/** getCompressionSignaturesForOwner / ForTokenOwner params. */
export const GetCompressionSignaturesParams = z.strictObject({
  owner: WalletAddress,
  ...pagingParams,
})
export type GetCompressionSignaturesParams = z.input<typeof GetCompressionSignaturesParams>

/** Signature listing; slot desc then signature desc. */
export const GetCompressionSignaturesResult = compressionEnvelope(
  z.object({ items: z.array(CompressionSignature), cursor: NullableCursor }),
)
export type GetCompressionSignaturesResult = z.infer<typeof GetCompressionSignaturesResult>

/** getCompressionSignaturesForOwner params. */
export const GetCompressionSignaturesForOwnerParams = GetCompressionSignaturesParams
/** getCompressionSignaturesForOwner result. */
export const GetCompressionSignaturesForOwnerResult = GetCompressionSignaturesResult
/** getCompressionSignaturesForTokenOwner params. */
export const GetCompressionSignaturesForTokenOwnerParams = GetCompressionSignaturesParams
/** getCompressionSignaturesForTokenOwner result. */
export const GetCompressionSignaturesForTokenOwnerResult = GetCompressionSignaturesResult

/** getTransactionWithCompressionInfo params. */
export const GetTransactionWithCompressionInfoParams = z.strictObject({ signature: Signature })
export type GetTransactionWithCompressionInfoParams = z.input<
  typeof GetTransactionWithCompressionInfoParams
>

/** Token data attached to a compressed account; no delegate or extensions (tlv) read as null. */
const CompressedTokenData = z.object({
  amount: IntegerAmount,
  mint: z.string(),
  owner: z.string(),
  delegate: knownOrNull(z.string()),
  tlv: knownOrNull(z.string()),
  state: z.string().optional(),
})

/** An opened or closed account of a transaction. */
const AccountWithOptionalTokenData = z.object({
  account: CompressedAccount,
  // The name says optional: absent or null when the account holds no token data (uncertain).
  optionalTokenData: CompressedTokenData.nullable().optional(),
})

/** getTransactionWithCompressionInfo result; the transaction's contents are undocumented. */
export const GetTransactionWithCompressionInfoResult = z.object({
  compression_info: z.object({
    closedAccounts: z.array(AccountWithOptionalTokenData),
    openedAccounts: z.array(AccountWithOptionalTokenData),
  }),
  // The SDK types it as unknown: kept as the service sent it.
  transaction: z.unknown(),
})
export type GetTransactionWithCompressionInfoResult = z.infer<
  typeof GetTransactionWithCompressionInfoResult
>

/** getValidityProof params: hashes and/or new addresses with trees. */
export const GetValidityProofParams = z
  .strictObject({
    hashes: z.array(Base58Hash).optional(),
    newAddressesWithTrees: z
      .array(z.strictObject({ address: Base58Hash, tree: WalletAddress }))
      .optional(),
  })
  .refine((p) => (p.hashes?.length ?? 0) + (p.newAddressesWithTrees?.length ?? 0) > 0, {
    message: 'give at least one hash or new address',
    path: ['hashes'],
  })
export type GetValidityProofParams = z.input<typeof GetValidityProofParams>

/** Validity proof. */
export const ValidityProof = z.object({
  compressedProof: z.object({ a: z.string(), b: z.string(), c: z.string() }),
  leafIndices: z.array(Integer),
  leaves: z.array(z.string()),
  merkleTrees: z.array(z.string()),
  rootIndices: z.array(Integer),
  roots: z.array(z.string()),
})
export type ValidityProof = z.infer<typeof ValidityProof>

/** getValidityProof result. */
export const GetValidityProofResult = compressionEnvelope(ValidityProof)
export type GetValidityProofResult = z.infer<typeof GetValidityProofResult>
