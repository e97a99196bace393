import { z } from 'zod'

/** JSON-RPC request id: a string (interface 4.2: `id: string (required)`). */
export const JsonRpcId = z.string().min(1)

/** Protocol version every JSON-RPC message carries (interface 9.4). */
export const JsonRpcVersion = z.literal('2.0')

/** Request envelope `{ jsonrpc, id, method, params }` for one method (interface 4.2). */
export function jsonRpcRequestSchema<M extends string, P extends z.ZodType>(method: M, params: P) {
  return z.strictObject({
    jsonrpc: JsonRpcVersion,
    id: JsonRpcId,
    method: z.literal(method),
    params,
  })
}

/** Request envelope with any method and params, for routing before the method is known (interface 4.2). */
export const JsonRpcRequest = z.object({
  jsonrpc: JsonRpcVersion,
  id: JsonRpcId,
  method: z.string().min(1),
  params: z.unknown(),
})
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>

/** A batch: a non-empty array of request envelopes (JSON-RPC 2.0 batch; interface 4.2 transport). */
export const JsonRpcBatchRequest = z.array(JsonRpcRequest).min(1)
export type JsonRpcBatchRequest = z.infer<typeof JsonRpcBatchRequest>

/**
 * Error object. Codes are not shown in interface 7.4; the facts file lists the ones seen:
 * -32005/-32029/-32429 rate limit, -32602 bad params, -32001 auth, -32004 not found,
 * -32000/-32603 server.
 */
export const JsonRpcErrorObject = z.object({
  code: z.int(),
  message: z.string(),
  data: z.unknown().optional(),
})
export type JsonRpcErrorObject = z.infer<typeof JsonRpcErrorObject>

/** JSON-RPC error codes named in the facts file ("Limits and errors"). */
export const JSON_RPC_ERROR_CODES = {
  serverError: -32000,
  unauthorized: -32001,
  notFound: -32004,
  rateLimited: [-32005, -32029, -32429],
  invalidParams: -32602,
  internalError: -32603,
  invalidRequest: -32600,
  methodNotFound: -32601,
  parseError: -32700,
} as const

/** Success envelope `{ jsonrpc, id, result }` (interface 4.2). */
export function jsonRpcSuccessSchema<R extends z.ZodType>(result: R) {
  return z.object({ jsonrpc: JsonRpcVersion, id: JsonRpcId, result })
}

/** Error envelope; id is null when the request could not be read (JSON-RPC 2.0). */
export const JsonRpcErrorResponse = z.object({
  jsonrpc: JsonRpcVersion,
  id: JsonRpcId.nullable(),
  error: JsonRpcErrorObject,
})
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponse>

/** Any single response envelope, before its result is checked against the method's schema (interface 4.2). */
export const JsonRpcResponse = z.union([
  JsonRpcErrorResponse,
  z.object({ jsonrpc: JsonRpcVersion, id: JsonRpcId, result: z.unknown() }),
])
export type JsonRpcResponse = z.infer<typeof JsonRpcResponse>

/** A batch response: one envelope per request, in any order (JSON-RPC 2.0 batch). */
export const JsonRpcBatchResponse = z.array(JsonRpcResponse)
export type JsonRpcBatchResponse = z.infer<typeof JsonRpcBatchResponse>
