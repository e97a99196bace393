import type { StreamName, StreamPatch } from '../../db/mirror-writer'
import { BackfillWrites } from './backfill-writes'
import { isLookedUpTopFresh, lookedUpTopMark } from './looked-up-top'
import type { StreamContext, StreamResult } from './stream-context'

/** How one newest-first, cursor-paged stream is fetched and stored. */
export interface CursorStreamSpec<T> {
  stream: StreamName
  /** The most items a page may hold (the interface's maximum for this call). */
  pageLimit: number
  /**
   * Fetches a page of at most `limit` items; `nextCursor` null means there is no older
   * page.
   */
  fetchPage(
    cursor: string | undefined,
    limit: number,
  ): Promise<{ items: T[]; nextCursor: string | null }>
  /** The index of the first item already in the mirror, or -1. */
  firstKnown(items: readonly T[]): Promise<number>
  keyOf(item: T): string
  /** Writes the items and the patch in one transaction; resolves to how many were new. */
  apply(items: T[], patch: StreamPatch): Promise<number>
  /** Whether an item is older than the user's depth limit (a date); the backfill stops there. */
  isBeyondDepth?(item: T): boolean
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
 * Then the backfill continues from its own cursor to the end. A top a look-up read
 * moments ago ("watch this wallet") is trusted instead of walked again.
 */
export async function syncCursorStream<T>(
  ctx: StreamContext,
  spec: CursorStreamSpec<T>,
): Promise<StreamResult> {
  const { writer, walletId } = ctx
  const result: StreamResult = { stream: spec.stream, pages: 0, newItems: 0 }
  let row = await writer.stream(walletId, spec.stream)
  const isTopFresh = isLookedUpTopFresh(row, ctx.nowSec())
  if (row.newestKey === null && row.isBackfillComplete && !isTopFresh) {
    // Nothing was ever found: look again from the top.
    await writer.patchStream(walletId, spec.stream, {
      isBackfillComplete: false,
      backfillCursor: null,
    })
    row = await writer.stream(walletId, spec.stream)
  }

  type Page = { items: T[]; nextCursor: string | null }
  const page = async (cursor: string | undefined, limit = spec.pageLimit): Promise<Page> => {
    const fetched = await spec.fetchPage(cursor, limit)
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
      const { items, nextCursor } = await page(cursor)
      const knownAt = await firstKnownEnd(items)
      const fresh = knownAt === -1 ? items : items.slice(0, knownAt)
      const closed = knownAt !== -1 || nextCursor === null
      result.newItems += await spec.apply(fresh, {
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

  if (row.gapCursor !== null) await walkDown(row.gapCursor, 'gap')
  if (row.newestKey !== null && !isTopFresh) await walkDown(undefined, 'new-items')
  row = await writer.stream(walletId, spec.stream)

  // A count limit asks only for what it still allows: N stored, not a full last page.
  // Each call costs the same whatever its limit (docs/service.md), so never more.
  const limitFor = (stored: number): number =>
    row.depthLimitCount === null
      ? spec.pageLimit
      : Math.min(spec.pageLimit, row.depthLimitCount - stored)
  if (!row.isBackfillComplete && limitFor(row.itemsStored) <= 0) {
    await writer.patchStream(walletId, spec.stream, { isBackfillComplete: true })
    return result
  }
  if (row.isBackfillComplete) return result

  const writes = new BackfillWrites(ctx, row, (inserted) => {
    result.newItems += inserted
    report('backfill')
  })
  let next: Promise<Page> | null = page(row.backfillCursor ?? undefined, limitFor(row.itemsStored))
  try {
    while (next !== null) {
      const { items, nextCursor }: Page = await next
      const storedBefore = writes.storedAfterPending
      const beyond =
        spec.isBeyondDepth !== undefined && items.some((item) => spec.isBeyondDepth?.(item))
      const countReached =
        row.depthLimitCount !== null && storedBefore + items.length >= row.depthLimitCount
      const complete: boolean = nextCursor === null || items.length === 0 || beyond || countReached
      // The next page is asked for while this one (and those before it) are written.
      next =
        complete || nextCursor === null
          ? null
          : page(nextCursor, limitFor(storedBefore + items.length))
      next?.catch(() => {})
      const first = items[0]
      const sent = {
        items: items.length,
        newestKey: first === undefined ? undefined : spec.keyOf(first),
        cursor: nextCursor,
        isComplete: complete,
        isLast: next === null,
      }
      await writes.send(sent, (patch) => spec.apply(items, patch))
    }
  } finally {
    await writes.settle()
  }
  return result
}
