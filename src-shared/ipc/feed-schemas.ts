import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'
import { ServiceSaid } from './review-schemas'
import { WalletTag } from './watchlist-schemas'

/** Largest feed page: a screen or a script's batch, small enough to stay fast. */
export const MAX_FEED_PAGE_ROWS = 200

/** Most unread rows counted: past this the feed says "999+" instead of counting on. */
export const MAX_UNREAD_COUNT = 999

/** A transaction type as the mirror keeps it (SWAP, TRANSFER, NFT_SALE, UNKNOWN, …). */
export const FeedKind = z
  .string()
  .trim()
  .transform((kind) => kind.toUpperCase())
  .pipe(z.string().regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'a type is a word such as SWAP or TRANSFER'))

/**
 * The feed's filters; every one narrows (all empty: every watched wallet's transactions).
 * Token, direction and minimum USD value apply to one and the same leg: "in, USDC, ≥ $1,000"
 * is a transaction that brought the wallet at least $1,000 of USDC.
 */
export const FeedFilters = z.object({
  /** These wallets (and those of `tags`); none: every watched wallet. */
  wallets: z.array(WalletAddressInput).max(500).default([]),
  /** Wallets carrying any of these tags. */
  tags: z.array(WalletTag).max(50).default([]),
  /** Transactions of these types; UNKNOWN also matches rows whose type was never derived. */
  kinds: z.array(FeedKind).max(20).default([]),
  /** The wallet's net movement of a token, fee left out: in (received) or out (sent). */
  direction: z.enum(['in', 'out']).nullable().default(null),
  /** A mint address or a symbol (any case; every mint with that symbol). */
  token: z.string().trim().min(1).max(64).nullable().default(null),
  /** At least this many US dollars moved in one leg, where the token's price is known. */
  minUsd: z.number().finite().nonnegative().nullable().default(null),
})
export type FeedFilters = z.output<typeof FeedFilters>
export type FeedFiltersInput = z.input<typeof FeedFilters>

/** Where a feed page continues (or, for `newerThan`, what was already seen): a row's sort key. */
export const FeedCursor = z.object({
  slot: z.number().int().nonnegative(),
  id: z.number().int().nonnegative(),
})
export type FeedCursor = z.infer<typeof FeedCursor>

/** Input of `feed:page`. Without a cursor it answers the newest page. */
export const FeedPageInput = z.object({
  filters: FeedFilters.default(FeedFilters.parse({})),
  cursor: FeedCursor.nullable().default(null),
  /** Only rows newer than this (for following the feed as rows land); null: no bound. */
  newerThan: FeedCursor.nullable().default(null),
  limit: z.number().int().min(1).max(MAX_FEED_PAGE_ROWS).default(50),
})
export type FeedPageInput = z.input<typeof FeedPageInput>

/** One token a feed row moved: the wallet's net change, fee left out, with its USD value. */
export const FeedAmount = z.object({
  mint: z.string(),
  symbol: z.string().nullable(),
  /** Exact signed decimal text (decimals applied). */
  amount: z.string(),
  /** The amount's absolute value in US dollars at the mint's known price; null without one. */
  usd: z.number().nullable(),
})
export type FeedAmount = z.infer<typeof FeedAmount>

/** One transaction of one watched wallet, as the feed shows it. */
export const FeedRow = z.object({
  signature: z.string(),
  wallet: z.string(),
  walletLabel: z.string().nullable(),
  slot: z.number().int(),
  /** Block time, ISO-8601 UTC; null when the chain gave none. */
  time: z.string().nullable(),
  kind: z.string(),
  summary: z.string(),
  /** What the service said of it (source, sentence, NFT sale), where it said anything. */
  said: ServiceSaid,
  amounts: z.array(FeedAmount),
  /** The largest leg's USD value; null when no leg's price is known. */
  usd: z.number().nullable(),
  isFailed: z.boolean(),
  /** Landed after the feed was last viewed. */
  isUnread: z.boolean(),
  /** The row's place in the feed (a cursor for `newerThan` and `feed:mark-viewed`). */
  key: FeedCursor,
})
export type FeedRow = z.infer<typeof FeedRow>

/** A feed page, newest first. */
export const FeedPage = z.object({
  rows: z.array(FeedRow),
  /** Where the next (older) page starts; null at the end. */
  nextCursor: FeedCursor.nullable(),
  /** Matching rows that landed since the feed was last viewed, up to MAX_UNREAD_COUNT. */
  unreadCount: z.number().int().nonnegative(),
  /** Whether there are more unread rows than counted. */
  isUnreadCapped: z.boolean(),
})
export type FeedPage = z.infer<typeof FeedPage>

/** Input of `feed:mark-viewed`: the newest row the person saw. */
export const FeedMarkViewedInput = z.object({ upTo: FeedCursor })
export type FeedMarkViewedInput = z.input<typeof FeedMarkViewedInput>
