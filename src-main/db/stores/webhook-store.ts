import type { Kysely } from 'kysely'
import type { Webhook } from '@shared/api/webhooks'
import type { Database } from '../schema'

/** The service's webhook as kept: everything but the auth header, a secret. */
export type KeptWebhook = Omit<Webhook, 'authHeader'>

/** A kept webhook with what this app knows of it beside the service's answer. */
export interface StoredWebhook {
  webhook: KeptWebhook
  isAuthHeaderSet: boolean
  fetchedAtSec: number
  /** When this app disabled it; null when it did not. */
  disabledHereAtSec: number | null
  reenabledAtSec: number | null
}

/** What this app did to a webhook along with the call that answered it. */
export type WebhookMark = 'enabled' | 'disabled' | 'none'

/**
 * The webhooks on the person's account as last listed or changed, so the page opens
 * offline. The auth header's value is never written here.
 */
export class WebhookStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Every kept webhook in the service's order, and when the list was last fetched. */
  async listing(): Promise<{ webhooks: StoredWebhook[]; listedAtSec: number | null }> {
    const rows = await this.#db
      .selectFrom('webhooks')
      .selectAll()
      .orderBy('position')
      .orderBy('webhook_id')
      .execute()
    const listed = await this.#db
      .selectFrom('webhook_listing')
      .select('listed_at_sec')
      .executeTakeFirst()
    return { webhooks: rows.map(storedOf), listedAtSec: listed?.listed_at_sec ?? null }
  }

  /** One kept webhook, or null. */
  async get(webhookID: string): Promise<StoredWebhook | null> {
    const row = await this.#db
      .selectFrom('webhooks')
      .selectAll()
      .where('webhook_id', '=', webhookID)
      .executeTakeFirst()
    return row ? storedOf(row) : null
  }

  /**
   * Replaces the kept list with the service's answer, keeping what this app knows of the
   * webhooks still listed (who disabled them, when they were re-enabled).
   */
  async replaceAll(webhooks: readonly Webhook[], nowSec: number): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      const ids = webhooks.map((w) => w.webhookID)
      let gone = tx.deleteFrom('webhooks')
      if (ids.length > 0) gone = gone.where('webhook_id', 'not in', ids)
      await gone.execute()
      for (const [position, webhook] of webhooks.entries())
        await upsert(tx, webhook, { position, isListing: true }, nowSec, 'none')
      await tx
        .insertInto('webhook_listing')
        .values({ id: 1, listed_at_sec: nowSec })
        .onConflict((oc) => oc.column('id').doUpdateSet({ listed_at_sec: nowSec }))
        .execute()
    })
  }

  /** Keeps one webhook the service answered with, and what this app did to it. */
  async put(webhook: Webhook, nowSec: number, mark: WebhookMark = 'none'): Promise<StoredWebhook> {
    const last = await this.#db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.coalesce(eb.fn.max('position'), eb.lit(-1)).as('last'))
      .executeTakeFirstOrThrow()
    await upsert(
      this.#db,
      webhook,
      { position: Number(last.last) + 1, isListing: false },
      nowSec,
      mark,
    )
    return (await this.get(webhook.webhookID)) as StoredWebhook
  }

  /** Forgets a deleted webhook. */
  async remove(webhookID: string): Promise<void> {
    await this.#db.deleteFrom('webhooks').where('webhook_id', '=', webhookID).execute()
  }
}

async function upsert(
  db: Kysely<Database>,
  webhook: Webhook,
  order: { position: number; isListing: boolean },
  nowSec: number,
  mark: WebhookMark,
): Promise<void> {
  const { authHeader, ...kept } = webhook
  const values = {
    webhook_json: JSON.stringify(kept),
    is_auth_header_set: authHeader !== undefined && authHeader !== '' ? 1 : 0,
    fetched_at_sec: nowSec,
    ...(mark === 'disabled' ? { disabled_here_at_sec: nowSec } : {}),
    ...(mark === 'enabled' ? { disabled_here_at_sec: null, reenabled_at_sec: nowSec } : {}),
    // A webhook seen active again was not left disabled by this app.
    ...(webhook.active && mark === 'none' ? { disabled_here_at_sec: null } : {}),
  }
  await db
    .insertInto('webhooks')
    .values({ webhook_id: webhook.webhookID, position: order.position, ...values })
    .onConflict((oc) =>
      oc
        .column('webhook_id')
        // A listing sets the order; a single answer keeps the webhook where it was.
        .doUpdateSet(order.isListing ? { ...values, position: order.position } : values),
    )
    .execute()
}

function storedOf(row: {
  webhook_json: string
  is_auth_header_set: number
  fetched_at_sec: number
  disabled_here_at_sec: number | null
  reenabled_at_sec: number | null
}): StoredWebhook {
  return {
    webhook: JSON.parse(row.webhook_json) as KeptWebhook,
    isAuthHeaderSet: row.is_auth_header_set === 1,
    fetchedAtSec: row.fetched_at_sec,
    disabledHereAtSec: row.disabled_here_at_sec,
    reenabledAtSec: row.reenabled_at_sec,
  }
}
