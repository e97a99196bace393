import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'

/** The streams kept per wallet, in the order status lists them. */
export const StreamName = z.enum([
  'history',
  'transfers',
  'balances',
  'compressed-owner',
  'compressed-token-owner',
])
export type StreamName = z.infer<typeof StreamName>

// What one item of each stream is, the unit of a stream's item count (`status`, Activity:
// StreamStatus.itemsStored) and of a sync's "new" (StreamOutcome.newItems): history counts
// transactions, transfers its transfers, the compressed streams their signatures, all
// stored; balances count the holdings (tokens and NFTs) of the current snapshot, which a
// new snapshot replaces (the writer's `items` patch).

/**
 * A sync run's new items of a stream: how many more it counts after the run than before
 * (a balances snapshot with fewer holdings than the last has none new).
 *
 * @example
 * newItemsOf(100, 175) // 75
 */
export function newItemsOf(itemsBefore: number, itemsAfter: number): number {
  return Math.max(0, itemsAfter - itemsBefore)
}

/** How a stream stands, in words the UI shows. */
export const StreamState = z.enum([
  'idle',
  'syncing',
  'ok',
  'paused',
  'error',
  'offline',
  'budget',
  'cancelled',
])
export type StreamState = z.infer<typeof StreamState>

/** One stream's row, for Activity and `cli status`. */
export const StreamStatus = z.object({
  stream: StreamName,
  state: StreamState,
  /** The stream's items (see newItemsOf): stored, or the current snapshot's holdings. */
  itemsStored: z.number().int(),
  pagesFetched: z.number().int(),
  /** All-time credits of the calls that fetched this stream's pages (from the ledger). */
  creditsSpent: z.number().int(),
  isBackfillComplete: z.boolean(),
  newestKey: z.string().nullable(),
  backfillCursor: z.string().nullable(),
  depthLimitCount: z.number().int().nullable(),
  depthLimitSinceSec: z.number().int().nullable(),
  lastSuccessSec: z.number().int().nullable(),
  lastError: z.string().nullable(),
  isPaused: z.boolean(),
})
export type StreamStatus = z.infer<typeof StreamStatus>

/** A wallet's overall sync state (worst of its streams, or "syncing"). */
export const WalletSyncState = z.enum([
  'never',
  'syncing',
  'up-to-date',
  'paused',
  'error',
  'offline',
  'budget',
  /** Nothing failed in the wallet, but syncing as a whole is stopped (a health condition). */
  'stopped',
])
export type WalletSyncState = z.infer<typeof WalletSyncState>

/**
 * A load of history that asks first (more than a tenth of what is left of this month's
 * credits): the wallet, what it would take (its high estimate), what is left, in words.
 */
export const ApprovalNeeded = z.object({
  address: z.string(),
  kind: z.enum(['first-sync', 'older']),
  credits: z.number().int().min(0),
  leftThisMonth: z.number().int().min(0),
  summary: z.string(),
})
export type ApprovalNeeded = z.infer<typeof ApprovalNeeded>

/** A wallet's sync status with its streams. */
export const WalletSyncStatus = z.object({
  address: z.string(),
  label: z.string().nullable(),
  state: WalletSyncState,
  message: z.string().nullable(),
  /** The person paused the wallet: no call is made for it until resumed. */
  isPaused: z.boolean(),
  /** All-time credits of the wallet's calls (its streams' and its mint look-ups'). */
  creditsSpent: z.number().int(),
  streams: z.array(StreamStatus),
  /** Its first sync waits for the person to agree to what it costs (watching asked first). */
  askedFirst: ApprovalNeeded.optional(),
})
export type WalletSyncStatus = z.infer<typeof WalletSyncStatus>

/** How one stream's run ended. */
export const StreamOutcome = z.object({
  stream: StreamName,
  state: StreamState,
  pages: z.number().int(),
  /** How many more items the stream counts after the run than before (newItemsOf). */
  newItems: z.number().int(),
  /** Credits of the calls the stream made in this run (a DAS page costs less than a wallet page). */
  credits: z.number().int(),
  error: z.string().optional(),
})
export type StreamOutcome = z.infer<typeof StreamOutcome>

/** What a names pass over the counterparties asked (`sync:name-counterparties`). */
export const NamesPass = z.object({
  /** batch-identity calls made: ⌈unnamed counterparties / 100⌉. */
  calls: z.number().int(),
})
export type NamesPass = z.infer<typeof NamesPass>

/** How one wallet's sync ended (`sync:run`): the worst stream state stands for the run. */
export const WalletSyncOutcome = z.object({
  address: z.string(),
  streams: z.array(StreamOutcome),
  state: StreamState,
  newTransactions: z.number().int(),
})
export type WalletSyncOutcome = z.infer<typeof WalletSyncOutcome>

/** Progress pushed after every committed page (`sync:progress`). */
export const SyncProgress = z.object({
  address: z.string(),
  stream: StreamName,
  phase: z.enum(['new-items', 'backfill', 'gap', 'snapshot', 'done']),
  pages: z.number().int(),
  items: z.number().int(),
  creditsSpent: z.number().int(),
  estimatedRemainingPages: z.number().int().nullable(),
  /** What those pages cost, where known (a large NFT collection, once its first page is in). */
  estimatedRemainingCredits: z.number().int().nullable().default(null),
})
export type SyncProgress = z.infer<typeof SyncProgress>

/** New activity found by a sync (`sync:activity`), for a notification or toast. */
export const ActivityNotice = z.object({
  address: z.string(),
  label: z.string().nullable(),
  newTransactions: z.number().int(),
  /** One line, e.g. "+12.5 USDC to Trading wallet". */
  summary: z.string(),
  atSec: z.number().int(),
})
export type ActivityNotice = z.infer<typeof ActivityNotice>

/** What watching can find moved in a wallet (the detector's reasons). */
export const ChangeReason = z.enum([
  'balance',
  'new-token-account',
  'compressed',
  'backstop-signature',
  /** The full check read the history's newest page (changes recorded before it listed signatures only). */
  'backstop-history',
  /** A webhook delivery named the wallet (webhook mode). */
  'delivery',
])
export type ChangeReason = z.infer<typeof ChangeReason>

/** A change watching detected and synced: one line of the CLI's watch log. */
export const WatchChange = z.object({
  address: z.string(),
  label: z.string().nullable(),
  reasons: z.array(ChangeReason),
  /** Transactions the sync it caused found. */
  newTransactions: z.number().int(),
  /** Credits that sync spent. */
  syncCredits: z.number().int(),
  /** Seconds from the round that found it to the end of its sync. */
  latencySec: z.number(),
  state: StreamState,
  /** One line, e.g. "Trading wallet: balance moved; 2 new transactions (300 credits)". */
  summary: z.string(),
  atSec: z.number().int(),
})
export type WatchChange = z.infer<typeof WatchChange>

/** The user's limit on how deep a backfill goes: a number of transactions and/or a date. */
export const DepthLimit = z.object({
  maxTransactions: z.number().int().min(1).max(10_000_000).nullable(),
  sinceSec: z.number().int().min(0).nullable(),
})
export type DepthLimit = z.infer<typeof DepthLimit>

/**
 * How deep a new wallet's first sync goes unless the person chooses otherwise: its newest
 * 1,000 transactions (and their transfers). Older history is loaded on request.
 */
export const FIRST_SYNC_DEPTH: DepthLimit = { maxTransactions: 1_000, sinceSec: null }

/** Input of `sync:start`: one wallet, or every watched wallet when omitted. */
export const SyncStartInput = z.object({ address: WalletAddressInput.optional() })

/** Input of the per-wallet sync channels. */
export const SyncWalletInput = z.object({ address: WalletAddressInput })

/** Input of `sync:set-depth`. */
export const SyncDepthInput = z.object({ address: WalletAddressInput, depth: DepthLimit })

/** A sync's estimated cost, shown before it runs. */
export const SyncEstimate = z.object({
  address: z.string(),
  /**
   * Upper bound of credits, or null when the backfill has no depth limit and its size is
   * unknown. NFT holdings of unknown size (never synced) are left out; the summary says so.
   */
  maxCredits: z.number().int().nullable(),
  lines: z.array(
    z.object({
      /** A stream, or `nft-holdings`: the balances stream's DAS holdings pages, priced apart. */
      stream: z.union([StreamName, z.literal('nft-holdings')]),
      calls: z.number().int().nullable(),
      credits: z.number().int().nullable(),
      note: z.string(),
    }),
  ),
  summary: z.string(),
  /** The wallet's first sync is still to run or finish: the whole of it is priced, and it may ask first. */
  isFirstSync: z.boolean().optional(),
})
export type SyncEstimate = z.infer<typeof SyncEstimate>

/** Credits for the UI: spent today and this month, budgets and what is left. */
export const CreditsOverview = z.object({
  todayCredits: z.number(),
  monthCredits: z.number(),
  totalCredits: z.number(),
  totalCalls: z.number(),
  dailyBudget: z.number().nullable(),
  monthlyBudget: z.number().nullable(),
  byOperation: z.array(
    z.object({ operation: z.string(), calls: z.number(), credits: z.number(), errors: z.number() }),
  ),
  byDay: z.array(z.object({ day: z.string(), endpointClass: z.string(), credits: z.number() })),
  /** All-time credits per wallet; with `sharedCredits` they add up to `totalCredits`. */
  byWallet: z.array(
    z.object({
      address: z.string(),
      calls: z.number(),
      credits: z.number(),
      /** False when every call for it was a look-up: it was never on the watchlist. */
      wasWatched: z.boolean(),
    }),
  ),
  /** All-time credits of looks over many wallets at once, which no one wallet caused. */
  sharedCredits: z.number(),
})
export type CreditsOverview = z.infer<typeof CreditsOverview>
