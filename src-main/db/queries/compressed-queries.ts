import { sql, type Kysely, type SqlBool } from 'kysely'
import type { CompressedCursor, CompressedKind, CompressedPage } from '@shared/ipc/review-schemas'
import type { Database } from '../schema'

/**
 * A page of a wallet's compression signatures (owner and token owner), newest slot first,
 * in keyset order (slot, signature, kind) on the (wallet, slot, signature, kind) index.
 */
export async function fetchCompressedPage(
  db: Kysely<Database>,
  walletId: number,
  query: { kind: CompressedKind; cursor: CompressedCursor | null; limit: number },
): Promise<CompressedPage> {
  let q = db
    .selectFrom('compressed_signatures')
    .select(['kind', 'signature', 'slot', 'block_time_sec', 'error'])
    .where('wallet_id', '=', walletId)
  if (query.kind !== 'all') q = q.where('kind', '=', query.kind)
  const c = query.cursor
  if (c !== null) {
    q = q
      .where('slot', '<=', c.slot)
      .where(sql<SqlBool>`(slot, signature, kind) < (${c.slot}, ${c.signature}, ${c.kind})`)
  }
  const rows = await q
    .orderBy(sql`slot desc, signature desc, kind desc`)
    .limit(query.limit + 1)
    .execute()
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    rows: page.map((r) => ({
      kind: r.kind === 'owner' ? 'owner' : 'token-owner',
      signature: r.signature,
      slot: r.slot,
      blockTimeSec: r.block_time_sec,
      error: r.error,
    })),
    nextCursor:
      rows.length > query.limit && last
        ? {
            slot: last.slot,
            signature: last.signature,
            kind: last.kind === 'owner' ? 'owner' : 'token-owner',
          }
        : null,
  }
}
