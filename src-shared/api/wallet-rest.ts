import { z } from 'zod'
import { AddressOrDomain, Signature, WalletAddress } from './base58'
import { HistoryTransactionType } from './enums'
import { Integer, RawAmountString } from './numbers'

// Requests are strict (a misspelt parameter is a bug, not something to send); responses
// drop unknown fields instead of rejecting them, because the service adds fields over time
// and the wallet interface is in beta (interface 9.1).

/** Balance entry `balances[]` (interface 2.1). */
export const WalletBalance = z.object({
  mint: z.string(),
  balance: z.number(),
  decimals: Integer,
  // facts: `spl-token` | `token-2022`; kept a string so a new program does not break sync.
  tokenProgram: z.string(),
  symbol: z.string(),
  name: z.string(),
  pricePerToken: z.number(),
  usdValue: z.number(),
  logoUri: z.string(),
})
export type WalletBalance = z.infer<typeof WalletBalance>

/** NFT entry `nfts[]` (interface 2.2). */
export const WalletNft = z.object({
  mint: z.string(),
  compressed: z.boolean(),
  name: z.string(),
  imageUri: z.string(),
  collectionName: z.string(),
  collectionAddress: z.string(),
})
export type WalletNft = z.infer<typeof WalletNft>

/** Page-number pagination of balances (interface 2.3). */
export const PagePagination = z.object({ page: Integer, limit: Integer, hasMore: z.boolean() })
export type PagePagination = z.infer<typeof PagePagination>

/**
 * Cursor pagination of history and transfers (interface 2.3). `nextCursor` is typed string
 * by the interface; null is also accepted because the last page (hasMore=false) has no next
 * cursor to give. Uncertain: the interface shows no last page.
 */
export const CursorPagination = z.object({
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
})
export type CursorPagination = z.infer<typeof CursorPagination>

/** Path parameter `{wallet}` of every wallet endpoint (interface 4.1). */
const walletPath = { wallet: WalletAddress }

/** GET /v1/wallet/{wallet}/balances: path + query (interface 4.1). */
export const BalancesQuery = z.strictObject({
  ...walletPath,
  page: Integer.min(1).optional(),
  limit: Integer.min(1).max(100).optional(),
  showZeroBalance: z.boolean().optional(),
  showNative: z.boolean().optional(),
  showNfts: z.boolean().optional(),
})
export type BalancesQuery = z.input<typeof BalancesQuery>

/** Balances response (interface 4.1); `nfts` only with showNfts=true. */
export const BalancesResponse = z.object({
  balances: z.array(WalletBalance),
  totalUsdValue: z.number(),
  pagination: PagePagination,
  nfts: z.array(WalletNft).max(100).optional(),
})
export type BalancesResponse = z.infer<typeof BalancesResponse>

/** Token-account coverage of history (facts: `tokenAccounts`, interface 4.1). */
const TokenAccountsFilter = z.enum(['none', 'balanceChanged', 'all'])

/** GET /v1/wallet/{wallet}/history: path + query (interface 4.1). */
export const HistoryQuery = z.strictObject({
  ...walletPath,
  limit: Integer.min(1).max(100).optional(),
  // Newest first; `before` = previous pagination.nextCursor (facts, wallet REST).
  before: Signature.optional(),
  // Ascending-order paging (interface 4.1).
  after: Signature.optional(),
  type: HistoryTransactionType.optional(),
  tokenAccounts: TokenAccountsFilter.optional(),
})
export type HistoryQuery = z.input<typeof HistoryQuery>

/** One balance change of a history entry (interface 2.4); `amount` is negative for outflow. */
export const BalanceChange = z.object({ mint: z.string(), amount: z.number(), decimals: Integer })
export type BalanceChange = z.infer<typeof BalanceChange>

/** History entry `data[]` (interface 2.4; `error` string|null and `timestamp` nullable per facts). */
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

/** History response (interface 4.1). */
export const HistoryResponse = z.object({
  data: z.array(HistoryEntry),
  pagination: CursorPagination,
})
export type HistoryResponse = z.infer<typeof HistoryResponse>

/** GET /v1/wallet/{wallet}/transfers: path + query (interface 4.1); the cursor is opaque (facts). */
export const TransfersQuery = z.strictObject({
  ...walletPath,
  limit: Integer.min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
})
export type TransfersQuery = z.input<typeof TransfersQuery>

/** Transfer direction: interface 2.5 shows 'in'; the facts file names the counterpart 'out'. */
const TransferDirection = z.enum(['in', 'out'])

/** Transfer entry `data[]` (interface 2.5; `symbol` nullable per facts). */
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

/** Transfers response (interface 4.1). */
export const TransfersResponse = z.object({
  data: z.array(TransferEntry),
  pagination: CursorPagination,
})
export type TransfersResponse = z.infer<typeof TransfersResponse>

/** GET /v1/wallet/{wallet}/identity; `{wallet}` is an address or a domain (interface 4.1, facts). */
export const IdentityQuery = z.strictObject({ wallet: AddressOrDomain })
export type IdentityQuery = z.input<typeof IdentityQuery>

/** Identity of a wallet (interface 4.1 "not shown"; fields from the facts file). */
export const Identity = z.object({
  address: z.string(),
  type: z.string(),
  name: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  domainNames: z.array(z.string()).optional(),
})
export type Identity = z.infer<typeof Identity>

/** Identity response (interface 4.1, facts). */
export const IdentityResponse = Identity
export type IdentityResponse = Identity

/** POST /v1/wallet/batch-identity body: up to 100 addresses or domains (interface 8, facts). */
export const BatchIdentityRequest = z.strictObject({
  addresses: z.array(AddressOrDomain).min(1).max(100),
})
export type BatchIdentityRequest = z.input<typeof BatchIdentityRequest>

/** Batch-identity response: a bare array of identities (facts; unknown-address form undocumented). */
export const BatchIdentityResponse = z.array(Identity)
export type BatchIdentityResponse = z.infer<typeof BatchIdentityResponse>

/** GET /v1/wallet/{wallet}/funded-by (interface 4.1). */
export const FundedByQuery = z.strictObject({ ...walletPath })
export type FundedByQuery = z.input<typeof FundedByQuery>

/** Original funding source of a wallet (interface 4.1 "not shown"; fields from the facts file). */
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

/** Funded-by response (interface 4.1, facts). */
export const FundedByResponse = FundedBy
export type FundedByResponse = FundedBy

/**
 * GET /v1/wallet/{wallet}/balance-at (facts only, not in the interface text): a mint and
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

/** Balance of one mint at a point in time (facts, wallet REST). */
export const BalanceAtResponse = z.object({
  wallet: z.string(),
  mint: z.string(),
  isNative: z.boolean(),
  balance: z.string(),
  // facts name balanceRaw without a type; the other raw amounts are strings.
  balanceRaw: RawAmountString,
  decimals: Integer,
  // Which of the three the caller gave; the facts do not say how the others appear.
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
