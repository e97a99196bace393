import type { Kysely, Selectable, Transaction } from 'kysely'
import type { AlertDetail, AlertView, DeliveryState } from '@shared/ipc/alert-schemas'
import type { AlertsTable, Database } from '../schema'

/** A rule that matched, as the evaluator hands it over to be written. */
export interface RuleMatch {
  ruleId: number
  ruleName: string
  cooldownSec: number
  channels: readonly string[]
  walletAddress: string | null
  signature: string | null
  text: string
  detail: AlertDetail
  /** One alert per rule and cause. */
  dedupeKey: string
}

/** A match and the inbox item (a new transaction or snapshot) it was found on. */
export type InboxMatch = RuleMatch & { inboxId: number }

/** The channel every alert is delivered to on the desktop (a notification), beside outbound ones. */
export const DESKTOP_CHANNEL = 'desktop'

/** An alert to write into the outbox, with the channels it goes to. */
export interface NewAlert {
  kind: 'rule' | 'health'
  ruleId: number | null
  ruleName: string | null
  healthKind: string | null
  walletAddress: string | null
  signature: string | null
  firedAtSec: number
  text: string
  detail: AlertDetail
  /** Now, or the end of the rule's cool-down for a gathering burst. */
  deliverAfterSec: number
  /** One alert per rule and cause: a second insert with the same key writes nothing. */
  dedupeKey: string
  /** Outbound channel names; the desktop channel is added for every alert. */
  channels: readonly string[]
}

const iso = (sec: number): string => new Date(sec * 1000).toISOString()

/** An alert's row with its wallet's label, as the views read it. */
type AlertRow = Selectable<AlertsTable> & { wallet_label: string | null }

/** A delivery due for an attempt. */
export interface DueDelivery {
  alertId: number
  channel: string
  /** Attempts made so far. */
  attempts: number
  /** When it fell due: what a claim compares against. */
  nextAttemptAtSec: number
}

/** What one attempt at a delivery gave. */
export type DeliveryOutcome =
  | { state: 'delivered'; atSec: number }
  | { state: 'failed'; error: string; nextAttemptAtSec: number }
  | { state: 'gave-up'; error: string }

/**
 * The alert outbox: each alert is written with what caused it and a delivery row per
 * channel, in one transaction, so a delivery can be retried (or resumed after a kill)
 * from the mirror alone.
 */
export class AlertStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /**
   * Writes an alert and its pending deliveries; resolves to its id, or null when an alert
   * with the same dedupe key exists (nothing fires twice for the same cause).
   *
   * @param trx the transaction to write in (the evaluator's); a new one when absent.
   */
  async insert(alert: NewAlert, trx?: Transaction<Database>): Promise<number | null> {
    if (trx === undefined) return this.#db.transaction().execute((t) => this.insert(alert, t))
    const row = await trx
      .insertInto('alerts')
      .values({
        rule_id: alert.ruleId,
        rule_name: alert.ruleName,
        kind: alert.kind,
        health_kind: alert.healthKind,
        wallet_address: alert.walletAddress,
        signature: alert.signature,
        fired_at_sec: alert.firedAtSec,
        text: alert.text,
        detail_json: JSON.stringify(alert.detail),
        deliver_after_sec: alert.deliverAfterSec,
        dedupe_key: alert.dedupeKey,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (row === undefined) return null
    const channels = [DESKTOP_CHANNEL, ...new Set(alert.channels)]
    await trx
      .insertInto('alert_deliveries')
      .values(
        channels.map((channel) => ({
          alert_id: row.id,
          channel,
          state: 'pending' as const,
          next_attempt_at_sec: alert.deliverAfterSec,
          last_error: null,
          delivered_at_sec: null,
        })),
      )
      .execute()
    return row.id
  }

  /**
   * Writes what one evaluation found and consumes the inbox items it read, in one
   * transaction: a crash before it commits leaves the inbox to be evaluated again, and
   * nothing fires twice. Only the items this call deletes are its own: on a mirror several
   * workers share, another evaluator may have consumed some of them meanwhile (it waits for
   * that one to commit), and their matches are that one's to write. Items written after
   * the read are left for the next evaluation. Within a rule's cool-down a match gathers into
   * the rule's pending alert for that wallet (or starts one due when the cool-down ends)
   * instead of firing. Resolves to the ids of alerts written or grown.
   *
   * @example
   * await alerts.commitEvaluation([7, 8], [{ ...match, inboxId: 8 }], nowSec, gatheredText)
   */
  async commitEvaluation(
    inboxIds: readonly number[],
    matches: readonly InboxMatch[],
    nowSec: number,
    gatheredText: (count: number, latest: RuleMatch) => string,
  ): Promise<number[]> {
    if (inboxIds.length === 0) return []
    return this.#db.transaction().execute(async (trx) => {
      const consumed = await trx
        .deleteFrom('alert_inbox')
        .where('id', 'in', inboxIds)
        .returning('id')
        .execute()
      const ours = new Set(consumed.map((r) => r.id))
      const touched: number[] = []
      for (const match of matches) {
        if (!ours.has(match.inboxId)) continue
        const id = await this.#record(trx, match, nowSec, gatheredText)
        if (id !== null) touched.push(id)
      }
      return touched
    })
  }

  async #record(
    trx: Transaction<Database>,
    match: RuleMatch,
    nowSec: number,
    gatheredText: (count: number, latest: RuleMatch) => string,
  ): Promise<number | null> {
    const alert: NewAlert = {
      kind: 'rule',
      ruleId: match.ruleId,
      ruleName: match.ruleName,
      healthKind: null,
      walletAddress: match.walletAddress,
      signature: match.signature,
      firedAtSec: nowSec,
      text: match.text,
      detail: match.detail,
      deliverAfterSec: nowSec,
      dedupeKey: match.dedupeKey,
      channels: match.channels,
    }
    if (match.cooldownSec === 0) return this.insert(alert, trx)
    const ofRuleAndWallet = trx
      .selectFrom('alerts')
      .where('rule_id', '=', match.ruleId)
      .where((eb) =>
        match.walletAddress === null
          ? eb('wallet_address', 'is', null)
          : eb('wallet_address', '=', match.walletAddress),
      )
    const gathering = await ofRuleAndWallet
      .select(['id', 'match_count', 'detail_json'])
      .where('deliver_after_sec', '>', nowSec)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    if (gathering) {
      const detail = JSON.parse(gathering.detail_json) as AlertDetail
      const count = gathering.match_count + 1
      await trx
        .updateTable('alerts')
        .set({
          match_count: count,
          text: gatheredText(count, match),
          detail_json: JSON.stringify({
            ...match.detail,
            signatures: [...detail.signatures, ...match.detail.signatures],
          }),
        })
        .where('id', '=', gathering.id)
        .execute()
      return gathering.id
    }
    const last = await ofRuleAndWallet
      .select('deliver_after_sec')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    const coolsAtSec = last ? last.deliver_after_sec + match.cooldownSec : nowSec
    // A match inside the cool-down of the last alert waits for its end, gathering the rest.
    return this.insert({ ...alert, deliverAfterSec: Math.max(nowSec, coolsAtSec) }, trx)
  }

  /** The newest alerts first, `limit` of them, before the alert `beforeId` when given. */
  async history(options: { limit: number; beforeId?: number }): Promise<AlertView[]> {
    let query = this.#db
      .selectFrom('alerts as a')
      .leftJoin('wallets as w', 'w.address', 'a.wallet_address')
      .selectAll('a')
      .select('w.label as wallet_label')
      .orderBy('a.id', 'desc')
      .limit(options.limit)
    if (options.beforeId !== undefined) query = query.where('a.id', '<', options.beforeId)
    return this.#views(await query.execute())
  }

  /** The alerts with these ids as the app shows them (any missing id is left out). */
  async views(ids: readonly number[]): Promise<AlertView[]> {
    if (ids.length === 0) return []
    const rows = await this.#db
      .selectFrom('alerts as a')
      .leftJoin('wallets as w', 'w.address', 'a.wallet_address')
      .selectAll('a')
      .select('w.label as wallet_label')
      .where('a.id', 'in', [...ids])
      .orderBy('a.id')
      .execute()
    return this.#views(rows)
  }

  /**
   * Deliveries to try now, oldest alert first: pending or failed (to retry), their next
   * attempt due, and their alert's cool-down over.
   */
  async dueDeliveries(nowSec: number, limit: number): Promise<DueDelivery[]> {
    const rows = await this.#db
      .selectFrom('alert_deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .select(['d.alert_id', 'd.channel', 'd.attempts', 'd.next_attempt_at_sec'])
      .where('d.state', 'in', ['pending', 'failed'])
      .where('d.next_attempt_at_sec', '<=', nowSec)
      .where('a.deliver_after_sec', '<=', nowSec)
      .orderBy('d.alert_id')
      .orderBy('d.channel')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      alertId: Number(r.alert_id),
      channel: r.channel,
      attempts: Number(r.attempts),
      nextAttemptAtSec: Number(r.next_attempt_at_sec),
    }))
  }

  /**
   * Takes a due delivery for one attempt: moves its next attempt to `untilSec`, so another
   * deliverer on the same mirror (or this one's next pass) leaves it alone meanwhile, and
   * a process killed while sending tries again after it. Resolves to false when another
   * took it first.
   */
  async claimDelivery(due: DueDelivery, untilSec: number): Promise<boolean> {
    const result = await this.#db
      .updateTable('alert_deliveries')
      .set({ next_attempt_at_sec: untilSec })
      .where('alert_id', '=', due.alertId)
      .where('channel', '=', due.channel)
      .where('state', 'in', ['pending', 'failed'])
      .where('next_attempt_at_sec', '=', due.nextAttemptAtSec)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Records one attempt's outcome on a delivery (the delivery log). */
  async recordAttempt(
    key: { alertId: number; channel: string },
    outcome: DeliveryOutcome,
  ): Promise<void> {
    await this.#db
      .updateTable('alert_deliveries')
      .set((eb) => ({
        state: outcome.state,
        attempts: eb('attempts', '+', 1),
        last_error: outcome.state === 'delivered' ? null : outcome.error,
        ...(outcome.state === 'delivered' ? { delivered_at_sec: outcome.atSec } : {}),
        ...(outcome.state === 'failed' ? { next_attempt_at_sec: outcome.nextAttemptAtSec } : {}),
      }))
      .where('alert_id', '=', key.alertId)
      .where('channel', '=', key.channel)
      .execute()
  }

  /** The alerts of these rows as the app shows them, with their deliveries. */
  async #views(rows: AlertRow[]): Promise<AlertView[]> {
    if (rows.length === 0) return []
    const deliveries = await this.#db
      .selectFrom('alert_deliveries')
      .selectAll()
      .where(
        'alert_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('alert_id')
      .orderBy('channel')
      .execute()
    return rows.map((r): AlertView => {
      const detail = JSON.parse(r.detail_json) as AlertDetail
      return {
        id: r.id,
        kind: r.kind,
        rule:
          r.rule_id === null ? null : { id: r.rule_id, name: r.rule_name ?? `rule ${r.rule_id}` },
        healthKind: r.health_kind,
        wallet: r.wallet_address,
        walletLabel: r.wallet_label ?? null,
        signature: r.signature,
        firedAt: iso(r.fired_at_sec),
        text: r.text,
        matchCount: r.match_count,
        amounts: detail.amounts,
        isRead: r.is_read === 1,
        deliveries: deliveries
          .filter((d) => d.alert_id === r.id)
          .map((d) => ({
            channel: d.channel,
            state: d.state as DeliveryState,
            attempts: d.attempts,
            lastError: d.last_error,
            deliveredAt: d.delivered_at_sec === null ? null : iso(d.delivered_at_sec),
          })),
      }
    })
  }

  /** How many alerts the person has not seen in the app. */
  async unreadCount(): Promise<number> {
    const row = await this.#db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('is_read', '=', 0)
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Marks alerts read: these, or every one up to `upToId`. */
  async markRead(upToId: number): Promise<void> {
    await this.#db.updateTable('alerts').set({ is_read: 1 }).where('id', '<=', upToId).execute()
  }
}
