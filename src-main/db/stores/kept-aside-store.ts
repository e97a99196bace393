import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/** An item of a page the app could not read, as `kept_aside` keeps it. */
export interface KeptAsideRow {
  id: number
  walletId: number
  walletAddress: string
  walletLabel: string | null
  stream: string
  operation: string
  key: string
  rawJson: string
  reason: string
  firstSeenSec: number
  lastSeenSec: number
  seenCount: number
  /** When a later read wrote it; null while it is still kept aside. */
  writtenAtSec: number | null
}

/** How many items of one wallet's stream are kept aside now. */
export interface KeptAsideCount {
  walletAddress: string
  walletLabel: string | null
  stream: string
  operation: string
  count: number
}

/**
 * The items the edge could not read (`kept_aside`, written by the page writer in each
 * page's transaction): what `doctor` lists, what health counts, and what each sync reads
 * again in case this version can read them now.
 */
export class KeptAsideStore {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Every item kept aside (and, when asked, those written since), newest first. */
  async list(options: { includeWritten?: boolean } = {}): Promise<KeptAsideRow[]> {
    const rows = await this.#db
      .selectFrom('kept_aside as k')
      .innerJoin('wallets as w', 'w.id', 'k.wallet_id')
      .select([
        'k.id',
        'k.wallet_id',
        'w.address',
        'w.label',
        'k.stream',
        'k.operation',
        'k.item_key',
        'k.raw_json',
        'k.reason',
        'k.first_seen_sec',
        'k.last_seen_sec',
        'k.seen_count',
        'k.written_at_sec',
      ])
      .$if(!options.includeWritten, (q) => q.where('k.written_at_sec', 'is', null))
      .orderBy('k.last_seen_sec', 'desc')
      .orderBy('k.id', 'desc')
      .execute()
    return rows.map((r) => ({
      id: r.id,
      walletId: r.wallet_id,
      walletAddress: r.address,
      walletLabel: r.label,
      stream: r.stream,
      operation: r.operation,
      key: r.item_key,
      rawJson: r.raw_json,
      reason: r.reason,
      firstSeenSec: r.first_seen_sec,
      lastSeenSec: r.last_seen_sec,
      seenCount: r.seen_count,
      writtenAtSec: r.written_at_sec,
    }))
  }

  /** A wallet's items still kept aside in these streams, oldest first: each sync reads them again. */
  async unwritten(
    walletId: number,
    streams: readonly string[],
  ): Promise<{ id: number; stream: string; rawJson: string }[]> {
    if (streams.length === 0) return []
    const rows = await this.#db
      .selectFrom('kept_aside')
      .select(['id', 'stream', 'raw_json'])
      .where('wallet_id', '=', walletId)
      .where('stream', 'in', [...streams])
      .where('written_at_sec', 'is', null)
      .orderBy('id')
      .execute()
    return rows.map((r) => ({ id: r.id, stream: r.stream, rawJson: r.raw_json }))
  }

  /** How many items are kept aside now, by wallet and stream (what health says). */
  async counts(): Promise<KeptAsideCount[]> {
    const rows = await this.#db
      .selectFrom('kept_aside as k')
      .innerJoin('wallets as w', 'w.id', 'k.wallet_id')
      .select(({ fn }) => [
        'w.address',
        'w.label',
        'k.stream',
        fn.max('k.operation').as('operation'),
        fn.countAll<number | string>().as('count'),
      ])
      .where('k.written_at_sec', 'is', null)
      .groupBy(['w.address', 'w.label', 'k.stream'])
      .orderBy('w.address')
      .orderBy('k.stream')
      .execute()
    return rows.map((r) => ({
      walletAddress: r.address,
      walletLabel: r.label,
      stream: r.stream,
      operation: r.operation,
      count: Number(r.count),
    }))
  }
}
