import { createHash } from 'node:crypto'
import { sql, type Compilable, type Kysely } from 'kysely'
import type { KeptAsideItem } from '@shared/api/answer-edge'
import type { StreamName, StreamPatch } from '../mirror-writer'
import type { Database } from '../schema'

/** A statement either engine can compile (SQLite's prepared path) or execute (a transaction). */
export type KeptAsideWrite = Compilable & { execute(): Promise<unknown> }

/** Rows of one insert: well under SQLite's parameter limit at nine columns a row. */
const ROWS_PER_STATEMENT = 100

/**
 * The one name of a kept-aside item: its signature or mint when the edge could read that
 * much, else a hash of its JSON, so the same odd item read twice is one row.
 */
export function keptAsideKey(item: KeptAsideItem, rawJson: string): string {
  if (item.key !== null) return item.key
  return `json:${createHash('sha256').update(rawJson).digest('hex').slice(0, 32)}`
}

/**
 * The statements a page's patch asks of `kept_aside`, in order, for either engine to run
 * inside the page's transaction: the stream's unwritten items dropped when the patch
 * replaces them, the page's items kept (seen again: counted, their reason and JSON the
 * latest), and earlier items this page wrote marked written.
 *
 * @example
 * for (const q of keptAsideWrites(db, walletId, 'history', patch)) await q.execute()
 */
export function keptAsideWrites(
  db: Kysely<Database>,
  walletId: number,
  stream: StreamName,
  patch: StreamPatch,
): KeptAsideWrite[] {
  const out: KeptAsideWrite[] = []
  const kept = patch.keptAside
  if (kept?.replaces) {
    out.push(
      db
        .deleteFrom('kept_aside')
        .where('wallet_id', '=', walletId)
        .where('stream', '=', stream)
        .where('written_at_sec', 'is', null),
    )
  }
  const rows = (kept?.items ?? []).map((item) => {
    const rawJson = JSON.stringify(item.raw) ?? 'null'
    return {
      wallet_id: walletId,
      stream,
      operation: kept?.operation ?? '',
      item_key: keptAsideKey(item, rawJson),
      raw_json: rawJson,
      reason: item.reason,
      first_seen_sec: kept?.atSec ?? 0,
      last_seen_sec: kept?.atSec ?? 0,
    }
  })
  // One row per item: an answer that repeats an item keeps it once.
  const unique = [...new Map(rows.map((r) => [r.item_key, r])).values()]
  for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
    out.push(
      db
        .insertInto('kept_aside')
        .values(unique.slice(i, i + ROWS_PER_STATEMENT))
        .onConflict((oc) =>
          oc.columns(['wallet_id', 'stream', 'item_key']).doUpdateSet({
            raw_json: sql<string>`excluded.raw_json`,
            reason: sql<string>`excluded.reason`,
            operation: sql<string>`excluded.operation`,
            last_seen_sec: sql<number>`excluded.last_seen_sec`,
            seen_count: sql<number>`kept_aside.seen_count + 1`,
          }),
        ),
    )
  }
  const written = patch.keptAsideWritten
  if (written && written.ids.length > 0) {
    out.push(
      db
        .updateTable('kept_aside')
        .set({ written_at_sec: written.atSec })
        .where('wallet_id', '=', walletId)
        .where('id', 'in', [...written.ids]),
    )
  }
  return out
}
