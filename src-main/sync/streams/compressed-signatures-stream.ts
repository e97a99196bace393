import type { CompressionSignature } from '@shared/api/compression'
import { syncCursorStream } from './cursor-stream'
import type { StreamContext, StreamResult } from './stream-context'

/** Photon's maximum page (facts: limit default and max 1000); each call costs the same. */
export const COMPRESSION_PAGE_LIMIT = 1000

/**
 * Keeps a wallet's compression signatures (as owner, or as token owner) complete: newest
 * first (slot desc, facts), Photon cursor that is null on the last page.
 */
export function syncCompressedSignatures(
  ctx: StreamContext,
  stream: 'compressed-owner' | 'compressed-token-owner',
): Promise<StreamResult> {
  const operation =
    stream === 'compressed-owner'
      ? 'compression.getCompressionSignaturesForOwner'
      : 'compression.getCompressionSignaturesForTokenOwner'
  const sinceSec = ctx.writer.stream(ctx.walletId, stream).depthLimitSinceSec
  return syncCursorStream<CompressionSignature>(ctx, {
    stream,
    fetchPage: async (cursor) => {
      const result = await ctx.call(operation, {
        owner: ctx.address,
        limit: COMPRESSION_PAGE_LIMIT,
        ...(cursor === undefined ? {} : { cursor }),
      })
      return { items: result.value.items, nextCursor: result.value.cursor ?? null }
    },
    isKnown: (item) => ctx.writer.hasCompressedSignature(ctx.walletId, stream, item.signature),
    keyOf: (item) => item.signature,
    apply: (items, patch) =>
      ctx.writer.applyCompressedSignaturesPage(ctx.walletId, stream, items, patch),
    ...(sinceSec === null
      ? {}
      : { isBeyondDepth: (item: CompressionSignature) => item.blockTime < sinceSec }),
  })
}
