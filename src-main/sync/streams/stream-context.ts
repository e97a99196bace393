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
   * Transactions of the wallet the mirror lacks below its newest item (watching listed
   * them): the streams read from below them instead of from their newest item.
   */
  missing?: MissingBelowNewest
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
