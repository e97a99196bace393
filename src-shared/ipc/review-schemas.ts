import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'

/** Largest page a review channel answers: enough for a screen, small enough to stay fast. */
const MAX_PAGE_ROWS = 500

const UnixSec = z.number().int().min(0)
const MintAddress = z.string().trim().min(32).max(44)
const Limit = z.number().int().min(1).max(MAX_PAGE_ROWS).default(100)

/** Newest first (the default) or oldest first. */
export const SortOrder = z.enum(['newest', 'oldest'])
export type SortOrder = z.infer<typeof SortOrder>

/** Whether a transaction moved the wallet's balance of a mint (or any mint) up or down. */
export const Direction = z.enum(['any', 'in', 'out'])
export type Direction = z.infer<typeof Direction>

/** A whole signature or its first characters: the History view's search (also in exports). */
export const SignatureSearch = z
  .string()
  .trim()
  .max(100)
  .regex(/^[1-9A-HJ-NP-Za-km-z]*$/, 'A signature uses only base58 characters.')
  .default('')

/**
 * The History view's filters. Exports of balance changes use the same object so that
 * "export what I see" means the same rows.
 */
export const HistoryFilters = z.object({
  /** Inclusive lower bound on block time, UTC seconds. */
  fromSec: UnixSec.nullable().default(null),
  /** Inclusive upper bound on block time, UTC seconds. */
  toSec: UnixSec.nullable().default(null),
  mint: MintAddress.nullable().default(null),
  /** Sign of the balance change of `mint`, or of any mint when none is chosen. */
  direction: Direction.default('any'),
  isFailedOnly: z.boolean().default(false),
  signature: SignatureSearch,
})
export type HistoryFilters = z.output<typeof HistoryFilters>
export type HistoryFiltersInput = z.input<typeof HistoryFilters>

/** The History view's filters when nothing is filtered. */
export const NO_HISTORY_FILTERS: Readonly<HistoryFilters> = Object.freeze(HistoryFilters.parse({}))

/** Where a History page continues: the last row's sort key. */
export const HistoryCursor = z.object({
  blockTimeSec: z.number().int().nullable(),
  slot: z.number().int(),
  signature: z.string().max(100),
})
export type HistoryCursor = z.infer<typeof HistoryCursor>

/** Input of `history:page`. Without a cursor it answers the first page. */
export const HistoryPageInput = z.object({
  address: WalletAddressInput,
  order: SortOrder.default('newest'),
  filters: HistoryFilters.default(HistoryFilters.parse({})),
  cursor: HistoryCursor.nullable().default(null),
  limit: Limit,
})
export type HistoryPageInput = z.input<typeof HistoryPageInput>

/** One balance change of a transaction, signed, with its exact decimal text. */
export const HistoryChange = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  amount: z.number(),
  amountText: z.string(),
  amountRaw: z.string().nullable(),
  decimals: z.number().int(),
})
export type HistoryChange = z.infer<typeof HistoryChange>

/** An NFT sale as the service reported it (an enhanced transaction's `events.nft`). */
export const NftSale = z.object({
  /** The price in lamports, as exact text; null when the service gave none. */
  priceLamports: z.string().nullable(),
  buyer: z.string().nullable(),
  seller: z.string().nullable(),
  /** The marketplace as the service names it (MAGIC_EDEN, TENSOR, …). */
  marketplace: z.string().nullable(),
})
export type NftSale = z.infer<typeof NftSale>

/**
 * What the service said of a transaction where it parsed it (a webhook delivery): the
 * program or marketplace, its sentence, its NFT sale. All null for what it did not say.
 */
export const ServiceSaid = z.object({
  source: z.string().nullable(),
  description: z.string().nullable(),
  nftSale: NftSale.nullable(),
})
export type ServiceSaid = z.infer<typeof ServiceSaid>

/** One row of the History table. */
export const HistoryRow = z.object({
  signature: z.string(),
  slot: z.number().int(),
  blockTimeSec: z.number().int().nullable(),
  fee: z.number(),
  feeText: z.string(),
  feePayer: z.string(),
  /** The fee payer's name: a watched wallet's label, else the service's name, else null. */
  feePayerName: z.string().nullable(),
  isFailed: z.boolean(),
  error: z.string().nullable(),
  changes: z.array(HistoryChange),
  /** The service's type where it named one, else the one derived from the changes. */
  kind: z.string(),
  said: ServiceSaid,
})
export type HistoryRow = z.infer<typeof HistoryRow>

/** A page of History; `nextCursor` is null on the last page. */
export const HistoryPage = z.object({
  rows: z.array(HistoryRow),
  nextCursor: HistoryCursor.nullable(),
})
export type HistoryPage = z.infer<typeof HistoryPage>

/** Input of `history:count`. */
export const HistoryCountInput = z.object({
  address: WalletAddressInput,
  filters: HistoryFilters.default(HistoryFilters.parse({})),
})
export type HistoryCountInput = z.input<typeof HistoryCountInput>

/** How many rows match; counting stops at `cap` (then `isCapped`) to stay fast on huge wallets. */
export const RowCount = z.object({ count: z.number().int(), isCapped: z.boolean() })
export type RowCount = z.infer<typeof RowCount>

/** The mints a wallet's history touches, for the mint filter. */
export const MintOption = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  name: z.string().nullable(),
})
export type MintOption = z.infer<typeof MintOption>

/** Filters of the Transfers view. */
export const TransferFilters = z.object({
  fromSec: UnixSec.nullable().default(null),
  toSec: UnixSec.nullable().default(null),
  mint: MintAddress.nullable().default(null),
  direction: Direction.default('any'),
  counterparty: z.string().trim().max(44).default(''),
  signature: z
    .string()
    .trim()
    .max(100)
    .regex(/^[1-9A-HJ-NP-Za-km-z]*$/, 'A signature uses only base58 characters.')
    .default(''),
})
export type TransferFilters = z.output<typeof TransferFilters>
export type TransferFiltersInput = z.input<typeof TransferFilters>

/** Where a Transfers page continues. */
export const TransferCursor = z.object({
  blockTimeSec: z.number().int(),
  signature: z.string().max(100),
  id: z.number().int(),
})
export type TransferCursor = z.infer<typeof TransferCursor>

/** Input of `transfers:page`. */
export const TransferPageInput = z.object({
  address: WalletAddressInput,
  order: SortOrder.default('newest'),
  filters: TransferFilters.default(TransferFilters.parse({})),
  cursor: TransferCursor.nullable().default(null),
  limit: Limit,
})
export type TransferPageInput = z.input<typeof TransferPageInput>

/** Input of `transfers:count`: how many transfers the Transfers view's filters select. */
export const TransferCountInput = z.object({
  address: WalletAddressInput,
  filters: TransferFilters.default(TransferFilters.parse({})),
})
export type TransferCountInput = z.input<typeof TransferCountInput>

/**
 * One transfer; `counterpartyName` is the label when the counterparty is a watched wallet,
 * else the service's name for it, else null.
 */
export const TransferRow = z.object({
  id: z.number().int(),
  signature: z.string(),
  blockTimeSec: z.number().int(),
  direction: z.enum(['in', 'out']),
  counterparty: z.string(),
  counterpartyName: z.string().nullable(),
  mint: z.string(),
  symbol: z.string().nullable(),
  amount: z.number(),
  amountText: z.string(),
  amountRaw: z.string(),
  decimals: z.number().int(),
})
export type TransferRow = z.infer<typeof TransferRow>

/** Input of `activity:latest`: how many transfers to read across the watchlist. */
export const LatestActivityInput = z.object({
  limit: z.number().int().min(1).max(200).default(12),
})
export type LatestActivityInput = z.input<typeof LatestActivityInput>

/** A transfer of a watched wallet, with that wallet, newest first across the watchlist. */
export const LatestTransfer = TransferRow.extend({
  walletAddress: z.string(),
  walletLabel: z.string().nullable(),
})
export type LatestTransfer = z.infer<typeof LatestTransfer>

export const TransferPage = z.object({
  rows: z.array(TransferRow),
  nextCursor: TransferCursor.nullable(),
})
export type TransferPage = z.infer<typeof TransferPage>

/** Input of the per-wallet review channels that need nothing else. */
export const WalletInput = z.object({ address: WalletAddressInput })
export type WalletInput = z.input<typeof WalletInput>

/** One token the wallet holds, from the latest balances snapshot. */
const BalanceRow = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  name: z.string().nullable(),
  logoUri: z.string().nullable(),
  amount: z.number(),
  amountText: z.string(),
  decimals: z.number().int(),
  /** Null for a token the service does not price: shown as "—", never $0. */
  priceUsd: z.number().nullable(),
  usdValue: z.number().nullable(),
  /** Share of the wallet's total USD value, 0 to 1 (0 for an unpriced token). */
  share: z.number(),
})

/**
 * The latest snapshot's balances, largest USD value first, unpriced last; `takenAtSec`
 * null when none yet. The total is the priced tokens'; `unpricedCount` says how many it
 * leaves out.
 */
export const CurrentBalances = z.object({
  takenAtSec: z.number().int().nullable(),
  totalUsd: z.number(),
  unpricedCount: z.number().int(),
  rows: z.array(BalanceRow),
  nftCount: z.number().int(),
})
export type CurrentBalances = z.infer<typeof CurrentBalances>

/** One NFT of the latest snapshot. */
export const NftItem = z.object({
  mint: z.string(),
  name: z.string(),
  imageUri: z.string(),
  collectionName: z.string(),
  isCompressed: z.boolean(),
})
export type NftItem = z.infer<typeof NftItem>

/** Which compression signatures to list. */
export const CompressedKind = z.enum(['all', 'owner', 'token-owner'])
export type CompressedKind = z.infer<typeof CompressedKind>

export const CompressedCursor = z.object({
  slot: z.number().int(),
  signature: z.string().max(100),
  kind: z.enum(['owner', 'token-owner']),
})
export type CompressedCursor = z.infer<typeof CompressedCursor>

/** Input of `compressed:page` (newest slot first). */
export const CompressedPageInput = z.object({
  address: WalletAddressInput,
  kind: CompressedKind.default('all'),
  cursor: CompressedCursor.nullable().default(null),
  limit: Limit,
})
export type CompressedPageInput = z.input<typeof CompressedPageInput>

export const CompressedRow = z.object({
  kind: z.enum(['owner', 'token-owner']),
  signature: z.string(),
  slot: z.number().int(),
  blockTimeSec: z.number().int(),
  error: z.string().nullable(),
})
export type CompressedRow = z.infer<typeof CompressedRow>

export const CompressedPage = z.object({
  rows: z.array(CompressedRow),
  nextCursor: CompressedCursor.nullable(),
})
export type CompressedPage = z.infer<typeof CompressedPage>

/** What the sidebar shows beside a wallet. */
export const WalletSummary = z.object({
  address: z.string(),
  /** From the latest balances snapshot; null before the first one. */
  totalUsd: z.number().nullable(),
  /** Transactions newer than what the person last saw on the wallet page (capped). */
  newActivityCount: z.number().int(),
  isNewActivityCapped: z.boolean(),
  lastActivitySec: z.number().int().nullable(),
})
export type WalletSummary = z.infer<typeof WalletSummary>

/** Facts about a wallet derived from the mirror, for the Overview. */
export const WalletProfile = z.object({
  address: z.string(),
  transactionCount: z.number().int(),
  firstActivitySec: z.number().int().nullable(),
  lastActivitySec: z.number().int().nullable(),
})
export type WalletProfile = z.infer<typeof WalletProfile>

/** Input of `watchlist:reorder`: every watched address, in the new order. */
export const WatchReorderInput = z.object({
  addresses: z.array(WalletAddressInput).min(1).max(10_000),
})
export type WatchReorderInput = z.input<typeof WatchReorderInput>
