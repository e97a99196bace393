import type { CompressionSignature } from '@shared/api/compression'
import type { CompressedStreamName } from '../../db/mirror-writer'
import { syncCompressedState } from './compressed-state'
import { syncCursorStream } from './cursor-stream'
import type { StreamContext, StreamResult } from './stream-context'

/** Photon's maximum page (limit default and max 1000); each call costs the same. */
const COMPRESSION_PAGE_LIMIT = 1000

/**
 * Keeps a wallet's compression signatures (as owner, or as token owner) complete: newest
 * first (slot desc), Photon cursor that is null on the last page.
 */
export async function syncCompressedSignatures(
  ctx: StreamContext,
  stream: CompressedStreamName,
): Promise<StreamResult> {
  const operation =
    stream === 'compressed-owner'
      ? 'compression.getCompressionSignaturesForOwner'
      : 'compression.getCompressionSignaturesForTokenOwner'
  const result = await syncCursorStream<CompressionSignature>(ctx, {
    stream,
    operation,
    pageLimit: COMPRESSION_PAGE_LIMIT,
    fetchPage: async (cursor, limit) => {
      const result = await ctx.call(operation, {
        owner: ctx.address,
        limit,
        ...(cursor === undefined ? {} : { cursor }),
      })
      return { items: result.value.items, nextCursor: result.value.cursor ?? null }
    },
    firstKnown: (items) => ctx.writer.firstKnownCompressedSignature(ctx.walletId, stream, items),
    keyOf: (item) => item.signature,
    apply: (items, patch) =>
      ctx.writer.applyCompressedSignaturesPage(ctx.walletId, stream, items, patch),
    timeOf: (item) => item.blockTime,
  })
  // The owner stream also refreshes what the signatures changed: the compressed state (now,
  // so not in a load of older history).
  if (stream === 'compressed-owner' && !ctx.older) result.pages += await syncCompressedState(ctx)
  return result
}
