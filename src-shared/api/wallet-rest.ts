import { z } from 'zod'
import { AddressOrDomain, NATIVE_SOL_MINT, Signature, WalletAddress } from './base58'
import { HistoryTransactionType } from './enums'
import { Integer, RawAmountString } from './numbers'

// Requests are strict (a misspelt parameter is a bug, not something to send); responses
// drop unknown fields instead of rejecting them, because the service adds fields over time
// and the wallet interface is in beta (its paths and shapes may change).

/** Balance entry `balances[]` (docs/service.md, Wallet REST). */
export const WalletBalance = z.object({
  mint: z.string(),
  balance: z.number(),
  decimals: Integer,
  // `spl-token` | `token-2022`; kept a string so a new program does not break sync.
  tokenProgram: z.string(),
  symbol: z.string(),
  name: z.string(),
  pricePerToken: z.number(),
  usdValue: z.number(),
  logoUri: z.string(),
})
export type WalletBalance = z.infer<typeof WalletBalance>

/**
 * The balances answer's order: SOL first, then by USD value, largest first (the answer
 * does not say how ties go; by mint here).
 */
export function balancesAnswerOrder(a: WalletBalance, b: WalletBalance): number {
  return (
    Number(b.mint === NATIVE_SOL_MINT) - Number(a.mint === NATIVE_SOL_MINT) ||
    b.usdValue - a.usdValue ||
    a.mint.localeCompare(b.mint)
  )
}

/** NFT entry `nfts[]` (with showNfts). */
export const WalletNft = z.object({
  mint: z.string(),
  compressed: z.boolean(),
  name: z.string(),
  imageUri: z.string(),
  collectionName: z.string(),
  collectionAddress: z.string(),
})
export type WalletNft = z.infer<typeof WalletNft>

/** Page-number pagination of balances. */
export const PagePagination = z.object({ page: Integer, limit: Integer, hasMore: z.boolean() })
export type PagePagination = z.infer<typeof PagePagination>

/**
 * Cursor pagination of history and transfers. `nextCursor` is typed string
 * by the service; null is also accepted because the last page (hasMore=false) has no next
 * cursor to give. Uncertain: the interface shows no last page.
 */
export const CursorPagination = z.object({
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
})
export type CursorPagination = z.infer<typeof CursorPagination>

/** Path parameter `{wallet}` of every wallet endpoint: 32 to 44 base58 characters. */
const walletPath = { wallet: WalletAddress }

/** GET /v1/wallet/{wallet}/balances: path + query; limit 1–100. */
export const BalancesQuery = z.strictObject({
  ...walletPath,
  page: Integer.min(1).optional(),
  limit: Integer.min(1).max(100).optional(),
  showZeroBalance: z.boolean().optional(),
  showNative: z.boolean().optional(),
  showNfts: z.boolean().optional(),
})
export type BalancesQuery = z.input<typeof BalancesQuery>

/** Balances response; `nfts` only with showNfts=true. */
export const BalancesResponse = z.object({
  balances: z.array(WalletBalance),
  totalUsdValue: z.number(),
  pagination: PagePagination,
  nfts: z.array(WalletNft).max(100).optional(),
})
export type BalancesResponse = z.infer<typeof BalancesResponse>

/** Token-account coverage of history (`tokenAccounts`; default balanceChanged). */
const TokenAccountsFilter = z.enum(['none', 'balanceChanged', 'all'])

/** GET /v1/wallet/{wallet}/history: path + query; limit 1–100. */
export const HistoryQuery = z.strictObject({
  ...walletPath,
  limit: Integer.min(1).max(100).optional(),
  // Newest first; `before` = previous pagination.nextCursor.
  before: Signature.optional(),
  // `after` pages ascending.
  after: Signature.optional(),
  type: HistoryTransactionType.optional(),
  tokenAccounts: TokenAccountsFilter.optional(),
})
export type HistoryQuery = z.input<typeof HistoryQuery>

/** One balance change of a history entry; `amount` is negative for outflow. */
export const BalanceChange = z.object({ mint: z.string(), amount: z.number(), decimals: Integer })
export type BalanceChange = z.infer<typeof BalanceChange>

/** History entry `data[]`; `error` is string|null and `timestamp` nullable. */
export const HistoryEntry = z.object({
  signature: z.string(),
  slot: Integer,
  fee: z.number(),
  feePayer: z.string(),
  balanceChanges: z.array(BalanceChange),
  timestamp: Integer.nullable(),
  error: z.string().nullable(),
})
export type HistoryEntry = z.infer<typeof HistoryEntry>

/** History response. */
export const HistoryResponse = z.object({
  data: z.array(HistoryEntry),
  pagination: CursorPagination,
})
export type HistoryResponse = z.infer<typeof HistoryResponse>

/** GET /v1/wallet/{wallet}/transfers: path + query; limit 1–100, the cursor is opaque. */
export const TransfersQuery = z.strictObject({
  ...walletPath,
  limit: Integer.min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
})
export type TransfersQuery = z.input<typeof TransfersQuery>

/** Transfer direction: 'in' or 'out'. */
const TransferDirection = z.enum(['in', 'out'])

/** Transfer entry `data[]`; `symbol` may be null. */
export const TransferEntry = z.object({
  signature: z.string(),
  timestamp: Integer,
  direction: TransferDirection,
  counterparty: z.string(),
  mint: z.string(),
  amount: z.number(),
  amountRaw: RawAmountString,
  decimals: Integer,
  symbol: z.string().nullable(),
})
export type TransferEntry = z.infer<typeof TransferEntry>

/** Transfers response. */
export const TransfersResponse = z.object({
  data: z.array(TransferEntry),
  pagination: CursorPagination,
})
export type TransfersResponse = z.infer<typeof TransfersResponse>

/** GET /v1/wallet/{wallet}/identity; `{wallet}` is an address or a domain. */
export const IdentityQuery = z.strictObject({ wallet: AddressOrDomain })
export type IdentityQuery = z.input<typeof IdentityQuery>

/** Identity of a wallet (docs/service.md, Wallet REST). */
export const Identity = z.object({
  address: z.string(),
  type: z.string(),
  name: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  domainNames: z.array(z.string()).optional(),
})
export type Identity = z.infer<typeof Identity>

/** Identity response. */
export const IdentityResponse = Identity
export type IdentityResponse = Identity

/** POST /v1/wallet/batch-identity body: up to 100 addresses or domains. */
export const BatchIdentityRequest = z.strictObject({
  addresses: z.array(AddressOrDomain).min(1).max(100),
})
export type BatchIdentityRequest = z.input<typeof BatchIdentityRequest>

/** Batch-identity response: a bare array of identities (unknown-address form undocumented). */
export const BatchIdentityResponse = z.array(Identity)
export type BatchIdentityResponse = z.infer<typeof BatchIdentityResponse>

/** GET /v1/wallet/{wallet}/funded-by. */
export const FundedByQuery = z.strictObject({ ...walletPath })
export type FundedByQuery = z.input<typeof FundedByQuery>

/** Original funding source of a wallet: its first incoming SOL transfer. */
export const FundedBy = z.object({
  funder: z.string(),
  funderName: z.string().nullable(),
  funderType: z.string().nullable(),
  mint: z.string(),
  symbol: z.string(),
  amount: z.number(),
  amountRaw: RawAmountString,
  decimals: Integer,
  signature: z.string(),
  timestamp: Integer,
  date: z.string(),
  slot: Integer,
  explorerUrl: z.string(),
})
export type FundedBy = z.infer<typeof FundedBy>

/** Funded-by response. */
export const FundedByResponse = FundedBy
export type FundedByResponse = FundedBy

/**
 * GET /v1/wallet/{wallet}/balance-at (docs/service.md, Wallet REST): a mint and
 * exactly one of time (Unix seconds), datetime (ISO) or slot.
 */
export const BalanceAtQuery = z
  .strictObject({
    ...walletPath,
    mint: WalletAddress,
    time: Integer.min(0).optional(),
    datetime: z.string().min(1).optional(),
    slot: Integer.min(0).optional(),
  })
  .refine((q) => [q.time, q.datetime, q.slot].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of time, datetime or slot',
    path: ['time'],
  })
export type BalanceAtQuery = z.input<typeof BalanceAtQuery>

/** Balance of one mint at a point in time. */
export const BalanceAtResponse = z.object({
  wallet: z.string(),
  mint: z.string(),
  isNative: z.boolean(),
  balance: z.string(),
  // The service names balanceRaw without a type; the other raw amounts are strings.
  balanceRaw: RawAmountString,
  decimals: Integer,
  // Which of the three the caller gave; the service does not say how the others appear.
  requested: z.object({
    time: Integer.nullable().optional(),
    slot: Integer.nullable().optional(),
    datetime: z.string().nullable().optional(),
  }),
  asOf: z
    .object({ slot: Integer, blockTime: Integer.nullable().optional(), signature: z.string() })
    .nullable(),
})
export type BalanceAtResponse = z.infer<typeof BalanceAtResponse>
