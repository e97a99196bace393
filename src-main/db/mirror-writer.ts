import type { DescribedEntry } from '@shared/api/webhook-delivery'
import type { KeptAsideItem } from '@shared/api/answer-edge'
import type { TransferEntry, WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import { StreamName } from '@shared/ipc/sync-schemas'

export type { StreamName }

/** The streams the engine keeps per wallet, in the order status lists them. */
export const STREAM_NAMES = StreamName.options

/** A stream's row as the engine reads it. */
export interface StreamRow {
  walletId: number
  stream: StreamName
  state: string
  newestKey: string | null
  backfillCursor: string | null
  gapCursor: string | null
  isBackfillComplete: boolean
  depthLimitCount: number | null
  depthLimitSinceSec: number | null
  itemsStored: number
  pagesFetched: number
  isPaused: boolean
  lastError: string | null
  /** When a look-up read the top page "watch this wallet" wrote into this stream; else null. */
  topReadAtSec: number | null
}

/**
 * What a committed page changes in its stream's row. `undefined` leaves a column as it
 * is; `null` clears it.
 */
export interface StreamPatch {
  state?: string
  newestKey?: string | null
  backfillCursor?: string | null
  gapCursor?: string | null
  isBackfillComplete?: boolean
  lastError?: string | null
  isPaused?: boolean
  /** Marks the page as the stream's top as a look-up read it (written with that page). */
  topReadAtSec?: number | null
  /** Counted in the same transaction as the page's rows. */
  addPages?: number
  /**
   * Sets the stream's item count instead of adding the page's new rows: a snapshot's
   * holdings replace the last snapshot's (see newItemsOf).
   */
  items?: number
  succeededAtSec?: number
  /**
   * Records the page's new transactions (or the new snapshot) in the alert inbox, in the
   * page's own transaction, so rules see every change sync writes exactly once, even
   * across a crash. Set for news only: new items at the top and snapshots after the first,
   * never the backfill of the past.
   */
  forAlertsAtMs?: number
  /**
   * Stores the page only while the stream's backfill cursor is still this one, the cursor
   * the page was asked for from; otherwise writes nothing and fails. A page sent while
   * the page before it was still being written must not be stored when that one failed:
   * its cursor would skip the lost page's transactions.
   */
  continuesBackfillFrom?: string | null
  /**
   * The page's items the edge could not read, kept aside in the page's own transaction:
   * the rest of the page and its cursor are stored with them (never a stopped stream).
   */
  keptAside?: KeptAsidePatch
  /** Items kept aside before that this page writes now that they can be read: marked written. */
  keptAsideWritten?: { ids: readonly number[]; atSec: number }
}

/** Items of one answer the edge could not read, to keep aside with their page. */
export interface KeptAsidePatch {
  /** The operation whose answer held them (wallet.history, das.getAssetsByOwner, …). */
  operation: string
  items: readonly KeptAsideItem[]
  /** When they were read. */
  atSec: number
  /**
   * The stream's items still kept aside are replaced by these: a holdings snapshot is
   * taken whole, so a holding the last one could not read says nothing now.
   */
  replaces?: boolean
}

/** A compression signature item as the writer needs it. */
export interface CompressedSignatureItem {
  signature: string
  slot: number
  blockTime: number
  error?: string | null | undefined
}

/** A wallet's compressed state at one time, as the writer stores it. */
export interface CompressedState {
  /** getCompressedBalanceByOwner, in lamports. */
  lamportsRaw: string
  tokens: readonly { mint: string; amountRaw: string }[]
  accounts: readonly {
    hash: string
    address: string | null
    lamportsRaw: string
    tree: string
    leafIndex: number
    slotCreated: number
  }[]
}

/**
 * The sync engine's write path, whatever the engine: each fetched page is written with its
 * stream's cursor in one transaction, so a crash at any point leaves either the whole page
 * and its cursor, or neither. Re-writing a page is a no-op: every row has a natural key.
 * Methods are async so that a server database can implement them.
 */
export interface MirrorWriter {
  /**
   * How many pages of one stream may be sent before the first of them is stored: more
   * than one only where writes are applied one at a time in the order they were made
   * (and can then share a commit).
   */
  readonly pagesInFlight: number
  /** The internal id of a watched wallet, or null when it is not watched (any more). */
  walletId(address: string): Promise<number | null>
  /** A stream's row, created on first use. */
  stream(walletId: number, stream: StreamName): Promise<StreamRow>
  /**
   * Every stream row of these wallets (each wallet's in STREAM_NAMES order), created on
   * first use: a watch round reads a whole watchlist's in one go, not one trip per stream.
   */
  streams(walletIds: readonly number[]): Promise<StreamRow[]>
  /** Applies a patch to a stream row outside any page (state changes, errors). */
  patchStream(walletId: number, stream: StreamName, patch: StreamPatch): Promise<void>
  /** One page of history and the cursor; resolves to how many transactions were new. */
  applyHistoryPage(
    walletId: number,
    entries: readonly DescribedEntry[],
    patch: StreamPatch,
  ): Promise<number>
  /** One page of transfers and the cursor; resolves to how many were new. */
  applyTransfersPage(
    walletId: number,
    entries: readonly TransferEntry[],
    patch: StreamPatch,
  ): Promise<number>
  /**
   * The index of the first transfer already stored, or -1. Known by the whole natural key,
   * not just the signature: one transaction's transfers can be split across two pages.
   */
  firstKnownTransfer(walletId: number, entries: readonly TransferEntry[]): Promise<number>
  /** A complete balances snapshot as one point in time; refreshes the mint cache from it. */
  applyBalancesSnapshot(
    walletId: number,
    takenAtSec: number,
    balances: readonly WalletBalance[],
    nfts: readonly WalletNft[],
    patch: StreamPatch,
  ): Promise<number>
  /** One page of compression signatures and the cursor; resolves to how many were new. */
  applyCompressedSignaturesPage(
    walletId: number,
    stream: CompressedStreamName,
    items: readonly CompressedSignatureItem[],
    patch: StreamPatch,
  ): Promise<number>
  /** The index of the first compression signature already stored, or -1. */
  firstKnownCompressedSignature(
    walletId: number,
    stream: CompressedStreamName,
    items: readonly CompressedSignatureItem[],
  ): Promise<number>
  /** Which of these signatures the wallet's stored history holds. */
  knownSignatures(walletId: number, signatures: readonly string[]): Promise<Set<string>>
  /**
   * Replaces a snapshot's NFTs with a fuller list (every page of DAS getAssetsByOwner) and
   * counts those pages in the balances stream, in one transaction.
   */
  applySnapshotNfts(
    walletId: number,
    snapshotId: number,
    nfts: readonly WalletNft[],
    patch: StreamPatch,
  ): Promise<void>
  /** Whether any compression signature (as owner or token owner) is stored for the wallet. */
  hasCompressedActivity(walletId: number): Promise<boolean>
  /** A wallet's compressed state as one point in time; resolves to the snapshot's id. */
  applyCompressedSnapshot(
    walletId: number,
    takenAtSec: number,
    state: CompressedState,
  ): Promise<number>
}

/** The two compression-signature streams. */
export type CompressedStreamName = Extract<
  StreamName,
  'compressed-owner' | 'compressed-token-owner'
>

/**
 * A page's {@link StreamPatch.continuesBackfillFrom} no longer matches: the page before it
 * was not stored. The writer rolls the page back; its caller already has the first error.
 */
export function cursorMovedError(): Error {
  return Object.assign(
    new Error('the page before it was not stored, so its backfill cursor no longer follows on'),
    { code: 'CURSOR_MOVED' },
  )
}
