import type { LoadDepth } from '@shared/domain/history-load-cost'
import type { OperationInput, OperationName, OperationOutput } from '@shared/api/operations'
import type { MirrorWriter, StreamName } from '../../db/mirror-writer'

/** Progress of one stream, reported after every committed page. */
export interface StreamProgress {
  stream: StreamName
  phase: 'new-items' | 'backfill' | 'gap' | 'snapshot' | 'done'
  pages: number
  items: number
  /** Pages still to fetch when that can be known (a depth-limited backfill), else null. */
  estimatedRemainingPages: number | null
  /** What those pages cost, where the stream knows their price; else null. */
  estimatedRemainingCredits: number | null
}

/** What a stream needs to run: the wallet, the writer and a metered, shaped service call. */
export interface StreamContext {
  walletId: number
  address: string
  writer: MirrorWriter
  /** Calls the service through the rate shaper and the credit meter, bound to the sync's signal. */
  call<N extends OperationName>(operation: N, input: OperationInput<N>): Promise<OperationOutput<N>>
  report(progress: StreamProgress): void
  nowSec(): number
  /**
   * When set, new items at the top and new snapshots are news for the alert rules, stamped
   * with this time; a look-up's recorded answers are not news and leave it unset.
   */
  newsAtMs?: () => number
  signal: AbortSignal
  /**
   * Set when the stream runs over a look-up's recorded answers ("watch this wallet"): when
   * they were fetched. Its top pages are marked as read then, for the first sync to trust.
   */
  lookupFetchedAtSec?: number
  /**
   * Mints DAS had no price for, and when it was asked (UTC seconds): not asked again for a
   * day. One map per engine, shared by its runs.
   */
  unpricedByDas?: Map<string, number>
  /**
   * For a stream that follows the history (transfers, compression signatures): how far
   * back the stored history reaches, which is as far back as this stream goes. Absent: the
   * stream goes back to its end.
   */
  historyReach?: HistoryReach
  /**
   * Set for a load of older history (`sync --deeper`): only the backfill runs, from the
   * stream's cursor on past a complete row, as far as this depth (history) or the history's
   * reach (the others). The row stays complete: routine syncs keep to new items meanwhile.
   */
  older?: { depth: HistoryDepth }
  /**
   * Transactions of the wallet the mirror lacks below its newest item (watching listed
   * them): the streams read from below them instead of from their newest item.
   */
  missing?: MissingBelowNewest
}

/** How deep the history goes: a number of transactions held, a date, or both null (all). */
export type HistoryDepth = LoadDepth

/**
 * How far back the stored history of a wallet reaches, for the streams that follow it: a
 * wallet's first sync holds its newest transactions "and their transfers", not the newest
 * transfers of its whole life.
 */
export interface HistoryReach {
  /**
   * The oldest stored transaction's time: the backfill stops at the page that reaches an
   * item older than it. Null: the history is held to its start, so there is no bound.
   */
  sinceSec: number | null
  /** Whether the history's backfill is done: only then does reaching the bound complete this one's. */
  isHistoryComplete: boolean
  /** This stream already holds an item past the bound: nothing older is asked for now. */
  isReached: boolean
}

/**
 * Where the new items a sync must read begin, when some lie below the newest stored item:
 * a transaction found on a signature list after a newer one was stored (a memo naming the
 * wallet, then a receipt into its token account, found first by the look).
 */
export interface MissingBelowNewest {
  /** History pages `after` this stored signature (the newest below the missing ones). */
  historyAfter: string
  /** Transfers are walked down to the first known one older than this (UTC seconds). */
  sinceSec: number | null
}

/** A stream's tally for one run. */
export interface StreamResult {
  stream: StreamName
  pages: number
  newItems: number
}
