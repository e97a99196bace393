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
    `Could not ${doing}: ${sqliteReason(code) ?? postgresReason(code, raw) ?? tlsReason(code, raw) ?? raw}.`,
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

/**
 * A database URL that asks for TLS (sslmode) gets TLS or no connection: `pg` never falls
 * back to plain text, and checks the server's certificate (sslmode=require included, which
 * pg 8 treats as verify-full), so these say what to change instead.
 */
function tlsReason(code: string, message: string): string | null {
  // pg's own error when the server answers "no" to its TLS request; it carries no code.
  if (/does not support SSL connections/i.test(message))
    return 'the URL asks for TLS (sslmode) and the server does not offer it; nothing was sent in plain text. Enable TLS on the server, or drop sslmode from the URL if the network between you is trusted'
  if (UNTRUSTED_CERTIFICATE_CODES.has(code))
    return `the server's TLS certificate could not be verified (${message}); give the certificate of the authority that signed it with sslrootcert=/path/to/ca.pem in the URL`
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's TLS certificate is not for the host in the URL (${message}); connect by the name the certificate gives`
  if (code === 'CERT_HAS_EXPIRED') return "the server's TLS certificate has expired"
  return null
}

/** Node's codes for a certificate chain that does not lead to a trusted authority. */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
])

function postgresReason(code: string, message: string): string | null {
  // pg's SCRAM step, when the URL has no password (nor PGPASSWORD): no code of its own.
  if (/client password must be a string/i.test(message))
    return 'the server asks for a password and none was given; put it in the URL or in PGPASSWORD'
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
