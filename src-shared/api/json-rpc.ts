import { z } from 'zod'

/** JSON-RPC request id: a string (required). */
const JsonRpcId = z.string().min(1)

/** Protocol version every JSON-RPC message carries. */
const JsonRpcVersion = z.literal('2.0')

/** Request envelope with any method and params, for routing before the method is known. */
export const JsonRpcRequest = z.object({
  jsonrpc: JsonRpcVersion,
  id: JsonRpcId,
  method: z.string().min(1),
  params: z.unknown(),
})
export type JsonRpcRequest = z.infer<typeof JsonRpcRequest>

/**
 * Error object. The service documents no codes; these have been seen (docs/service.md, Errors):
 * -32005/-32029/-32429 rate limit, -32602 bad params, -32001 auth, -32004 not found,
 * -32000/-32603 server.
 */
const JsonRpcErrorObject = z.object({
  code: z.int(),
  message: z.string(),
  data: z.unknown().optional(),
})

/** JSON-RPC error codes seen from the service (docs/service.md, Errors). */
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

/** Error envelope; id is null when the request could not be read (JSON-RPC 2.0). */
const JsonRpcErrorResponse = z.object({
  jsonrpc: JsonRpcVersion,
  id: JsonRpcId.nullable(),
  error: JsonRpcErrorObject,
})

/** Any single response envelope, before its result is checked against the method's schema. */
export const JsonRpcResponse = z.union([
  JsonRpcErrorResponse,
  z.object({ jsonrpc: JsonRpcVersion, id: JsonRpcId, result: z.unknown() }),
])
export type JsonRpcResponse = z.infer<typeof JsonRpcResponse>
