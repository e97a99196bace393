import type { Kysely } from 'kysely'
import type { Database } from '../schema'

/**
 * The mirror's key–value settings: each key holds one JSON document. What the documents
 * mean (defaults, merging) belongs to the app; this only keeps them.
 */
export class SettingsStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The parsed document under `key`, or undefined when none was saved. */
  async read(key: string): Promise<unknown> {
    const row = await this.#db
      .selectFrom('settings')
      .select('value_json')
      .where('key', '=', key)
      .executeTakeFirst()
    return row === undefined ? undefined : (JSON.parse(row.value_json) as unknown)
  }

  /** Saves `value` under `key`, replacing what was there. */
  async write(key: string, value: unknown, nowSec: number): Promise<void> {
    const json = JSON.stringify(value)
    await this.#db
      .insertInto('settings')
      .values({ key, value_json: json, updated_at_sec: nowSec })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value_json: json, updated_at_sec: nowSec }),
      )
      .execute()
  }
}
