import type { Kysely } from 'kysely'
import type { AppInfo } from '../../../src-shared/ipc/app-schemas'
import type { Database } from '../../db/schema'
import type { EventBus } from '../event-bus'

/** What every handler may use: the mirror, the event bus, the clock and app facts. */
export interface HandlerContext {
  db: Kysely<Database>
  events: EventBus
  info: AppInfo
  nowSec(): number
}
