import type { Kysely, Transaction } from 'kysely'
import type { HealthKind } from '@shared/domain/alert-rules'
import type { Database } from '../schema'
import type { AlertStore, NewAlert } from './alert-store'

/** A reason syncing stops or slows, while it lasts. */
export interface HealthCondition {
  kind: HealthKind
  sinceSec: number
  detail: string
}

/** A condition whose state changed, with the alert written for it (null when none was asked). */
export interface HealthChange extends HealthCondition {
  alertId: number | null
}

/** Builds the alert that tells of a condition, given every outbound channel's name. */
export type HealthAlertOf = (condition: HealthCondition, channels: readonly string[]) => NewAlert

/**
 * The health conditions (`health_conditions`, one row per kind): raised when something
 * stops or slows syncing, resolved when it recovers. A change of state and its alert are
 * written in one transaction, so an alert is never lost nor written twice for one
 * condition, whatever kills the process in between.
 */
export class HealthStore {
  readonly #db: Kysely<Database>
  readonly #alerts: AlertStore
  constructor(db: Kysely<Database>, alerts: AlertStore) {
    this.#db = db
    this.#alerts = alerts
  }

  /**
   * Marks `kind` active since `nowSec`, or, when it already is, only updates its detail.
   * Resolves to the condition when it was newly raised (its alert written too), else null.
   */
  async raise(
    kind: HealthKind,
    detail: string,
    nowSec: number,
    alertOf?: HealthAlertOf,
  ): Promise<HealthChange | null> {
    // Writes first: a transaction that reads first cannot take the write lock from the
    // page writer's connection once it has written meanwhile (SQLite answers BUSY at once).
    return this.#db.transaction().execute(async (trx) => {
      const active = await trx
        .updateTable('health_conditions')
        .set({ detail })
        .where('kind', '=', kind)
        .where('resolved_at_sec', 'is', null)
        .returning('kind')
        .executeTakeFirst()
      if (active !== undefined) return null
      await trx
        .insertInto('health_conditions')
        .values({ kind, since_sec: nowSec, detail, resolved_at_sec: null })
        .onConflict((oc) =>
          oc.column('kind').doUpdateSet({ since_sec: nowSec, detail, resolved_at_sec: null }),
        )
        .execute()
      const condition = { kind, sinceSec: nowSec, detail }
      const alertId = alertOf
        ? await this.#alerts.insert(alertOf(condition, await channelNames(trx)), trx)
        : null
      return { ...condition, alertId }
    })
  }

  /**
   * Marks `kind` resolved at `nowSec`. Resolves to the condition that ended (its alert
   * written too), or null when it was not active.
   */
  async resolve(
    kind: HealthKind,
    nowSec: number,
    alertOf?: HealthAlertOf,
  ): Promise<HealthChange | null> {
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('health_conditions')
        .set({ resolved_at_sec: nowSec })
        .where('kind', '=', kind)
        .where('resolved_at_sec', 'is', null)
        .returning(['since_sec', 'detail'])
        .executeTakeFirst()
      if (row === undefined) return null
      const condition = { kind, sinceSec: row.since_sec, detail: row.detail }
      const alertId = alertOf
        ? await this.#alerts.insert(alertOf(condition, await channelNames(trx)), trx)
        : null
      return { ...condition, alertId }
    })
  }

  /** The active conditions, oldest first. */
  async active(): Promise<HealthCondition[]> {
    const rows = await this.#db
      .selectFrom('health_conditions')
      .select(['kind', 'since_sec', 'detail'])
      .where('resolved_at_sec', 'is', null)
      .orderBy('since_sec')
      .orderBy('kind')
      .execute()
    return rows.map((r) => ({
      kind: r.kind as HealthKind,
      sinceSec: r.since_sec,
      detail: r.detail,
    }))
  }
}

/** Every outbound channel: a health alert goes to all of them. */
async function channelNames(trx: Transaction<Database>): Promise<string[]> {
  const rows = await trx.selectFrom('notify_channels').select('name').orderBy('name').execute()
  return rows.map((r) => r.name)
}
