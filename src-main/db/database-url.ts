import { redactText } from '../service/redact'

// What a database URL says, without connecting: light enough for a command to check its
// arguments before any engine is loaded.

/** The URL as messages may show it: the password and any api-key replaced. */
export function displayDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password !== '') parsed.password = '***'
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
