import type BetterSqlite3 from 'better-sqlite3'

/** Index entries sampled per index: statistics in milliseconds, even on 10M rows. */
const ANALYSIS_LIMIT = 1_000

/**
 * Refreshes the query planner's statistics where SQLite judges them missing or stale
 * (`pragma optimize`), from a sample of each index. The first refresh of a connection
 * looks at every table, not only those its queries used so far.
 *
 * @example
 * refreshPlannerStatistics(sqlite, { isFirst: true }) // after the first pages are written
 */
export function refreshPlannerStatistics(
  sqlite: BetterSqlite3.Database,
  { isFirst }: { isFirst: boolean },
): void {
  sqlite.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`)
  sqlite.pragma(`optimize = ${isFirst ? '0x10002' : '0x2'}`)
}
