import type { IncomingMessage } from 'node:http'

/** Bodies of the sign-in form and the password change are tiny: anything longer is refused unread. */
const MAX_BODY_BYTES = 4096

/**
 * A request's body of the given content type as text, or null when it is of another type
 * or longer than a sign-in needs (reading stops there).
 */
export async function readSmallBody(
  request: IncomingMessage,
  contentType: string,
): Promise<string | null> {
  if (!(request.headers['content-type'] ?? '').startsWith(contentType)) return null
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
