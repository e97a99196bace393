import { redactText } from '../service/redact'

// What a database URL says, without connecting: light enough for a command to check its
// arguments before any engine is loaded.

/**
 * Query parameters that carry a secret: `pg` reads `password` from the query as well as
 * from the user part (postgres://app@host/db?password=…), and `sslpassword` unlocks a key.
 */
const SECRET_PARAMETER = /pass/i

/** The URL as messages may show it: the password (wherever it is given) and any api-key replaced. */
export function displayDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
    // Setting a parameter re-encodes the whole query (sslrootcert's slashes): only when needed.
    for (const name of new Set(parsed.searchParams.keys())) {
      if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, '***')
    }
    return redactText(parsed.toString())
  } catch {
    return 'the PostgreSQL database (its URL cannot be read)'
  }
}

/** Whether `text` names a PostgreSQL database (postgres:// or postgresql://). */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text)
}

/** Whether openMirror can keep a mirror at `text` (postgres:// or postgresql://). */
export function isDatabaseUrl(text: string): boolean {
  return isPostgresUrl(text)
}
