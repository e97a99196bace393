import { join } from 'node:path'
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely'
import { openDatabase, type OpenDatabase } from '../../src-main/db/sqlite/database'
import type { Database } from '../../src-main/db/schema'
import { makeTempDir } from './temp-dir'

/** A migrated mirror in a temp folder, plus a Kysely handle that records every query it runs. */
export interface ReviewDb {
  database: OpenDatabase
  /** Same connection; its queries land in `queries` so tests can EXPLAIN them. */
  db: Kysely<Database>
  queries: CompiledQuery[]
  /** SQLite's plan of a recorded query, one detail line per step. */
  planOf(query: CompiledQuery): string[]
  close(): Promise<void>
}

export async function openReviewDb(): Promise<ReviewDb> {
  const temp = makeTempDir('heliograph-review-')
  const database = await openDatabase(join(temp.dir, 'heliograph.sqlite'))
  const queries: CompiledQuery[] = []
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: database.sqlite }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query)
    },
  })
  return {
    database,
    db,
    queries,
    planOf(query) {
      const rows = database.sqlite
        .prepare(`explain query plan ${query.sql}`)
        .all(...(query.parameters as unknown[])) as { detail: string }[]
      return rows.map((r) => r.detail)
    },
    async close() {
      await database.close()
      temp.remove()
    },
  }
}

/**
 * Plan lines that read every row of a big table: a `SCAN` of transactions or balance
 * changes (SQLite says `SEARCH … USING INDEX` when an index narrows the walk).
 */
export function fullScans(plan: string[]): string[] {
  return plan.filter((line) =>
    /^SCAN (t|bc|d|transactions|balance_changes|transfers|compressed_signatures)\b/.test(line),
  )
}
