import { JsonRpcResponse } from '@shared/api/json-rpc'
import type { JsonRpcOperation, OperationName } from '@shared/api/operations'
import { summarizeIssues } from '@shared/validation/zod-issues'
import { placeApiKey } from './api-key-placement'
import { parseJsonBody, validateResponse } from './call-validation'
import { errorFromHttpStatus, errorFromRpcError } from './error-mapping'
import { isSuccessStatus } from './http-transport'
import type {
  AnsweredCall,
  CallOptions,
  HttpExchange,
  HttpRequest,
  ServiceConnection,
} from './http-transport'
import { InvalidResponseError } from './service-errors'

// JSON-RPC 2.0 over one POST to the RPC URL: the request envelope, and reading an answer's
// envelope (id, then `result` or `error`) into a validated value or a typed error. Batches
// reuse both halves.

/** A source of request ids unique within one client (`hg-1`, `hg-2`, …). */
export function createRpcIdSource(): () => string {
  let nextId = 1
  return () => `hg-${nextId++}`
}

/** The RPC URL with its key, and a POST carrying `body` as JSON. */
export function jsonRpcPost(
  connection: ServiceConnection,
  body: unknown,
): { url: URL; request: HttpRequest } {
  const url = new URL(connection.settings.jsonRpcUrl)
  const headers = { 'content-type': 'application/json', accept: 'application/json' }
  placeApiKey('json-rpc', url, headers, connection.settings.apiKey)
  return { url, request: { method: 'POST', headers, body: JSON.stringify(body) } }
}

/** The request envelope of one operation. */
export function rpcRequest(op: JsonRpcOperation, id: string, params: unknown) {
  return { jsonrpc: '2.0', id, method: op.rpcMethod, params } as const
}

/**
 * Reads one answer envelope: the value of its `result` checked against the operation's
 * response schema, or the typed error of its `error` object. A missing or foreign id, or a
 * body that is no envelope at all, is an InvalidResponseError.
 */
export function readRpcAnswer(
  connection: ServiceConnection,
  name: OperationName,
  op: JsonRpcOperation,
  answer: unknown,
  expectedId: string,
  exchange: HttpExchange,
): unknown {
  const { redact } = connection
  const envelope = JsonRpcResponse.safeParse(answer)
  if (!envelope.success || !('result' in envelope.data || 'error' in envelope.data)) {
    const path = envelope.success
      ? 'result'
      : (summarizeIssues(envelope.error)[0]?.path ?? '(root)')
    throw new InvalidResponseError(name, `not a JSON-RPC 2.0 response envelope (at ${path})`, {
      reason: 'envelope',
      fieldPath: path,
      httpStatus: exchange.httpStatus,
    })
  }
  const data = envelope.data
  if (data.id !== null && data.id !== expectedId) {
    throw new InvalidResponseError(
      name,
      `JSON-RPC id ${JSON.stringify(redact(String(data.id)))} does not match the request's`,
      { reason: 'envelope', fieldPath: 'id', httpStatus: exchange.httpStatus },
    )
  }
  if ('error' in data) throw errorFromRpcError(name, data.error, exchange, redact)
  return validateResponse(name, op.response, data.result, 'result', exchange, redact)
}

/** Calls one JSON-RPC operation with already validated params. */
export async function callJsonRpc(
  connection: ServiceConnection,
  name: OperationName,
  op: JsonRpcOperation,
  params: unknown,
  id: string,
  callOptions: CallOptions,
): Promise<AnsweredCall> {
  const { url, request } = jsonRpcPost(connection, rpcRequest(op, id, params))
  const exchange = await connection.sendHttp(name, url, request, callOptions)
  // HTTP status first (401, 403, 404, 429, 5xx); a JSON-RPC error body only adds its code.
  if (!isSuccessStatus(exchange.httpStatus))
    throw errorFromHttpStatus(name, exchange, connection.redact)
  const answer = parseJsonBody(name, exchange)
  return {
    value: readRpcAnswer(connection, name, op, answer, id, exchange),
    httpStatus: exchange.httpStatus,
  }
}
