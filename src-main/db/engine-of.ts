import { PostgresAdapter, type Kysely } from 'kysely'

/** The database engines a mirror can live on. */
export type MirrorEngine = 'sqlite' | 'postgres'

/**
 * Which engine a Kysely handle runs on, for the few queries whose best form differs
 * between them (each says why where it asks).
 */
export function engineOf<DB>(db: Kysely<DB>): MirrorEngine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}
