import type { Kysely } from 'kysely'
import type { HeldHistory, LoadDepth, WalletSizeFacts } from '@shared/domain/history-load-cost'
import { isHistoryWhole, newestStoredSec, oldestStoredSec } from '../queries/sync-status'
import type { WalletFunding } from './names-store'
import type { Database } from '../schema'

/** A wallet's load of history under way: its first sync, or a load of older history. */
export interface HistoryLoad {
  kind: 'first-sync' | 'older'
  /** How deep a load of older history goes (both null: to the start); unused for a first sync. */
  target: LoadDepth
  /** The credits the person agreed the load may take when it asked first; else null. */
  approvedCredits: number | null
  askedAtSec: number
}

/**
 * What loading a wallet's history will cost and what the person agreed to: the cheap look
 * at a wallet before its first sync (by address: the add dialog looks before it is
 * watched), the load under way with its depth, and what the mirror already holds.
 */
export class HistoryLoadStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The last look at a wallet's size, or null. */
  async probe(address: string): Promise<WalletSizeFacts | null> {
    const row = await this.#db
      .selectFrom('wallet_size_probes')
      .selectAll()
      .where('address', '=', address)
      .executeTakeFirst()
    if (!row) return null
    return {
      signatures: row.signatures,
      hasMoreSignatures: row.has_more_signatures === 1,
      oldestSignatureSec: row.oldest_signature_sec,
      newestSignatureSec: row.newest_signature_sec,
      fungibleTokens: row.fungible_tokens,
      nfts: row.nfts,
      fundedAtSec: row.funded_at_sec,
      probedAtSec: row.probed_at_sec,
      credits: row.credits,
    }
  }

  /** The funder the look at a wallet asked, as the names store keeps it; null when not asked. */
  async probedFunding(address: string): Promise<WalletFunding | null> {
    const row = await this.#db
      .selectFrom('wallet_size_probes')
      .select('funding_json')
      .where('address', '=', address)
      .executeTakeFirst()
    return row?.funding_json ? (JSON.parse(row.funding_json) as WalletFunding) : null
  }

  /** Keeps a look at a wallet's size (and the funder it asked) in place of the last one. */
  async saveProbe(
    address: string,
    facts: WalletSizeFacts,
    funding: WalletFunding | null = null,
  ): Promise<void> {
    const values = {
      funded_at_sec: facts.fundedAtSec,
      funding_json: funding === null ? null : JSON.stringify(funding),
      probed_at_sec: facts.probedAtSec,
      signatures: facts.signatures,
      has_more_signatures: facts.hasMoreSignatures ? 1 : 0,
      oldest_signature_sec: facts.oldestSignatureSec,
      newest_signature_sec: facts.newestSignatureSec,
      fungible_tokens: facts.fungibleTokens,
      nfts: facts.nfts,
      credits: facts.credits,
    }
    await this.#db
      .insertInto('wallet_size_probes')
      .values({ address, ...values })
      .onConflict((oc) => oc.column('address').doUpdateSet(values))
      .execute()
  }

  /** The wallet's load under way, or null. */
  async load(walletId: number): Promise<HistoryLoad | null> {
    const row = await this.#db
      .selectFrom('history_loads')
      .selectAll()
      .where('wallet_id', '=', walletId)
      .executeTakeFirst()
    if (!row) return null
    return {
      kind: row.kind === 'older' ? 'older' : 'first-sync',
      target: { maxTransactions: row.target_count, sinceSec: row.target_since_sec },
      approvedCredits: row.approved_credits,
      askedAtSec: row.asked_at_sec,
    }
  }

  /** Starts (or replaces) the wallet's load. */
  async start(walletId: number, load: HistoryLoad): Promise<void> {
    const values = {
      kind: load.kind,
      target_count: load.target.maxTransactions,
      target_since_sec: load.target.sinceSec,
      approved_credits: load.approvedCredits,
      asked_at_sec: load.askedAtSec,
    }
    await this.#db
      .insertInto('history_loads')
      .values({ wallet_id: walletId, ...values })
      .onConflict((oc) => oc.column('wallet_id').doUpdateSet(values))
      .execute()
  }

  /**
   * Records that the person agreed the wallet's load may take `credits`: the load under
   * way, else its first sync.
   */
  async approve(walletId: number, credits: number, nowSec: number): Promise<void> {
    const current = await this.load(walletId)
    await this.start(walletId, {
      kind: current?.kind ?? 'first-sync',
      target: current?.target ?? { maxTransactions: null, sinceSec: null },
      approvedCredits: credits,
      askedAtSec: nowSec,
    })
  }

  /** The wallet's load is done: nothing is asked for it any more. */
  async finish(walletId: number): Promise<void> {
    await this.#db.deleteFrom('history_loads').where('wallet_id', '=', walletId).execute()
  }

  /** What the mirror holds of a wallet's history: counts, its oldest time, and whether it is whole. */
  async held(walletId: number): Promise<HeldHistory> {
    const rows = await this.#db
      .selectFrom('sync_streams')
      .select([
        'stream',
        'items_stored',
        'is_backfill_complete',
        'backfill_cursor',
        'depth_limit_count',
        'depth_limit_since_sec',
      ])
      .where('wallet_id', '=', walletId)
      .where('stream', 'in', ['history', 'transfers'])
      .execute()
    const history = rows.find((r) => r.stream === 'history')
    const transfers = rows.find((r) => r.stream === 'transfers')
    return {
      transactions: history?.items_stored ?? 0,
      transfers: transfers?.items_stored ?? 0,
      oldestSec: await oldestStoredSec(this.#db, walletId, 'history'),
      newestSec: await newestStoredSec(this.#db, walletId),
      isWhole:
        history !== undefined &&
        isHistoryWhole({
          isBackfillComplete: history.is_backfill_complete === 1,
          backfillCursor: history.backfill_cursor,
          depthLimitCount: history.depth_limit_count,
          depthLimitSinceSec: history.depth_limit_since_sec,
        }),
    }
  }
}
