import type { IncomingMessage, ServerResponse } from 'node:http'

// Reading requests and writing answers, plus the errors handlers throw. REST errors are
// `{ error }` bodies; JSON-RPC errors carry the
// service's codes (docs/service.md, Errors).

/** Largest request body accepted (a batch of 1,000 ids is far below it). */
const MAX_BODY_BYTES = 5 * 1024 * 1024

/** A refusal with an HTTP status and, for JSON-RPC, an error code. */
export class SimRequestError extends Error {
  constructor(
    readonly status: number,
    readonly rpcCode: number,
    message: string,
    readonly retryAfterSec?: number,
  ) {
    super(message)
    this.name = 'SimRequestError'
  }
}

/** Bad or out-of-bounds input: 400 / -32602 (bad params). */
export function invalidParams(message: string): SimRequestError {
  return new SimRequestError(400, -32602, message)
}

/** Nothing found: 404 / -32004. */
export function notFound(message: string): SimRequestError {
  return new SimRequestError(404, -32004, message)
}

/** The request body as text (bounded). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > MAX_BODY_BYTES) throw new SimRequestError(413, -32600, 'request body too large')
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Sends a complete JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

/** Sends an exact text with a JSON content type (used by the malformed-body fault). */
export function sendRawJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

/** Announces the full length, sends half of it, then drops the connection (truncated-body fault). */
export function sendTruncated(res: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body))
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(text.length),
  })
  res.write(text.subarray(0, Math.max(1, Math.floor(text.length / 2))), () => {
    res.socket?.destroy()
  })
}
