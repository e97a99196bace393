import type { TransferEntry } from '@shared/api/wallet-rest'
import { syncCursorStream } from './cursor-stream'
import type { StreamContext, StreamResult } from './stream-context'

/** Transfers page size: the interface's maximum (4.1; default 50), so each call buys the most. */
export const TRANSFERS_PAGE_LIMIT = 100

/**
 * Keeps a wallet's transfers complete: newest first, opaque cursor, stop at the first known
 * (below the missing transactions watching found, when it found some); back as far as the
 * stored history reaches.
 */
export async function syncTransfers(ctx: StreamContext): Promise<StreamResult> {
  const missingSec = ctx.missing?.sinceSec
  return syncCursorStream<TransferEntry>(ctx, {
    stream: 'transfers',
    operation: 'wallet.transfers',
    pageLimit: TRANSFERS_PAGE_LIMIT,
    fetchPage: async (cursor, limit) => {
      const page = await ctx.call('wallet.transfers', {
        wallet: ctx.address,
        limit,
        ...(cursor === undefined ? {} : { cursor }),
      })
      return {
        items: page.data,
        nextCursor: page.pagination.hasMore ? page.pagination.nextCursor : null,
        keptAside: page.keptAside,
      }
    },
    firstKnown: (items) => ctx.writer.firstKnownTransfer(ctx.walletId, items),
    keyOf: (t) => t.signature,
    apply: (items, patch) => ctx.writer.applyTransfersPage(ctx.walletId, items, patch),
    timeOf: (t) => t.timestamp,
    ...(missingSec === null || missingSec === undefined
      ? {}
      : { isBelowMissing: (t: TransferEntry) => t.timestamp < missingSec }),
  })
}
