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
}

/** A stream's tally for one run. */
export interface StreamResult {
  stream: StreamName
  pages: number
  newItems: number
}
