import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { readAppVersion } from '../app/app-version'
import type { Core } from '../app/core'
import { defaultDataDir, holdsMirror } from '../app/data-dir'
import type { ChoosePath } from '../app/handlers/handler-context'
import type { Channel, ChannelInput, ChannelOutput } from '@shared/ipc/contract'
import { isKeySafeUrl } from '@shared/domain/service-url'
import { displayDatabaseUrl, isDatabaseUrl } from '../db/open-mirror'
import { AppError, rebuildError } from '@shared/ipc/ipc-errors'
import { cliContext } from './cli-context'
import { readApiKeyOption } from './secret-input'

/** Root of the project (where package.json and out/ live), from this file's place in src-main/cli. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../..')

/** The built renderer served by the web shell. */
export const RENDERER_DIR = resolve(PROJECT_ROOT, 'out/renderer')

/** What a command that shows the demo says, once, on stderr (its output stays the data). */
export const DEMO_DATA_NOTICE =
  'Showing the built-in demo data (made-up wallets), not your own: `heliograph watch add ADDRESS` starts your own watchlist, which is shown from then on.'

/** Options every command takes. */
export interface GlobalOptions {
  dataDir?: string
  /** A PostgreSQL mirror (postgres://…) in place of the data folder's SQLite file. */
  database?: string
  /** One base URL serving the REST paths and JSON-RPC at `/` (as the simulator does). */
  service?: string
  apiKey?: string
  /** A file whose first line is the API key (kept off the command line). */
  apiKeyFile?: string
  /** The mirror for this run: the person's own (`service`) or the demo one. */
  dataSource?: 'service' | 'demo'
}

/**
 * What a command does with the data folder: only reads it (and so may run beside the
 * process that writes), changes data that must be there already, or may create it.
 */
export type FolderUse = 'read' | 'change' | 'create'

/**
 * Whose data a command works on. `own`: it changes the person's data (the watchlist,
 * syncing, webhooks), so it acts on their own mirror, key or no key: the demo is read-only
 * sample data. `shown`: it shows data (reads, look-ups, the app), from the own mirror once
 * it holds a wallet, else from the demo, and then says so.
 */
export type DataUse = 'own' | 'shown'

/** How a command opens the core. */
export interface CommandCore {
  /** The command as typed after `heliograph` (`sync`, `watch add`): names this process to others. */
  command: string
  use: FolderUse
  /** Default: `own` for a command that changes the folder, `shown` for one that only reads. */
  data?: DataUse
  shell?: 'web' | 'electron'
  isWatching?: boolean
  choosePath?: ChoosePath
}

/**
 * Builds the core for one command run, in the given or the default data folder. A folder
 * without data is an error for commands that need data (a mistyped --data-dir must not
 * become an empty mirror); the writer lock keeps a second writer out.
 */
export async function openCore(options: GlobalOptions, extra: CommandCore): Promise<Core> {
  const dataDir = resolve(options.dataDir ?? defaultDataDir())
  const { env, clock } = cliContext()
  const databaseUrl = options.database ?? env.HELIOGRAPH_DATABASE_URL
  if (databaseUrl !== undefined && !isDatabaseUrl(databaseUrl)) {
    throw new AppError(
      `--database (or HELIOGRAPH_DATABASE_URL) must be a PostgreSQL URL such as postgres://user:password@127.0.0.1:5432/heliograph (got “${displayDatabaseUrl(databaseUrl)}”).`,
    )
  }
  if (databaseUrl === undefined && extra.use !== 'create' && !holdsMirror(dataDir)) {
    throw new AppError(
      `No Heliograph data in ${dataDir}; create it with \`watch add\` or check --data-dir.`,
    )
  }
  // Flags win over the environment; with neither, the stored key (or demo mode) applies.
  const apiKey = await readApiKeyOption(options)
  const serviceUrl = options.service ?? env.HELIOGRAPH_SERVICE_URL
  if (serviceUrl && !isKeySafeUrl(serviceUrl)) {
    throw new AppError(
      `--service (or HELIOGRAPH_SERVICE_URL) must be an https URL; plain http would send the API key in clear text and is allowed only to localhost, 127.x.x.x and ::1.`,
    )
  }
  const data = extra.data ?? (extra.use === 'read' ? 'shown' : 'own')
  if (data === 'own' && options.dataSource === 'demo') {
    throw new AppError(
      `\`heliograph ${extra.command}\` acts on your own mirror: the demo is read-only sample data (drop --data-source demo).`,
    )
  }
  // The core (and every engine, service and shell module under it) loads only for a
  // command that opens it: `--version` and `--help` start without it.
  const { createCore } = await import('../app/core')
  const { migrationNotice } = await import('../app/migration-notice')
  const core = await createCore({
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    shell: extra.shell ?? 'web',
    version: readAppVersion(new URL('../../package.json', import.meta.url)),
    isReadOnly: extra.use === 'read',
    processName: `\`heliograph ${extra.command}\``,
    isWatching: extra.isWatching ?? false,
    clock,
    ...(data === 'own'
      ? { dataSource: 'service' as const }
      : options.dataSource
        ? { dataSource: options.dataSource }
        : {}),
    ...(extra.choosePath ? { choosePath: extra.choosePath } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(serviceUrl ? { serviceUrl } : {}),
    onMigration: (progress) => {
      const notice = migrationNotice(progress)
      if (notice !== null) cliContext().writeErr(`${notice}\n`)
    },
  })
  for (const notice of core.notices) cliContext().writeErr(`${notice}\n`)
  if (core.info.dataSource === 'demo') cliContext().writeErr(`${DEMO_DATA_NOTICE}\n`)
  return core
}

/** Calls a channel through the same dispatcher the shells use; throws the rebuilt error. */
export async function callCore<C extends Channel>(
  core: Core,
  channel: C,
  input: ChannelInput<C>,
): Promise<ChannelOutput<C>> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw rebuildError(envelope.error)
  return envelope.result as ChannelOutput<C>
}

/** Whether `npm run build` has produced the renderer. */
export function isRendererBuilt(): boolean {
  return existsSync(resolve(RENDERER_DIR, 'index.html'))
}
