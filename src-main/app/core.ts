import { contract, isChannel } from '../../src-shared/ipc/contract'
import type { AppInfo } from '../../src-shared/ipc/app-schemas'
import { okEnvelope, type Envelope } from '../../src-shared/ipc/envelope'
import { AppError, InvalidInputError } from '../../src-shared/ipc/ipc-errors'
import { openDatabase, type OpenDatabase } from '../db/database'
import { databasePath } from './data-dir'
import { invalidInput, toErrorPayload } from './error-payload'
import { EventBus } from './event-bus'
import { appHandlers } from './handlers/app-handlers'
import { exportHandlers } from './handlers/export-handlers'
import type { HandlerContext } from './handlers/handler-context'
import type { HandlerTable } from './handlers/handler-table'
import { reviewHandlers } from './handlers/review-handlers'
import { watchlistHandlers } from './handlers/watchlist-handlers'

/** What a shell needs to build the core. */
export interface CoreConfig {
  /** Folder holding the mirror and settings; created when missing. */
  dataDir: string
  shell: AppInfo['shell']
  version: string
  /** The data service's API key; none means the in-process simulator serves demo data. */
  apiKey?: string | undefined
  /** Clock in UTC seconds; tests pass a fixed one. */
  nowSec?: () => number
}

/** The app's core: one per process, shared by whichever shell hosts it. */
export interface Core {
  info: AppInfo
  events: EventBus
  database: OpenDatabase
  /**
   * Runs a channel: parses the input with the channel's schema, calls its handler and
   * answers an envelope. Never throws: every failure comes back as `{ ok: false }`.
   */
  dispatch(channel: string, input: unknown): Promise<Envelope<unknown>>
  /** Removes every secret the core holds from a piece of text (for logs and errors). */
  redact(text: string): string
  close(): Promise<void>
}

/**
 * Builds the core from a config: opens and migrates the mirror and binds the handlers.
 *
 * @example
 * const core = await createCore({ dataDir: '/tmp/x', shell: 'web', version: '0.1.0' })
 * await core.dispatch('watchlist:list', undefined) // { ok: true, result: [] }
 */
export async function createCore(config: CoreConfig): Promise<Core> {
  const database = await openDatabase(databasePath(config.dataDir))
  const events = new EventBus()
  const info: AppInfo = {
    version: config.version,
    shell: config.shell,
    dataSource: config.apiKey ? 'service' : 'demo',
    dataDir: config.dataDir,
  }
  const secrets = [config.apiKey].filter((s): s is string => typeof s === 'string' && s.length > 0)
  const redact = (text: string): string =>
    secrets
      .reduce((out, secret) => out.split(secret).join('***'), text)
      .replace(/(api-key=)[^&\s"']+/gi, '$1***')

  const ctx: HandlerContext = {
    db: database.db,
    events,
    info,
    nowSec: config.nowSec ?? (() => Math.floor(Date.now() / 1000)),
  }
  const handlers: HandlerTable = {
    ...appHandlers(ctx),
    ...watchlistHandlers(ctx),
    ...reviewHandlers(ctx),
    ...exportHandlers(ctx, database),
  }

  async function dispatch(channel: string, input: unknown): Promise<Envelope<unknown>> {
    try {
      if (!isChannel(channel)) {
        throw new InvalidInputError(`Unknown channel “${channel}”.`, { channel })
      }
      const spec = contract[channel]
      const parsed = spec.input.safeParse(input)
      if (!parsed.success) throw invalidInput(channel, parsed.error)
      const handler = handlers[channel] as (input: unknown) => Promise<unknown> | unknown
      const result = await handler(parsed.data)
      // The contract is a promise to the renderer: a result that breaks it is a bug here.
      const checked = spec.output.safeParse(result)
      if (!checked.success) {
        throw new AppError(`Internal error: ${channel} produced a result outside the contract.`)
      }
      return okEnvelope(checked.data)
    } catch (error) {
      return { ok: false, error: toErrorPayload(error, redact) }
    }
  }

  return {
    info,
    events,
    database,
    dispatch,
    redact,
    close: () => database.close(),
  }
}
