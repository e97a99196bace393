import pg from 'pg'

/** PostgreSQL's type id of `bigint` (int8), which `pg` returns as a string by default. */
const INT8_TYPE_ID = 20

/**
 * Parses a `bigint` value as a JavaScript number, as better-sqlite3 returns SQLite's
 * integers; refuses one beyond 2^53, which a number would silently round.
 */
export function parseInt8(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value))
    throw new RangeError(`PostgreSQL bigint ${text} is beyond JavaScript's safe integers`)
  return value
}

/**
 * The type parsers a pool of the mirror uses, so that the same query returns the same
 * JavaScript values on PostgreSQL as on SQLite (millisecond times and counts are
 * `bigint` there). Given per pool rather than set on `pg.types`, which is process-wide.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: url, types: mirrorTypeParsers() })
 */
export function mirrorTypeParsers(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides()
  types.setTypeParser(INT8_TYPE_ID, parseInt8)
  return types
}
