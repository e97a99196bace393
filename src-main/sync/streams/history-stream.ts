import type { OperationOutput } from '@shared/api/operations'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import type { StreamRow } from '../../db/mirror-writer'
import { BackfillWrites } from './backfill-writes'
import { keptAsidePatch, keysInOrder } from './kept-aside-pages'
import { isLookedUpTopFresh } from './looked-up-top'
import type { HistoryDepth, StreamContext, StreamResult } from './stream-context'

/** History page size: the interface's maximum (4.1), so every 100 credits buys 100 items. */
export const HISTORY_PAGE_LIMIT = 100

/**
 * Keeps a wallet's history complete. New items come with `after` = the newest stored
 * signature (or a stored one below transactions watching found missing under it): pages
 * ascend and every page moves the cursor forward, so it
 * costs ⌈new/100⌉ calls (one when nothing is new) — never more than walking down from
 * the newest until a known signature, which needs that extra known item. Then the
 * backfill walks newest → oldest with `before` until the end or the depth limit (a load
 * of older history, `ctx.older`, runs that walk alone, further down). A top a look-up
 * read moments ago ("watch this wallet") is trusted instead of asked again.
 */
export async function syncHistory(ctx: StreamContext): Promise<StreamResult> {
  if (ctx.older) return loadOlderHistory(ctx, ctx.older.depth)
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
      // Ascending: the last key the service sent is the newest, one kept aside included.
      const newest = keysInOrder(
        page.data.map((e) => e.signature),
        page.keptAside,
      ).findLast((key) => key !== null)
      result.newItems += await writer.applyHistoryPage(walletId, page.data, {
        ...(newest === undefined ? {} : { newestKey: newest }),
        ...keptAsidePatch('wallet.history', page.keptAside, ctx.nowSec()),
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

  const depth: HistoryDepth = {
    maxTransactions: row.depthLimitCount,
    sinceSec: row.depthLimitSinceSec,
  }
  if (!row.isBackfillComplete && backfillPageLimit(depth, row.itemsStored) === 0) {
    // The depth limit is already met (new items filled it, or it was lowered): ask nothing.
    await writer.patchStream(walletId, 'history', { isBackfillComplete: true })
    return result
  }
  if (!row.isBackfillComplete) await walkBack(ctx, row, depth, result, { isOlder: false })
  return result
}

/**
 * A load of older history: the backfill alone, on from the cursor the last one stopped at,
 * to the depth asked for. No cursor means the history's start is already held.
 */
async function loadOlderHistory(ctx: StreamContext, depth: HistoryDepth): Promise<StreamResult> {
  const result: StreamResult = { stream: 'history', pages: 0, newItems: 0 }
  const row = await ctx.writer.stream(ctx.walletId, 'history')
  if (row.backfillCursor === null || backfillPageLimit(depth, row.itemsStored) === 0) return result
  await walkBack(ctx, row, depth, result, { isOlder: true })
  return result
}

/**
 * Walks the history back from the row's cursor, newest → oldest with `before`, until its
 * start or `depth`. Each page is written with its cursor; a load of older history keeps
 * the row complete, so routine syncs ask only for new items while it is under way.
 */
async function walkBack(
  ctx: StreamContext,
  row: StreamRow,
  depth: HistoryDepth,
  result: StreamResult,
  { isOlder }: { isOlder: boolean },
): Promise<void> {
  const { writer, walletId } = ctx
  const fetchBefore = (before: string | undefined, limit: number) =>
    ctx.call('wallet.history', {
      wallet: ctx.address,
      limit,
      ...(before === undefined ? {} : { before }),
    })
  let next: Promise<OperationOutput<'wallet.history'>> | null = fetchBefore(
    row.backfillCursor ?? undefined,
    backfillPageLimit(depth, row.itemsStored),
  )
  const writes = new BackfillWrites(ctx, row, (inserted, page) => {
    result.newItems += inserted
    result.pages += 1
    ctx.report({
      stream: 'history',
      phase: 'backfill',
      pages: result.pages,
      items: result.newItems,
      estimatedRemainingPages: page.isLast ? 0 : remainingPages(depth, writes.stored),
      estimatedRemainingCredits: null,
    })
  })
  try {
    while (next !== null) {
      const page: OperationOutput<'wallet.history'> = await next
      const data = page.data
      // The keys the service sent, newest first, those kept aside included.
      const keys = keysInOrder(
        data.map((e) => e.signature),
        page.keptAside,
      )
      const oldestKey = keys.findLast((key) => key !== null)
      const reachedEnd: boolean = !page.pagination.hasMore || keys.length === 0
      const storedBefore = writes.storedAfterPending
      const complete: boolean = reachedEnd || isDepthReached(depth, data, storedBefore)
      // At the history's start no cursor is kept: a later load of older history then knows
      // there is nothing older to ask for.
      const cursor: string | null = reachedEnd
        ? null
        : (page.pagination.nextCursor ?? oldestKey ?? null)
      // The next page is asked for while this one (and those before it) are written.
      next =
        complete || cursor === null
          ? null
          : fetchBefore(cursor, backfillPageLimit(depth, storedBefore + data.length))
      next?.catch(() => {})
      const sent = {
        items: data.length,
        newestKey: keys.find((key) => key !== null) ?? undefined,
        cursor,
        isComplete: isOlder || complete,
        isLast: next === null,
      }
      const aside = keptAsidePatch('wallet.history', page.keptAside, ctx.nowSec())
      await writes.send(sent, (patch) =>
        writer.applyHistoryPage(walletId, data, { ...patch, ...aside }),
      )
    }
  } finally {
    await writes.settle()
  }
}

/**
 * How many items the next backfill page asks for: a full page, or only what the depth
 * limit still allows, so `--max-transactions 50` stores 50, not a page of 100. Every
 * wallet call costs 100 credits whatever its limit (docs/service.md), so a smaller page
 * never costs more. `storedAfterPending` counts the page still being written.
 */
function backfillPageLimit(depth: HistoryDepth, storedAfterPending: number): number {
  if (depth.maxTransactions === null) return HISTORY_PAGE_LIMIT
  return Math.max(0, Math.min(HISTORY_PAGE_LIMIT, depth.maxTransactions - storedAfterPending))
}

/** Whether this page takes the backfill to the user's depth limit (a count or a date). */
function isDepthReached(
  depth: HistoryDepth,
  page: readonly HistoryEntry[],
  storedBefore: number,
): boolean {
  if (depth.maxTransactions !== null && storedBefore + page.length >= depth.maxTransactions)
    return true
  const oldestTime = page.at(-1)?.timestamp
  return (
    depth.sinceSec !== null &&
    oldestTime !== null &&
    oldestTime !== undefined &&
    oldestTime < depth.sinceSec
  )
}

/** Backfill pages still to come under the depth limit, with `stored` items stored so far. */
function remainingPages(depth: HistoryDepth, stored: number): number | null {
  if (depth.maxTransactions === null) return null
  return Math.max(0, Math.ceil((depth.maxTransactions - stored) / HISTORY_PAGE_LIMIT))
}
