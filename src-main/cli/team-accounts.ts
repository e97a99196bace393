import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { databasePath, defaultDataDir, holdsMirror } from '../app/data-dir'
import type { Mirror } from '../db/mirror'
import { displayDatabaseUrl, isDatabaseUrl, openMirror } from '../db/open-mirror'
import { AppError } from '@shared/ipc/ipc-errors'
import type { GlobalOptions } from './cli-core'
import { cliContext } from './cli-context'

/**
 * Opens the mirror holding the team's accounts, beside a server that may be running on
 * it: the PostgreSQL database of --database (or HELIOGRAPH_DATABASE_URL), else the data
 * folder's own mirror. With `create`, a new data folder is made for it.
 */
export async function openAccountsMirror(
  options: GlobalOptions,
  use: 'create' | 'change',
): Promise<Mirror> {
  const dataDir = resolve(options.dataDir ?? defaultDataDir())
  const databaseUrl = options.database ?? cliContext().env.HELIOGRAPH_DATABASE_URL
  if (databaseUrl !== undefined) {
    if (!isDatabaseUrl(databaseUrl)) {
      throw new AppError(
        `--database (or HELIOGRAPH_DATABASE_URL) must be a PostgreSQL URL (got “${displayDatabaseUrl(databaseUrl)}”).`,
      )
    }
    return openMirror({ file: databasePath(dataDir), databaseUrl })
  }
  if (use === 'change' && !holdsMirror(dataDir)) {
    throw new AppError(
      `No Heliograph data in ${dataDir}; add a user with \`user add\` or check --data-dir.`,
    )
  }
  mkdirSync(dataDir, { recursive: true })
  return openMirror({ file: databasePath(dataDir) })
}
