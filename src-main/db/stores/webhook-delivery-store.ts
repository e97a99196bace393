import type { Kysely } from 'kysely'
import type { ServiceDescription } from '@shared/api/webhook-delivery'
import { describedColumns } from '../ingest/page-rows'
import type { Database } from '../schema'

/** Which way watching learns of new transactions: deliveries, or the balance probe's polling. */
import type { WatchMode } from '@shared/domain/watch-cost'

export type { WatchMode }

/** One line of webhook mode's log, newest first when read. */
export interface WebhookModeLine {
  atSec: number
  mode: WatchMode
  line: string
}

/**
 * Webhook mode's storage: the signatures deliveries carried, so that a delivery repeated by
 * the service (it retries, and may send one transaction twice) is acted on once; and the
 * mode's log for the Activity page. Query builder only: the same store runs on every engine.
 */
export class WebhookDeliveryStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * Keeps what the service said of delivered transactions (type, source, sentence, NFT
   * sale) on the wallet's rows a sync wrote from the service's history, which says none of
   * it. Rows not in the mirror are left alone.
   */
  async describe(
    walletId: number,
    items: readonly { signature: string; described: ServiceDescription }[],
  ): Promise<void> {
    for (const { signature, described } of items)
      await this.#db
        .updateTable('transactions')
        .set({
          ...describedColumns(described),
          ...(described.type === null ? {} : { kind: described.type }),
        })
        .where('wallet_id', '=', walletId)
        .where('signature', '=', signature)
        .execute()
  }

  /**
   * Records a delivered signature the first time it is seen; false when it was seen
   * before. One insert that does nothing on a repeat, so two deliveries racing with the
   * same signature cannot both claim it.
   */
  async claim(
    signature: string,
    walletAddresses: readonly string[],
    nowSec: number,
  ): Promise<boolean> {
    const result = await this.#db
      .insertInto('webhook_deliveries')
      .values({
        signature,
        received_at_sec: nowSec,
        wallet_addresses: walletAddresses.join(' '),
      })
      .onConflict((oc) => oc.column('signature').doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
  }

  /** When the newest delivery arrived, or null before the first. */
  async lastReceivedSec(): Promise<number | null> {
    const row = await this.#db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.max('received_at_sec').as('last'))
      .executeTakeFirst()
    return row?.last ?? null
  }

  /** Forgets signatures older than `beforeSec`: the service stops retrying within minutes. */
  async forgetBefore(beforeSec: number): Promise<void> {
    await this.#db
      .deleteFrom('webhook_deliveries')
      .where('received_at_sec', '<', beforeSec)
      .execute()
  }

  /** Adds a line to the mode's log. */
  async log(line: WebhookModeLine): Promise<void> {
    await this.#db
      .insertInto('webhook_mode_log')
      .values({ at_sec: line.atSec, mode: line.mode, line: line.line })
      .execute()
  }

  /** The newest `limit` lines, newest first. */
  async recentLog(limit: number): Promise<WebhookModeLine[]> {
    const rows = await this.#db
      .selectFrom('webhook_mode_log')
      .select(['at_sec', 'mode', 'line'])
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ atSec: r.at_sec, mode: r.mode, line: r.line }))
  }
}
