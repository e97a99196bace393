import { sql, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely'
import type { AlertDetail, AlertView, DeliveryState } from '@shared/ipc/alert-schemas'
import { isQuietBy, placeMatch } from '@shared/domain/alert-cooldown'
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
  /**
   * None of the rule's alerts about `key` (e.g. a cluster's mint) within `windowSec` of this
   * one's `atSec`: such a match writes nothing. Its dedupe key then starts
   * `rule:<rule id>:<key>:<atSec>:`.
   */
  quiet?: { key: string; atSec: number; windowSec: number }
}

/** A match and the inbox item (a new transaction or snapshot) it was found on. */
export type InboxMatch = RuleMatch & { inboxId: number }

/** The reader of the person at this machine (no team account): their read state. */
export const LOCAL_READER = ''

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
  /** Written to wait for its rule's cool-down: it fires (and is listed) at `deliverAfterSec`. */
  waitsForCooldown?: boolean
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
        waits_for_cooldown: alert.waitsForCooldown === true ? 1 : 0,
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
   * await alerts.commitEvaluation([7, 8], [{ ...match, inboxId: 8 }], nowSec)
   */
  async commitEvaluation(
    inboxIds: readonly number[],
    matches: readonly InboxMatch[],
    nowSec: number,
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
        const id = await this.#record(trx, match, nowSec)
        if (id !== null) touched.push(id)
      }
      return touched
    })
  }

  async #record(trx: Transaction<Database>, match: RuleMatch, nowSec: number) {
    if (match.quiet !== undefined && (await this.#isQuiet(trx, match.ruleId, match.quiet)))
      return null
    const ofRuleAndWallet = trx
      .selectFrom('alerts')
      .where('rule_id', '=', match.ruleId)
      .where((eb) =>
        match.walletAddress === null
          ? eb('wallet_address', 'is', null)
          : eb('wallet_address', '=', match.walletAddress),
      )
    const latest =
      match.cooldownSec === 0
        ? undefined
        : await ofRuleAndWallet
            .select(['id', 'match_count', 'detail_json', 'deliver_after_sec', 'dedupe_key'])
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst()
    const place = placeMatch(
      match.cooldownSec,
      nowSec,
      latest ? { deliverAfterSec: latest.deliver_after_sec } : null,
    )
    if (place.into === 'gathering' && latest !== undefined) {
      // One alert per cause: a cause already gathered is not counted again.
      const detail = JSON.parse(latest.detail_json) as AlertDetail & { causes?: string[] }
      const causes = detail.causes ?? [latest.dedupe_key]
      if (causes.includes(match.dedupeKey)) return null
      if ((await this.#hasCause(trx, match.dedupeKey)) === true) return null
      // The gathered alert says the latest match: its text, amounts and signature.
      await trx
        .updateTable('alerts')
        .set({
          match_count: latest.match_count + 1,
          text: match.text,
          signature: match.signature,
          detail_json: JSON.stringify({
            ...match.detail,
            signatures: [...detail.signatures, ...match.detail.signatures],
            causes: [...causes, match.dedupeKey],
          }),
        })
        .where('id', '=', latest.id)
        .execute()
      return latest.id
    }
    const deliverAfterSec = place.into === 'new' ? place.deliverAfterSec : nowSec
    return this.insert(
      {
        kind: 'rule',
        ruleId: match.ruleId,
        ruleName: match.ruleName,
        healthKind: null,
        walletAddress: match.walletAddress,
        signature: match.signature,
        // An alert fires when it is sent: at once, or when its rule's cool-down ends.
        firedAtSec: deliverAfterSec,
        text: match.text,
        detail: match.detail,
        deliverAfterSec,
        waitsForCooldown: deliverAfterSec > nowSec,
        dedupeKey: match.dedupeKey,
        channels: match.channels,
      },
      trx,
    )
  }

  /** Whether an alert of the rule about the quiet key lies within its window. */
  async #isQuiet(
    trx: Transaction<Database>,
    ruleId: number,
    quiet: NonNullable<RuleMatch['quiet']>,
  ): Promise<boolean> {
    const prefix = `rule:${ruleId}:${quiet.key}:`
    const rows = await trx
      .selectFrom('alerts')
      .select('dedupe_key')
      .where('rule_id', '=', ruleId)
      .where('dedupe_key', 'like', `${prefix}%`)
      .execute()
    const firedAt = rows.map((r) => Number(r.dedupe_key.slice(prefix.length).split(':')[0]))
    return isQuietBy(
      firedAt.filter((sec) => Number.isFinite(sec)),
      quiet.atSec,
      quiet.windowSec,
    )
  }

  /** Whether an alert with this dedupe key exists. */
  async #hasCause(trx: Transaction<Database>, dedupeKey: string): Promise<boolean> {
    const row = await trx
      .selectFrom('alerts')
      .select('id')
      .where('dedupe_key', '=', dedupeKey)
      .executeTakeFirst()
    return row !== undefined
  }

  /**
   * The alerts fired by `nowSec`, newest first (by when they fired, then id), `limit` of
   * them, after the alert `beforeId` when given; read or not for `reader` (a team account's
   * name, '' for the person at this machine). An alert gathering matches in its rule's
   * cool-down fires when the cool-down ends: it is not listed before.
   */
  async history(
    options: { limit: number; beforeId?: number },
    seen: { reader: string; nowSec: number } = { reader: LOCAL_READER, nowSec: Infinity },
  ): Promise<AlertView[]> {
    let query = this.#db
      .selectFrom('alerts as a')
      .leftJoin('wallets as w', 'w.address', 'a.wallet_address')
      .selectAll('a')
      .select('w.label as wallet_label')
      .orderBy('a.fired_at_sec', 'desc')
      .orderBy('a.id', 'desc')
      .limit(options.limit)
    if (Number.isFinite(seen.nowSec)) query = query.where(hasFiredBy(seen.nowSec, 'a'))
    if (options.beforeId !== undefined) {
      const before = await this.#orderKeyOf(options.beforeId)
      if (before === null) return []
      query = query.where((eb) =>
        eb.or([
          eb('a.fired_at_sec', '<', before.firedAtSec),
          eb.and([eb('a.fired_at_sec', '=', before.firedAtSec), eb('a.id', '<', before.id)]),
        ]),
      )
    }
    return this.#views(await query.execute(), await this.#markOf(seen.reader))
  }

  /**
   * The alerts with these ids as the app shows them (any missing id is left out); with
   * `firedBy`, only those fired by then (not one still waiting for its rule's cool-down).
   */
  async views(
    ids: readonly number[],
    options: { reader?: string; firedBySec?: number } = {},
  ): Promise<AlertView[]> {
    if (ids.length === 0) return []
    let query = this.#db
      .selectFrom('alerts as a')
      .leftJoin('wallets as w', 'w.address', 'a.wallet_address')
      .selectAll('a')
      .select('w.label as wallet_label')
      .where('a.id', 'in', [...ids])
      .orderBy('a.id')
    if (options.firedBySec !== undefined) query = query.where(hasFiredBy(options.firedBySec, 'a'))
    return this.#views(await query.execute(), await this.#markOf(options.reader ?? LOCAL_READER))
  }

  /** An alert's place in the alerts' order, or null when there is no such alert. */
  async #orderKeyOf(id: number): Promise<ReadMark | null> {
    const row = await this.#db
      .selectFrom('alerts')
      .select(['id', 'fired_at_sec'])
      .where('id', '=', id)
      .executeTakeFirst()
    return row === undefined ? null : { firedAtSec: row.fired_at_sec, id: row.id }
  }

  /** How far a reader has seen the alerts; null when they have seen none. */
  async #markOf(reader: string): Promise<ReadMark | null> {
    const row = await this.#db
      .selectFrom('alert_read_marks')
      .select(['fired_at_sec', 'alert_id'])
      .where('reader', '=', reader)
      .executeTakeFirst()
    return row === undefined ? null : { firedAtSec: row.fired_at_sec, id: row.alert_id }
  }

  /**
   * The next deliveries to try now on one channel: pending or failed (to retry), their next
   * attempt due and their alert's cool-down over; health alerts first, then oldest first.
   */
  async dueDeliveries(nowSec: number, channel: string, limit: number): Promise<DueDelivery[]> {
    const rows = await this.#db
      .selectFrom('alert_deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .select(['d.alert_id', 'd.channel', 'd.attempts', 'd.next_attempt_at_sec'])
      .where('d.channel', '=', channel)
      .where('d.state', 'in', ['pending', 'failed'])
      .where('d.next_attempt_at_sec', '<=', nowSec)
      .where('a.deliver_after_sec', '<=', nowSec)
      // A health alert says syncing stopped: it goes ahead of every rule's alert.
      .orderBy(sql`case when a.kind = 'health' then 0 else 1 end`)
      .orderBy('d.alert_id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      alertId: Number(r.alert_id),
      channel: r.channel,
      attempts: Number(r.attempts),
      nextAttemptAtSec: Number(r.next_attempt_at_sec),
    }))
  }

  /** The channels with a delivery to try now (see {@link dueDeliveries}). */
  async dueChannels(nowSec: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('alert_deliveries as d')
      .innerJoin('alerts as a', 'a.id', 'd.alert_id')
      .select('d.channel')
      .distinct()
      .where('d.state', 'in', ['pending', 'failed'])
      .where('d.next_attempt_at_sec', '<=', nowSec)
      .where('a.deliver_after_sec', '<=', nowSec)
      .execute()
    return rows.map((r) => r.channel)
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
  async #views(rows: AlertRow[], mark: ReadMark | null): Promise<AlertView[]> {
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
        isRead: !isAbove({ firedAtSec: r.fired_at_sec, id: r.id }, mark),
        deliveries: deliveries
          .filter((d) => d.alert_id === r.id)
          .map((d) => ({
            channel: d.channel,
            state: d.state as DeliveryState,
            attempts: d.attempts,
            lastError: d.last_error,
            deliveredAt: d.delivered_at_sec === null ? null : iso(d.delivered_at_sec),
            nextAttemptAt:
              d.state === 'pending' || d.state === 'failed' ? iso(d.next_attempt_at_sec) : null,
          })),
      }
    })
  }

  /** How many alerts fired by `nowSec` the reader has not seen (above their mark). */
  async unreadCount(reader = LOCAL_READER, nowSec = Infinity): Promise<number> {
    const mark = await this.#markOf(reader)
    let query = this.#db
      .selectFrom('alerts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
    if (Number.isFinite(nowSec)) query = query.where(hasFiredBy(nowSec, 'alerts'))
    if (mark !== null)
      query = query.where((eb) =>
        eb.or([
          eb('fired_at_sec', '>', mark.firedAtSec),
          eb.and([eb('fired_at_sec', '=', mark.firedAtSec), eb('id', '>', mark.id)]),
        ]),
      )
    const row = await query.executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /**
   * Marks every alert up to `upToId` (in the alerts' order) read for `reader`; a mark never
   * moves back, so an older page marked later changes nothing.
   */
  async markRead(upToId: number, reader = LOCAL_READER): Promise<void> {
    const upTo = await this.#orderKeyOf(upToId)
    if (upTo === null) return
    await this.#db
      .insertInto('alert_read_marks')
      .values({ reader, fired_at_sec: upTo.firedAtSec, alert_id: upTo.id })
      .onConflict((oc) =>
        oc
          .column('reader')
          .doUpdateSet({ fired_at_sec: upTo.firedAtSec, alert_id: upTo.id })
          // Only forward, in one statement: two pages marking at once cannot move it back.
          .where((eb) =>
            eb.or([
              eb('alert_read_marks.fired_at_sec', '<', upTo.firedAtSec),
              eb.and([
                eb('alert_read_marks.fired_at_sec', '=', upTo.firedAtSec),
                eb('alert_read_marks.alert_id', '<', upTo.id),
              ]),
            ]),
          ),
      )
      .execute()
  }
}

/**
 * Whether an alert has fired by `nowSec`: at once, or, written to wait for its rule's
 * cool-down, once that has ended. (An alert that fired at once is listed whatever the clock
 * says later.)
 */
function hasFiredBy(nowSec: number, table: 'a' | 'alerts') {
  const waits = sql.ref(`${table}.waits_for_cooldown`)
  const sendsAt = sql.ref(`${table}.deliver_after_sec`)
  return sql<SqlBool>`(${waits} = 0 or ${sendsAt} <= ${nowSec})`
}

/** A place in the alerts' order: when an alert fired, then its id. */
interface ReadMark {
  firedAtSec: number
  id: number
}

/** Whether an alert lies above a reader's mark (unread); everything does without one. */
function isAbove(alert: ReadMark, mark: ReadMark | null): boolean {
  if (mark === null) return true
  return (
    alert.firedAtSec > mark.firedAtSec ||
    (alert.firedAtSec === mark.firedAtSec && alert.id > mark.id)
  )
}
