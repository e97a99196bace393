import type { StreamPatch, StreamRow } from '../../db/mirror-writer'
import type { StreamContext } from './stream-context'

/**
 * How long a stream's top page, as a look-up read it, stands in for the first sync's own
 * read of it. Right after "watch this wallet" the top is the page the look-up just bought;
 * reading it again would pay twice for the same items. Ten minutes keeps that saving for
 * a person who looks up and then watches, while anything newer than the look-up is found
 * by the sync after (every sync clears the mark) or by watching's balance looks.
 */
export const LOOKED_UP_TOP_FRESH_SEC = 10 * 60

/**
 * Whether this sync may trust the stream's top as a look-up read it instead of reading it
 * again: the look-up is younger than the window (a clock gone back trusts nothing).
 */
export function isLookedUpTopFresh(row: StreamRow, nowSec: number): boolean {
  if (row.topReadAtSec === null) return false
  const ageSec = nowSec - row.topReadAtSec
  return ageSec >= 0 && ageSec < LOOKED_UP_TOP_FRESH_SEC
}

/**
 * The mark a top page carries when the stream runs over a look-up's answers: when the
 * look-up read it, written in the page's own transaction. A sync's pages carry none.
 */
export function lookedUpTopMark(ctx: StreamContext): Pick<StreamPatch, 'topReadAtSec'> {
  return ctx.lookupFetchedAtSec === undefined ? {} : { topReadAtSec: ctx.lookupFetchedAtSec }
}
