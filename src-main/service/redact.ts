// Secrets never appear in logs, errors, IPC payloads or exports (ARCHITECTURE, Data rules). Every
// message the service client builds passes through here.

/** What a secret is replaced with. */
const REDACTED = '***'

// `api-key=<value>` in URLs and query strings (JSON-RPC, v0 REST), any case, also `apiKey=`/`api_key=`.
const QUERY_KEY = /\b(api[-_]?key=)[^&\s"'#<>]*/gi
// `X-Api-Key: <value>` header dumps (the wallet REST key header).
const HEADER_KEY = /\b(x-api-key["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi

/** Redacts `api-key=…` query values, `X-Api-Key` header values and every given secret value. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text
  for (const secret of secrets) {
    if (secret === '') continue
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      out = out.split(form).join(REDACTED)
  }
  return out.replace(QUERY_KEY, `$1${REDACTED}`).replace(HEADER_KEY, `$1${REDACTED}`)
}

/** A URL as text with its `api-key` redacted. */
export function redactUrl(url: string | URL, secrets: readonly string[] = []): string {
  return redactText(String(url), secrets)
}

/** Removes the secrets it was made for from a text. */
export type Redactor = (text: string) => string

/** A redactor bound to the secrets it must remove. */
export function createRedactor(secrets: readonly string[]): Redactor {
  const list = secrets.filter((s) => s !== '')
  return (text) => redactText(text, list)
}
