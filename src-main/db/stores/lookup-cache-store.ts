import type { Kysely, Selectable } from 'kysely'
import { engineOf } from '../engine-of'
import { mirrorKnowledgeOf, type MirrorKnowledge } from '../queries/pasted-text-queries'
import type { Database, LookupCacheTable } from '../schema'

/** One service call of a cached look-up: what was asked and what came back. */
export interface RecordedCall {
  operation: string
  input: unknown
  /** The validated answer; absent when the call failed. */
  output?: unknown
  /** The error's name when the call failed (NotFoundError, PlanError, …). */
  errorName?: string
}

/** One cached look-up, as stored. */
export interface CachedLookup {
  requestKey: string
  view: string
  request: unknown
  answer: unknown
  calls: RecordedCall[]
  title: string
  fetchedAtSec: number
  credits: number
}

/** Cache entries kept at most: the oldest beyond this go when a new one is stored. */
const MAX_ENTRIES = 500

/**
 * The look-up desk's cache: one answer per request key (view + normalised parameters),
 * replaced when the person asks again. Answers are the service's validated JSON, so
 * reading them back is a parse, not a call.
 */
export class LookupCacheStore {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The cached look-up under a request key, or null. */
  async get(requestKey: string): Promise<CachedLookup | null> {
    const row = await this.#db
      .selectFrom('lookup_cache')
      .selectAll()
      .where('request_key', '=', requestKey)
      .executeTakeFirst()
    return row === undefined ? null : entryOf(row)
  }

  /** Stores a look-up, replacing the one under the same key; trims the oldest beyond the cap. */
  async put(entry: CachedLookup): Promise<void> {
    const values = {
      request_key: entry.requestKey,
      view: entry.view,
      request_json: JSON.stringify(entry.request),
      answer_json: JSON.stringify(entry.answer),
      calls_json: JSON.stringify(entry.calls),
      title: entry.title,
      fetched_at_sec: entry.fetchedAtSec,
      credits: entry.credits,
    }
    await this.#db.transaction().execute(async (tx) => {
      await tx
        .insertInto('lookup_cache')
        .values(values)
        .onConflict((oc) => oc.column('request_key').doUpdateSet(values))
        .execute()
      const keep = tx
        .selectFrom('lookup_cache')
        .select('request_key')
        .orderBy('fetched_at_sec', 'desc')
        .limit(MAX_ENTRIES)
      await tx.deleteFrom('lookup_cache').where('request_key', 'not in', keep).execute()
    })
  }

  /** The newest entries first. */
  async recent(limit: number): Promise<CachedLookup[]> {
    const rows = await this.#db
      .selectFrom('lookup_cache')
      .selectAll()
      .orderBy('fetched_at_sec', 'desc')
      .limit(limit)
      .execute()
    return rows.map(entryOf)
  }

  /** What the mirror knows of an id: how a pasted text is recognised for free. */
  knowledgeOf(id: string): Promise<MirrorKnowledge> {
    return mirrorKnowledgeOf(this.#db, id)
  }

  /** The newest entry whose request mentions `text` (an address, id or signature), or null. */
  async newestMentioning(text: string): Promise<CachedLookup | null> {
    // The position of a substring (0 when absent) is instr on SQLite and strpos on
    // PostgreSQL; LIKE would read a pasted % or _ as a wildcard.
    const position = engineOf(this.#db) === 'postgres' ? 'strpos' : 'instr'
    const row = await this.#db
      .selectFrom('lookup_cache')
      .selectAll()
      .where((eb) => eb(eb.fn(position, ['request_json', eb.val(`"${text}"`)]), '>', 0))
      .orderBy('fetched_at_sec', 'desc')
      .executeTakeFirst()
    return row === undefined ? null : entryOf(row)
  }
}

function entryOf(row: Selectable<LookupCacheTable>): CachedLookup {
  return {
    requestKey: row.request_key,
    view: row.view,
    request: JSON.parse(row.request_json) as unknown,
    answer: JSON.parse(row.answer_json) as unknown,
    calls: JSON.parse(row.calls_json) as RecordedCall[],
    title: row.title,
    fetchedAtSec: row.fetched_at_sec,
    credits: row.credits,
  }
}
