import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase } from 'kysely'

/** Compiled statements a connection keeps: the app's queries come in a few hundred shapes. */
const CACHED_STATEMENTS = 500

/**
 * The connection as Kysely's SQLite dialect sees it, compiling each SQL text once. Kysely's
 * driver prepares every query it runs, and compiling costs as much as running most of the
 * app's small queries (a watch round's): here a text seen before reuses its statement.
 * A statement still being iterated (a streamed query) is busy; then a fresh one is compiled.
 *
 * @example
 * new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) })
 */
export function cachingStatements(sqlite: BetterSqlite3.Database): SqliteDatabase {
  // A Map keeps insertion order: re-inserting on use makes its first key the least recent.
  const cache = new Map<string, BetterSqlite3.Statement>()
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      const cached = cache.get(sql)
      if (cached !== undefined) {
        if (cached.busy) return sqlite.prepare(sql)
        cache.delete(sql)
        cache.set(sql, cached)
        return cached
      }
      const statement = sqlite.prepare(sql)
      cache.set(sql, statement)
      if (cache.size > CACHED_STATEMENTS) cache.delete(cache.keys().next().value as string)
      return statement
    },
  }
}
