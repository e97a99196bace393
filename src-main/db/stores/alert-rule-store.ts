import type { Kysely, Selectable } from 'kysely'
import {
  AlertTrigger,
  defaultRuleName,
  type AlertRule,
  type AlertRuleDefinition,
  type AlertRuleOptions,
  type AlertRuleScope,
} from '@shared/domain/alert-rules'
import { NotFoundError } from '@shared/ipc/ipc-errors'
import type { AlertRulesTable, Database } from '../schema'

function ruleOf(row: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: row.id,
    name: row.name,
    trigger: AlertTrigger.parse(row.trigger),
    options: JSON.parse(row.options_json) as AlertRuleOptions,
    scope: JSON.parse(row.scope_json) as AlertRuleScope,
    channels: JSON.parse(row.channels_json) as string[],
    cooldownSec: row.cooldown_sec,
    isMuted: row.is_muted === 1,
    createdAtSec: row.created_at_sec,
  }
}

/** The alert rules: what to watch for, over which wallets, told where. */
export class AlertRuleStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** Every rule, oldest first. */
  async list(): Promise<AlertRule[]> {
    const rows = await this.#db.selectFrom('alert_rules').selectAll().orderBy('id').execute()
    return rows.map(ruleOf)
  }

  /** One rule, or NotFoundError naming its id. */
  async get(id: number): Promise<AlertRule> {
    const row = await this.#db
      .selectFrom('alert_rules')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row)
      throw new NotFoundError(`No alert rule has id ${id} (\`heliograph alerts list\` shows them).`)
    return ruleOf(row)
  }

  /**
   * Saves a rule checked by AlertRuleInput and alerts/rule-check.ts; its name defaults to
   * what it watches for.
   */
  async add(rule: AlertRuleDefinition, nowSec: number): Promise<AlertRule> {
    const { id } = await this.#db
      .insertInto('alert_rules')
      .values({
        name: rule.name ?? defaultRuleName(rule),
        trigger: rule.trigger,
        options_json: JSON.stringify(rule.options),
        scope_json: JSON.stringify(rule.scope),
        channels_json: JSON.stringify(rule.channels),
        cooldown_sec: rule.cooldownSec,
        created_at_sec: nowSec,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return this.get(id)
  }

  /** Removes a rule; the alerts it fired stay in the history under its name. */
  async remove(id: number): Promise<void> {
    await this.get(id)
    await this.#db.deleteFrom('alert_rules').where('id', '=', id).execute()
  }

  /** Mutes (nothing fires) or unmutes a rule. */
  async setMuted(id: number, isMuted: boolean): Promise<AlertRule> {
    await this.get(id)
    await this.#db
      .updateTable('alert_rules')
      .set({ is_muted: isMuted ? 1 : 0 })
      .where('id', '=', id)
      .execute()
    return this.get(id)
  }
}
