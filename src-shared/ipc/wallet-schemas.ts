import { HistoryGap } from './history-load-schemas'
import { z } from 'zod'
import { Address, WalletAddress } from '../api/base58'

// The whole wallet (issue 14): every holding, names, funder, balances at a date and totals
// across the watchlist — read from the mirror, offline.

/** A name the service gave an address. */
export const AddressIdentity = z.object({
  name: z.string(),
  type: z.string().nullable(),
  category: z.string().nullable(),
  tags: z.array(z.string()),
})
export type AddressIdentity = z.infer<typeof AddressIdentity>

/** Who funded a wallet (funded-by): its first incoming SOL transfer. */
export const WalletFunder = z.object({
  funder: z.string(),
  /** The funder's name: the service's, or the identity known for the address. */
  funderName: z.string().nullable(),
  funderType: z.string().nullable(),
  symbol: z.string().nullable(),
  /** Exact decimal text. */
  amount: z.string().nullable(),
  signature: z.string().nullable(),
  fundedAtSec: z.number().int().nullable(),
})
export type WalletFunder = z.infer<typeof WalletFunder>

/** A fungible holding: exact amount as decimal text. */
export const TokenHolding = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  name: z.string().nullable(),
  amount: z.string(),
  decimals: z.number().int(),
  /** Null for a token the service does not price: shown as "—", left out of totals. */
  priceUsd: z.number().nullable(),
  valueUsd: z.number().nullable(),
})
export type TokenHolding = z.infer<typeof TokenHolding>

export const NftHolding = z.object({
  id: z.string(),
  name: z.string(),
  collectionName: z.string(),
  collectionAddress: z.string(),
  compressed: z.boolean(),
})
export type NftHolding = z.infer<typeof NftHolding>

export const CompressedTokenHolding = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  amount: z.string(),
})

/** `wallet:whole` and `heliograph show ADDR --json`. */
export const WholeWallet = z.object({
  address: z.string(),
  label: z.string().nullable(),
  identity: AddressIdentity.nullable(),
  fundedBy: WalletFunder.nullable(),
  /** Tokens' value from the latest snapshot, compressed SOL included at SOL's price. */
  valueUsd: z.number(),
  /** Tokens without a price, left out of `valueUsd` (said beside it). */
  unpricedCount: z.number().int(),
  /** When the holdings were taken, or null before the first snapshot. */
  takenAtSec: z.number().int().nullable(),
  holdings: z.object({
    tokens: z.array(TokenHolding),
    nfts: z.array(NftHolding),
    compressed: z.object({
      /** Lamports as exact integer text, or null when the wallet has no compressed state. */
      lamports: z.string().nullable(),
      tokens: z.array(CompressedTokenHolding),
    }),
  }),
})
export type WholeWallet = z.infer<typeof WholeWallet>

/** A calendar day, YYYY-MM-DD (UTC): balances are as of its end. */
export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
      new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'expected a real calendar date',
    },
  )

export const BalanceAtSource = z.enum(['local', 'service'])
export type BalanceAtSource = z.infer<typeof BalanceAtSource>

export const BalanceAtInput = z.object({
  address: WalletAddress,
  date: CalendarDate,
  source: BalanceAtSource,
  /** Ask the service about NFT mints too (a call each); by default only fungible mints. */
  includeNfts: z.boolean().default(false),
})
export type BalanceAtInput = z.infer<typeof BalanceAtInput>

/** `balances:at` and `heliograph balance-at --json`: amounts as exact decimal text. */
export const BalanceAtResult = z.object({
  address: z.string(),
  date: z.string(),
  source: BalanceAtSource,
  balances: z.array(
    z.object({ mint: z.string(), symbol: z.string().nullable(), amount: z.string() }),
  ),
  /**
   * A service answer's NFT mints: asked of the service (`includeNfts`), answered from the
   * mirror where its history covers the date, or not asked (listed in `notAsked`).
   */
  nfts: z
    .object({ mints: z.number().int(), answeredBy: z.enum(['service', 'mirror', 'not asked']) })
    .optional(),
  /** NFT mints nobody answered for: their holdings on the date are unknown. */
  notAsked: z.array(z.object({ mint: z.string(), symbol: z.string().nullable() })).optional(),
})
export type BalanceAtResult = z.infer<typeof BalanceAtResult>

/** What `balances:at` would cost and whether the mirror alone can answer. */
export const BalanceAtPlan = z.object({
  /** The mirror's history covers the date: the local answer is exact and free. */
  coveredLocally: z.boolean(),
  /** Why not, in words, when it does not. */
  reason: z.string().nullable(),
  /** Mints the service would be asked about (one balance-at call each). */
  mints: z.number().int(),
  serviceCredits: z.number().int(),
  /** NFT mints the wallet held; asked only with `includeNfts`. */
  nftMints: z.number().int(),
  /** What asking about the NFT mints too costs (included in `serviceCredits` when asked). */
  nftCredits: z.number().int(),
  includeNfts: z.boolean(),
  /** Not covered because the history held does not reach that day: the load that fills it. */
  gap: HistoryGap.optional(),
})
export type BalanceAtPlan = z.infer<typeof BalanceAtPlan>

export const BalanceAtPlanInput = BalanceAtInput.omit({ source: true })
export type BalanceAtPlanInput = z.input<typeof BalanceAtPlanInput>

/**
 * `watchlist:totals` and `heliograph totals --json`. Compressed holdings are counted in
 * (compressed SOL as SOL): `valueUsd` is the sum of the tokens' values, and the compressed
 * fields say which part of each is compressed.
 */
export const WatchlistTotals = z.object({
  valueUsd: z.number(),
  /** Tokens without a price, left out of `valueUsd` (said beside it). */
  unpricedCount: z.number().int(),
  wallets: z.number().int(),
  /** The part of `valueUsd` held compressed. */
  compressedValueUsd: z.number(),
  tokens: z.array(
    z.object({
      mint: z.string(),
      symbol: z.string().nullable(),
      /** Everything held across the watchlist, compressed part included: exact decimal text. */
      amount: z.string(),
      /** Null for a token the service does not price. */
      valueUsd: z.number().nullable(),
      /** How many watched wallets hold it. */
      wallets: z.number().int(),
      /** The compressed part of `amount`: exact decimal text ("0" when none). */
      compressedAmount: z.string(),
      compressedValueUsd: z.number(),
    }),
  ),
})
export type WatchlistTotals = z.infer<typeof WatchlistTotals>

/** A point of a USD value series. */
export const ValuePoint = z.object({ atSec: z.number().int(), valueUsd: z.number() })
export type ValuePoint = z.infer<typeof ValuePoint>

/**
 * USD value over time (`wallet:value-series`, `watchlist:value-series`): only from balances
 * snapshots (compressed holdings included), and drawn only once they span more than a day;
 * before that `points` is empty and the first and last snapshot times say why.
 */
export const ValueSeries = z.object({
  source: z.literal('snapshots'),
  snapshotCount: z.number().int(),
  firstSnapshotSec: z.number().int().nullable(),
  lastSnapshotSec: z.number().int().nullable(),
  /** Whether the snapshots span more than a day, so the series is drawn. */
  isDrawn: z.boolean(),
  points: z.array(ValuePoint),
})
export type ValueSeries = z.infer<typeof ValueSeries>

/** A point of a token amount series: the exact amount held from `atSec` on. */
export const AmountPoint = z.object({ atSec: z.number().int(), amount: z.string() })
export type AmountPoint = z.infer<typeof AmountPoint>

/**
 * A token one can chart the amount of. NFTs carry their own name and collection, so a
 * picker groups them under the collection instead of repeating one symbol per item.
 */
export const AmountSeriesChoice = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  isNft: z.boolean(),
  /** An NFT's name ("Gate #698"); null for fungible tokens or an NFT never seen in a snapshot. */
  nftName: z.string().nullable(),
  nftCollection: z.string().nullable(),
})
export type AmountSeriesChoice = z.infer<typeof AmountSeriesChoice>

/**
 * A token's amount over time (`wallet:amount-series`, `watchlist:amount-series`), rebuilt
 * from stored balance changes: exact and offline. It changes only at transactions (a step
 * line); `covered` is false when the mirror's history cannot say (with `reason`).
 */
export const AmountSeries = z.object({
  source: z.literal('balance-changes'),
  /** The token charted: the one asked for, else SOL or the largest holding. */
  mint: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().int(),
  covered: z.boolean(),
  reason: z.string().nullable(),
  /** Wallets summed (1 for a wallet's series). */
  wallets: z.number().int(),
  points: z.array(AmountPoint),
  /** Every token the series could show, largest holding first. */
  choices: z.array(AmountSeriesChoice),
})
export type AmountSeries = z.infer<typeof AmountSeries>

export const WalletAmountSeriesInput = z.object({
  address: WalletAddress,
  mint: Address.optional(),
})
export type WalletAmountSeriesInput = z.infer<typeof WalletAmountSeriesInput>

export const WatchlistAmountSeriesInput = z.object({ mint: Address.optional() })
export type WatchlistAmountSeriesInput = z.infer<typeof WatchlistAmountSeriesInput>
