import { PostgresAdapter, type Kysely } from 'kysely'
import type { MirrorEngine } from './mirror'

/**
 * Which engine a Kysely handle runs on, for the few queries whose best form differs
 * between them (each says why where it asks).
 */
export function engineOf<DB>(db: Kysely<DB>): MirrorEngine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}
