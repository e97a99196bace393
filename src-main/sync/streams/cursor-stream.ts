import type { KeptAsideItem } from '@shared/api/answer-edge'
import type { OperationName } from '@shared/api/operations'
import type { StreamName, StreamPatch } from '../../db/mirror-writer'
import { BackfillWrites } from './backfill-writes'
import { keptAsidePatch } from './kept-aside-pages'
import { isLookedUpTopFresh, lookedUpTopMark } from './looked-up-top'
import type { StreamContext, StreamResult } from './stream-context'

/** How one newest-first, cursor-paged stream is fetched and stored. */
export interface CursorStreamSpec<T> {
  stream: StreamName
  /** The most items a page may hold (the interface's maximum for this call). */
  pageLimit: number
  /** The operation that answers the pages (named with the items kept aside). */
  operation: OperationName
  /**
   * Fetches a page of at most `limit` items; `nextCursor` null means there is no older
   * page. `keptAside`: the page's items the edge could not read.
   */
  fetchPage(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: T[]; nextCursor: string | null; keptAside?: readonly KeptAsideItem[] }>
  /** The index of the first item already in the mirror, or -1. */
  firstKnown(items: readonly T[]): Promise<number>
  keyOf(item: T): string
  /** Writes the items and the patch in one transaction; resolves to how many were new. */
  apply(items: T[], patch: StreamPatch): Promise<number>
  /** An item's block time (null when unknown): the history's reach is told in time. */
  timeOf(item: T): number | null
  /**
   * Whether a known item may end the walk for new items: items the mirror lacks can lie
   * below known ones (watching found them), and the walk goes down to them. All by default.
   */
  isBelowMissing?(item: T): boolean
}

/**
 * Syncs a newest-first stream that pages with an opaque cursor (transfers, compression
 * signatures). New items: walk down from the top and stop at the first known item. If
 * that walk is cut short, its cursor is saved as the gap cursor with each page, and the
 * next run closes the gap before anything else — so new and old items always meet.
 * Then the backfill continues from its own cursor to the end, or as far back as the
 * stored history reaches (`ctx.historyReach`). A top a look-up read moments ago ("watch
 * this wallet") is trusted instead of walked again.
 */
export async function syncCursorStream<T>(
  ctx: StreamContext,
  spec: CursorStreamSpec<T>,
): Promise<StreamResult> {
  const { writer, walletId } = ctx
  const result: StreamResult = { stream: spec.stream, pages: 0, newItems: 0 }
  let row = await writer.stream(walletId, spec.stream)
  const isTopFresh = isLookedUpTopFresh(row, ctx.nowSec())
  if (row.newestKey === null && row.isBackfillComplete && !isTopFresh && !ctx.older) {
    // Nothing was ever found: look again from the top.
    await writer.patchStream(walletId, spec.stream, {
      isBackfillComplete: false,
      backfillCursor: null,
    })
    row = await writer.stream(walletId, spec.stream)
  }

  type Page = { items: T[]; nextCursor: string | null; keptAside?: readonly KeptAsideItem[] }
  const page = async (cursor: string | undefined): Promise<Page> => {
    const fetched = await spec.fetchPage(cursor, spec.pageLimit)
    result.pages += 1
    return fetched
  }
  const report = (phase: 'new-items' | 'backfill' | 'gap'): void =>
    ctx.report({
      stream: spec.stream,
      phase,
      pages: result.pages,
      items: result.newItems,
      estimatedRemainingPages: null,
      estimatedRemainingCredits: null,
    })

  /** The first known item that may end the walk for new items, or -1. */
  const firstKnownEnd = async (items: readonly T[]): Promise<number> => {
    const below = spec.isBelowMissing
    if (below === undefined) return spec.firstKnown(items)
    const from = items.findIndex((item) => below(item))
    if (from === -1) return -1
    const at = await spec.firstKnown(items.slice(from))
    return at === -1 ? -1 : from + at
  }

  // Walks down from `cursor` (undefined = the top) until a known item or the end.
  const walkDown = async (
    cursor: string | undefined,
    phase: 'new-items' | 'gap',
  ): Promise<void> => {
    let isFirstPage = phase === 'new-items'
    for (;;) {
      const { items, nextCursor, keptAside = [] } = await page(cursor)
      const knownAt = await firstKnownEnd(items)
      const fresh = knownAt === -1 ? items : items.slice(0, knownAt)
      const closed = knownAt !== -1 || nextCursor === null
      result.newItems += await spec.apply(fresh, {
        ...keptAsidePatch(spec.operation, keptAside, ctx.nowSec()),
        ...(isFirstPage && items[0] ? { newestKey: spec.keyOf(items[0]) } : {}),
        ...(isFirstPage ? lookedUpTopMark(ctx) : {}),
        gapCursor: closed ? null : nextCursor,
        addPages: 1,
        succeededAtSec: ctx.nowSec(),
      })
      report(phase)
      if (closed) return
      cursor = nextCursor as string
      isFirstPage = false
    }
  }

  const isOlder = ctx.older !== undefined
  if (!isOlder) {
    if (row.gapCursor !== null) await walkDown(row.gapCursor, 'gap')
    if (row.newestKey !== null && !isTopFresh) await walkDown(undefined, 'new-items')
    row = await writer.stream(walletId, spec.stream)
  }

  // Routine syncs backfill an incomplete stream; a load of older history goes on from the
  // cursor of a complete one (none left: its end is held).
  if (isOlder ? row.backfillCursor === null : row.isBackfillComplete) return result
  const reach = ctx.historyReach
  if (reach?.isReached) {
    // As deep as the history already: done once the history's backfill is.
    if (!isOlder && reach.isHistoryComplete)
      await writer.patchStream(walletId, spec.stream, { isBackfillComplete: true })
    return result
  }
  const bound = reach?.sinceSec ?? null
  const writes = new BackfillWrites(ctx, row, (inserted) => {
    result.newItems += inserted
    report('backfill')
  })
  let next: Promise<Page> | null = page(row.backfillCursor ?? undefined)
  try {
    while (next !== null) {
      const fetched: Page = await next
      const { items, nextCursor } = fetched
      const keptAside = fetched.keptAside ?? []
      const isEmpty: boolean = items.length === 0 && keptAside.length === 0
      const reachedEnd: boolean = nextCursor === null || isEmpty
      const isPastReach: boolean =
        bound !== null && items.some((item) => (spec.timeOf(item) ?? Infinity) < bound)
      // Past the history's reach the walk stops; it is complete once the history's is.
      const complete = reachedEnd || (isPastReach && (reach?.isHistoryComplete ?? true))
      // The next page is asked for while this one (and those before it) are written.
      next = reachedEnd || isPastReach || nextCursor === null ? null : page(nextCursor)
      next?.catch(() => {})
      const first = items[0]
      const sent = {
        items: items.length,
        newestKey: first === undefined ? undefined : spec.keyOf(first),
        cursor: nextCursor,
        isComplete: isOlder || complete,
        isLast: next === null,
      }
      const aside = keptAsidePatch(spec.operation, keptAside, ctx.nowSec())
      await writes.send(sent, (patch) => spec.apply(items, { ...patch, ...aside }))
    }
  } finally {
    await writes.settle()
  }
  return result
}
