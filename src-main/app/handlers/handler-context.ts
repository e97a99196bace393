import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { AppInfo } from '@shared/ipc/app-schemas'
import type { Database } from '../../db/schema'
import type { EventBus } from '../event-bus'
import type { SecretStore } from '../secret-store'
import type { ServiceSession } from '../service-session'

/** What every handler may use: the mirror, the event bus, the clock, app facts and the service session. */
export interface HandlerContext {
  db: Kysely<Database>
  sqlite: BetterSqlite3.Database
  events: EventBus
  info: AppInfo
  session: ServiceSession
  secretStore: SecretStore
  nowSec(): number
}
