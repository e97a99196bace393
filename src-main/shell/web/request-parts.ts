import type { IncomingMessage } from 'node:http'

// Reading a request's URL and path parts without throwing: whatever a client sends, a
// parse error must become a 400, never an exception out of a request handler.

/** The request's URL, or null when it cannot be parsed (`//[`). */
export function requestUrl(request: IncomingMessage): URL | null {
  return URL.parse(request.url ?? '/', 'http://127.0.0.1')
}

/** A percent-encoded path part, or null when its encoding is broken (`%E0%A4%A`). */
export function decodedPathPart(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}
