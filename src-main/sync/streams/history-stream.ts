import type { HistoryEntry } from '@shared/api/wallet-rest'
import type { StreamRow } from '../../db/mirror-writer'
import { BackfillWrites } from './backfill-writes'
import { isLookedUpTopFresh } from './looked-up-top'
import type { StreamContext, StreamResult } from './stream-context'

/** History page size: the interface's maximum (4.1), so every 100 credits buys 100 items. */
export const HISTORY_PAGE_LIMIT = 100

/**
 * Keeps a wallet's history complete. New items come with `after` = the newest stored
 * signature (or a stored one below transactions watching found missing under it): pages
 * ascend and every page moves the cursor forward, so it
 * costs ⌈new/100⌉ calls (one when nothing is new) — never more than walking down from
 * the newest until a known signature, which needs that extra known item. Then the
 * backfill walks newest → oldest with `before` until the end or the depth limit.
 * A top a look-up read moments ago ("watch this wallet") is trusted instead of asked again.
 */
export async function syncHistory(ctx: StreamContext): Promise<StreamResult> {
  const { writer, walletId } = ctx
  const result: StreamResult = { stream: 'history', pages: 0, newItems: 0 }
  let row = await writer.stream(walletId, 'history')
  const isTopFresh = isLookedUpTopFresh(row, ctx.nowSec())

  if (row.newestKey === null && row.isBackfillComplete && !isTopFresh) {
    // Nothing was ever found (an empty wallet): look again from the top.
    await writer.patchStream(walletId, 'history', {
      isBackfillComplete: false,
      backfillCursor: null,
    })
    row = await writer.stream(walletId, 'history')
  }

  if (row.newestKey !== null && !isTopFresh) {
    // Items the mirror lacks below its newest: page up from below them (what is stored
    // already is written once).
    let after = ctx.missing?.historyAfter ?? row.newestKey
    for (;;) {
      const page = await ctx.call('wallet.history', {
        wallet: ctx.address,
        after,
        limit: HISTORY_PAGE_LIMIT,
      })
      const newest = page.data.at(-1)?.signature
      result.newItems += await writer.applyHistoryPage(walletId, page.data, {
        ...(newest === undefined ? {} : { newestKey: newest }),
        ...(ctx.newsAtMs ? { forAlertsAtMs: ctx.newsAtMs() } : {}),
        addPages: 1,
        succeededAtSec: ctx.nowSec(),
      })
      result.pages += 1
      ctx.report({
        stream: 'history',
        phase: 'new-items',
        pages: result.pages,
        items: result.newItems,
        estimatedRemainingPages: null,
        estimatedRemainingCredits: null,
      })
      if (!page.pagination.hasMore || newest === undefined) break
      after = newest
    }
    row = await writer.stream(walletId, 'history')
  }

  const fetchBefore = (before: string | undefined, limit: number) =>
    ctx.call('wallet.history', {
      wallet: ctx.address,
      limit,
      ...(before === undefined ? {} : { before }),
    })
  if (!row.isBackfillComplete && backfillPageLimit(row, row.itemsStored) === 0) {
    // The depth limit is already met (new items filled it, or it was lowered): ask nothing.
    await writer.patchStream(walletId, 'history', { isBackfillComplete: true })
    row = await writer.stream(walletId, 'history')
  }
  let next = row.isBackfillComplete
    ? null
    : fetchBefore(row.backfillCursor ?? undefined, backfillPageLimit(row, row.itemsStored))
  const writes = new BackfillWrites(ctx, row, (inserted, page) => {
    result.newItems += inserted
    result.pages += 1
    ctx.report({
      stream: 'history',
      phase: 'backfill',
      pages: result.pages,
      items: result.newItems,
      estimatedRemainingPages: page.isLast ? 0 : remainingPages(row, writes.stored),
      estimatedRemainingCredits: null,
    })
  })
  try {
    while (next !== null) {
      const page = await next
      const data = page.data
      const oldest = data.at(-1)
      const reachedEnd = !page.pagination.hasMore || oldest === undefined
      const storedBefore = writes.storedAfterPending
      const complete = reachedEnd || isDepthReached(row, data, storedBefore)
      const cursor = page.pagination.nextCursor ?? oldest?.signature ?? null
      // The next page is asked for while this one (and those before it) are written.
      next =
        complete || cursor === null
          ? null
          : fetchBefore(cursor, backfillPageLimit(row, storedBefore + data.length))
      next?.catch(() => {})
      const sent = {
        items: data.length,
        newestKey: data[0]?.signature,
        cursor,
        isComplete: complete,
        isLast: next === null,
      }
      await writes.send(sent, (patch) => writer.applyHistoryPage(walletId, data, patch))
    }
  } finally {
    await writes.settle()
  }
  return result
}

/**
 * How many items the next backfill page asks for: a full page, or only what the depth
 * limit still allows, so `--max-transactions 50` stores 50, not a page of 100. Every
 * wallet call costs 100 credits whatever its limit (docs/service.md), so a smaller page
 * never costs more. `storedAfterPending` counts the page still being written.
 */
function backfillPageLimit(row: StreamRow, storedAfterPending: number): number {
  if (row.depthLimitCount === null) return HISTORY_PAGE_LIMIT
  return Math.max(0, Math.min(HISTORY_PAGE_LIMIT, row.depthLimitCount - storedAfterPending))
}

/** Whether this page takes the backfill to the user's depth limit (a count or a date). */
function isDepthReached(
  row: StreamRow,
  page: readonly HistoryEntry[],
  storedBefore: number,
): boolean {
  if (row.depthLimitCount !== null && storedBefore + page.length >= row.depthLimitCount) return true
  const oldestTime = page.at(-1)?.timestamp
  return (
    row.depthLimitSinceSec !== null &&
    oldestTime !== null &&
    oldestTime !== undefined &&
    oldestTime < row.depthLimitSinceSec
  )
}

/** Backfill pages still to come under the depth limit, with `stored` items stored so far. */
function remainingPages(row: StreamRow, stored: number): number | null {
  if (row.depthLimitCount === null) return null
  return Math.max(0, Math.ceil((row.depthLimitCount - stored) / HISTORY_PAGE_LIMIT))
}
