import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { databasePath, defaultDataDir, holdsMirror } from '../app/data-dir'
import type { Mirror } from '../db/mirror'
import { openSqliteMirror } from '../db/sqlite-mirror'
import { AppError } from '@shared/ipc/ipc-errors'
import type { GlobalOptions } from './cli-core'

/** Options of the commands that reach the team's accounts (`server`, `user …`). */
export interface DatabaseOptions extends GlobalOptions {
  /** The team's database URL; only the SQLite mirror of --data-dir in this build. */
  database?: string
}

/**
 * Refuses a `--database` URL this build cannot open: PostgreSQL is not wired in yet, and
 * the SQLite mirror is chosen with --data-dir.
 */
export function checkDatabaseOption(options: DatabaseOptions): void {
  const url = options.database
  if (url === undefined) return
  if (/^postgres(ql)?:\/\//i.test(url)) {
    throw new AppError(
      'PostgreSQL is not available in this build yet: use the SQLite mirror with --data-dir.',
    )
  }
  throw new AppError(
    `--database must be a postgres:// URL (got “${url}”); the SQLite mirror is chosen with --data-dir.`,
  )
}

/**
 * Opens the mirror holding the team's accounts (the data folder's own mirror), beside a
 * server that may be running on it. With `create`, a new folder is made for it.
 */
export async function openAccountsMirror(
  options: DatabaseOptions,
  use: 'create' | 'change',
): Promise<Mirror> {
  checkDatabaseOption(options)
  const dataDir = resolve(options.dataDir ?? defaultDataDir())
  if (use === 'change' && !holdsMirror(dataDir)) {
    throw new AppError(
      `No Heliograph data in ${dataDir}; add a user with \`user add\` or check --data-dir.`,
    )
  }
  mkdirSync(dataDir, { recursive: true })
  return openSqliteMirror(databasePath(dataDir))
}
