import { StorageError } from '@shared/ipc/ipc-errors'
import { redactText } from '../service/redact'

/**
 * Turns a storage failure into a message a person can act on, keeping the code in
 * `details`, whichever engine raised it: SQLite's terse codes (locked, full and read-only
 * are the ones people meet), and PostgreSQL's and the network's (a server that is not
 * running, a wrong password or database, a full disk, a read-only server). The codes of the
 * two never overlap (SQLITE_… against SQLSTATE and socket codes), so one reading serves
 * the code written once above both engines.
 */
export function describeStorageError(error: unknown, doing: string): StorageError {
  const code = (error as { code?: string }).code ?? ''
  const raw = redactText(error instanceof Error ? error.message : String(error))
  return new StorageError(
    `Could not ${doing}: ${sqliteReason(code) ?? postgresReason(code) ?? raw}.`,
    {
      code,
    },
  )
}

function sqliteReason(code: string): string | null {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return 'the database is locked by another process; close other Heliograph windows or commands and try again'
  if (code.startsWith('SQLITE_FULL'))
    return 'the disk is full; free some space and try again (nothing was lost)'
  if (
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code === 'EACCES' ||
    code === 'EPERM'
  )
    return 'the data folder is not writable; check its permissions'
  return null
}

function postgresReason(code: string): string | null {
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
      return 'no PostgreSQL server answers at that address; start it (`npm run postgres`) or check the URL'
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the user name or password in the URL'
    case '3D000':
      return 'that database does not exist on the server; create it first'
    case '53100':
      return "the server's disk is full; free some space and try again (nothing was lost)"
    case '25006':
      return 'the server is read-only'
    case '40P01':
    case '55P03':
      return 'another Heliograph process holds the rows; try again'
    default:
      return null
  }
}
