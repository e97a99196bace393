import { z } from 'zod'
import {
  EndCursor,
  itemByItemAnswer,
  keyField,
  KeptAsideItem,
  knownOrNull,
  MintName,
  readItems,
  textOrEmpty,
} from './answer-edge'
import { AddressOrDomain, NATIVE_SOL_MINT, Signature, WalletAddress } from './base58'
import { HistoryTransactionType } from './enums'
import { Integer, RawAmountString } from './numbers'

// Requests are strict (a misspelt parameter is a bug, not something to send). Responses
// are read at the edge (answer-edge.ts): unknown fields are dropped, what the service's SDK
// and published examples leave out or send as null is read into the mirror's one form, and
// a listing's item that cannot be read is kept aside instead of failing its page. The
// wallet interface is in beta: its paths and shapes may change.

/**
 * Balance entry `balances[]` (docs/service.md, Wallet REST). Symbol, name, logo, price and
 * value are null for a token the service cannot name or price ("unpriced").
 */
export const WalletBalance = z.object({
  mint: z.string().min(1),
  balance: z.number(),
  decimals: Integer,
  // `spl-token` | `token-2022`; kept a string so a new program does not break sync.
  tokenProgram: z.string(),
  symbol: knownOrNull(z.string()),
  name: knownOrNull(z.string()),
  pricePerToken: knownOrNull(z.number()),
  usdValue: knownOrNull(z.number()),
  logoUri: knownOrNull(z.string()),
})
export type WalletBalance = z.infer<typeof WalletBalance>

/**
 * The balances answer's order: SOL first, then by USD value, largest first, unpriced
 * tokens last (the answer does not say how ties go; by mint here).
 */
export function balancesAnswerOrder(a: WalletBalance, b: WalletBalance): number {
  return (
    Number(b.mint === NATIVE_SOL_MINT) - Number(a.mint === NATIVE_SOL_MINT) ||
    Number(b.usdValue !== null) - Number(a.usdValue !== null) ||
    (b.usdValue ?? 0) - (a.usdValue ?? 0) ||
    a.mint.localeCompare(b.mint)
  )
}

/** NFT entry `nfts[]` (with showNfts); a name, image or collection it lacks reads as ''. */
export const WalletNft = z.object({
  mint: z.string().min(1),
  compressed: z.boolean(),
  name: textOrEmpty(),
  imageUri: textOrEmpty(),
  collectionName: textOrEmpty(),
  collectionAddress: textOrEmpty(),
})
export type WalletNft = z.infer<typeof WalletNft>

/** Page-number pagination of balances. */
export const PagePagination = z.object({ page: Integer, limit: Integer, hasMore: z.boolean() })
export type PagePagination = z.infer<typeof PagePagination>

/**
 * Cursor pagination of history and transfers. A last page (hasMore=false) has no next
 * cursor: the SDK's mocks leave `nextCursor` out, the published schema allows null. Both
 * read as null, the end.
 */
export const CursorPagination = z.object({
  hasMore: z.boolean(),
  nextCursor: EndCursor,
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

/**
 * Balances response; `nfts` only with showNfts=true. Each holding is read alone: one the
 * edge cannot read is in `keptAside` (its key the mint), the rest are the holdings.
 */
export interface BalancesResponse {
  balances: WalletBalance[]
  totalUsdValue: number
  pagination: PagePagination
  nfts?: WalletNft[] | undefined
  keptAside: KeptAsideItem[]
}
/** The balances answer as the service sends it. */
export interface BalancesAnswer {
  balances: z.input<typeof WalletBalance>[]
  totalUsdValue: number
  pagination: z.input<typeof PagePagination>
  nfts?: z.input<typeof WalletNft>[] | undefined
  keptAside?: KeptAsideItem[] | undefined
}
export const BalancesResponse = itemByItemAnswer<BalancesResponse, BalancesAnswer>(
  z
    .object({
      balances: z.array(z.unknown()),
      totalUsdValue: z.number(),
      pagination: PagePagination,
      nfts: z.array(z.unknown()).max(100).optional(),
      keptAside: z.array(KeptAsideItem).optional(),
    })
    .transform(({ balances, nfts, keptAside = [], ...rest }): BalancesResponse => {
      const tokens = readItems(WalletBalance, balances, keyField('mint'))
      const collectibles = nfts && readItems(WalletNft, nfts, keyField('mint'))
      return {
        ...rest,
        balances: tokens.items,
        ...(collectibles ? { nfts: collectibles.items } : {}),
        keptAside: [...keptAside, ...tokens.keptAside, ...(collectibles?.keptAside ?? [])],
      }
    }),
)

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

/**
 * One balance change of a history entry; `amount` is negative for outflow. The service
 * names native SOL "SOL" here (its SDK says so); the edge reads it as the native mint.
 */
export const BalanceChange = z.object({ mint: MintName, amount: z.number(), decimals: Integer })
export type BalanceChange = z.infer<typeof BalanceChange>

/**
 * History entry `data[]`; `error` is string|null and `timestamp` nullable (the published
 * schema requires neither: absent reads as null).
 */
export const HistoryEntry = z.object({
  signature: z.string().min(1),
  slot: Integer,
  fee: z.number(),
  feePayer: z.string().min(1),
  balanceChanges: z.array(BalanceChange),
  timestamp: knownOrNull(Integer),
  error: knownOrNull(z.string()),
})
export type HistoryEntry = z.infer<typeof HistoryEntry>

/** A page of history or transfers: each item read alone, one the edge cannot read kept aside. */
interface CursorPage<Item> {
  data: Item[]
  pagination: CursorPagination
  keptAside: KeptAsideItem[]
}

/** A page of history or transfers as the service sends it. */
interface CursorPageAnswer<Item> {
  data: Item[]
  pagination: z.input<typeof CursorPagination>
  keptAside?: KeptAsideItem[] | undefined
}

/** The response schema of a cursor-paged listing of `entry`, read item by item. */
function cursorPageOf<S extends z.ZodType>(entry: S) {
  return itemByItemAnswer<CursorPage<z.output<S>>, CursorPageAnswer<z.input<S>>>(
    z
      .object({
        data: z.array(z.unknown()),
        pagination: CursorPagination,
        keptAside: z.array(KeptAsideItem).optional(),
      })
      .transform(({ data, pagination, keptAside = [] }) => {
        const read = readItems(entry, data, keyField('signature'))
        return { data: read.items, pagination, keptAside: [...keptAside, ...read.keptAside] }
      }),
  )
}

/** History response: each entry read alone, one the edge cannot read kept aside. */
export type HistoryResponse = CursorPage<HistoryEntry>
/** The history answer as the service sends it. */
export type HistoryAnswer = CursorPageAnswer<z.input<typeof HistoryEntry>>
export const HistoryResponse = cursorPageOf(HistoryEntry)

/** GET /v1/wallet/{wallet}/transfers: path + query; limit 1–100, the cursor is opaque. */
export const TransfersQuery = z.strictObject({
  ...walletPath,
  limit: Integer.min(1).max(100).optional(),
  cursor: z.string().min(1).optional(),
})
export type TransfersQuery = z.input<typeof TransfersQuery>

/** Transfer direction: 'in' or 'out'. */
const TransferDirection = z.enum(['in', 'out'])

/** Transfer entry `data[]`; `symbol` may be null or absent. */
export const TransferEntry = z.object({
  signature: z.string().min(1),
  timestamp: Integer,
  direction: TransferDirection,
  counterparty: z.string().min(1),
  mint: MintName,
  amount: z.number(),
  amountRaw: RawAmountString,
  decimals: Integer,
  symbol: knownOrNull(z.string()),
})
export type TransferEntry = z.infer<typeof TransferEntry>

/** Transfers response: each transfer read alone, one the edge cannot read kept aside. */
export type TransfersResponse = CursorPage<TransferEntry>
/** The transfers answer as the service sends it. */
export type TransfersAnswer = CursorPageAnswer<z.input<typeof TransferEntry>>
export const TransfersResponse = cursorPageOf(TransferEntry)

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
  // A known entity's name and kind ("Coinbase 2", "exchange"); null or absent when unknown.
  funderName: knownOrNull(z.string()),
  funderType: knownOrNull(z.string()),
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
