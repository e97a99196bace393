import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { JSON_RPC_ERROR_CODES, JsonRpcRequest } from '@shared/api/json-rpc'
import type { OperationName } from '@shared/api/operations'
import { findJsonRpcOperation, matchRestRoute, OPERATIONS } from '@shared/api/operations'
import { creditsPerCall, type EndpointClass } from '@shared/api/prices'
import { decodeQuery } from '@shared/api/rest-query'
import { describeIssues } from '@shared/validation/zod-issues'
import type { ApiKeys } from './api-keys'
import type { SimChain } from './chain/sim-chain'
import type { CreditCounter } from './credit-counter'
import type { ActiveFault, FaultInjector, FaultKind } from './fault-injector'
import { applyDrift } from './fault-injector'
import type { RateLimiter } from './rate-limiter'
import type { RealVariance } from './real-variance'
import type { HandlerContext } from './routes/handler-context'
import {
  readBody,
  sendJson,
  sendRawJsonText,
  sendTruncated,
  SimRequestError,
} from './routes/http-io'
import { runHandler } from './routes/operation-handlers'
import type { WebhookDeliveries } from './webhook-deliveries'

// The service side of the simulator: auth, faults, rate limits (docs/service.md),
// validation with the shared request schemas, the handler, credits, then wire faults.

export interface ServiceDeps {
  chain: SimChain
  keys: ApiKeys
  credits: CreditCounter
  limiter: RateLimiter
  faults: FaultInjector
  webhooks: WebhookDeliveries
  /** Requests held open by the timeout fault, released on close. */
  heldOpen: Set<ServerResponse>
  /** The real service's variety of shapes, when asked for (variance 'real'). */
  variance: RealVariance | null
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Key from `?api-key=` or, for the wallet REST interface, the X-Api-Key header (docs/service.md, Auth). */
function apiKeyOf(req: IncomingMessage, url: URL, acceptsHeader: boolean): string | undefined {
  const fromQuery = url.searchParams.get('api-key') ?? undefined
  if (fromQuery !== undefined) return fromQuery
  const header = req.headers['x-api-key']
  return acceptsHeader && typeof header === 'string' ? header : undefined
}

/** Faults decided before the answer exists; returns true when the request has been dealt with. */
async function applyEarlyFaults(
  hits: Map<FaultKind, ActiveFault>,
  res: ServerResponse,
  deps: ServiceDeps,
  rpcId: unknown,
  rated: { key: string; endpointClass: EndpointClass },
): Promise<boolean> {
  const latency = hits.get('latency')
  if (latency) await sleep(latency.latencyMs ?? 500)
  if (hits.has('timeout')) {
    // Never answer: the client's own timeout has to fire.
    deps.heldOpen.add(res)
    res.on('close', () => deps.heldOpen.delete(res))
    return true
  }
  const limited = hits.get('rateLimit')
  if (limited) {
    const retryAfterSec = limited.retryAfterSec ?? 1
    deps.limiter.noteRefusal(rated.key, rated.endpointClass, retryAfterSec)
    sendRateLimited(res, retryAfterSec, rpcId)
    return true
  }
  const error = hits.get('error')
  if (error) {
    const status = error.status ?? 500
    const message = error.message ?? 'Internal server error'
    if (rpcId === undefined) sendJson(res, status, { error: message })
    else
      sendJson(res, status, {
        jsonrpc: '2.0',
        id: rpcId,
        error: { code: JSON_RPC_ERROR_CODES.internalError, message },
      })
    return true
  }
  return false
}

function sendRateLimited(res: ServerResponse, retryAfterSec: number, rpcId: unknown): void {
  const headers = { 'retry-after': String(retryAfterSec) }
  if (rpcId === undefined)
    sendJson(res, 429, { error: 'Too many requests: rate limit of the plan exceeded' }, headers)
  else
    sendJson(
      res,
      429,
      {
        jsonrpc: '2.0',
        id: rpcId,
        error: { code: -32429, message: 'Too many requests for a specific RPC call' },
      },
      headers,
    )
}

/** Sends a successful body, corrupted on the wire when a fault says so. */
function sendBody(res: ServerResponse, body: unknown, hits: Map<FaultKind, ActiveFault>): void {
  if (hits.has('truncated')) return sendTruncated(res, 200, body)
  if (hits.has('malformed')) {
    const text = JSON.stringify(body)
    return sendRawJsonText(res, 200, `${text.slice(0, Math.floor(text.length / 2))}<<malformed`)
  }
  sendJson(res, 200, body)
}

/** An answer as sent: in the real service's variety when asked for, then drifted by a fault. */
function answerOf(
  operation: OperationName,
  value: unknown,
  hits: Map<FaultKind, ActiveFault>,
  deps: ServiceDeps,
): unknown {
  const varied = deps.variance === null ? value : deps.variance.answer(operation, value)
  const drift = hits.get('drift')
  return drift ? applyDrift(varied, drift.drift ?? 'missing', drift.field) : varied
}

function handlerContext(deps: ServiceDeps, key: string): HandlerContext {
  return { chain: deps.chain, key, keys: deps.keys, webhooks: deps.webhooks }
}

function errorStatus(e: unknown): SimRequestError {
  if (e instanceof SimRequestError) return e
  return new SimRequestError(500, JSON_RPC_ERROR_CODES.internalError, 'Internal server error')
}

/** Handles a wallet REST or v0 REST request; false when the path is not an operation. */
export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ServiceDeps,
): Promise<boolean> {
  const route = matchRestRoute(req.method ?? 'GET', url.pathname)
  if (!route) return false
  const op = OPERATIONS[route.name]
  const key = apiKeyOf(req, url, op.transport === 'wallet-rest')
  if (!deps.keys.isKnown(key)) {
    sendJson(res, 401, { error: key === undefined ? 'missing api key' : 'invalid api key' })
    return true
  }
  const hits = deps.faults.draw(route.name)
  if (await applyEarlyFaults(hits, res, deps, undefined, { key, endpointClass: op.endpointClass }))
    return true
  const wait = deps.limiter.take(key, op.endpointClass)
  if (wait !== null) {
    sendRateLimited(res, wait, undefined)
    return true
  }
  try {
    let input: unknown
    if (op.httpMethod === 'GET' || op.httpMethod === 'DELETE') {
      input = decodeQuery(op.request as unknown as z.ZodObject, url.searchParams, route.pathParams)
    } else {
      const text = await readBody(req)
      let body: unknown
      try {
        body = text.trim() === '' ? {} : JSON.parse(text)
      } catch {
        throw new SimRequestError(400, JSON_RPC_ERROR_CODES.parseError, 'body: not valid JSON')
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw new SimRequestError(400, -32602, 'body: expected a JSON object')
      input = { ...(body as Record<string, unknown>), ...route.pathParams }
    }
    const parsed = op.request.safeParse(input)
    if (!parsed.success) throw new SimRequestError(400, -32602, describeIssues(parsed.error))
    const result = runHandler(route.name, parsed.data, handlerContext(deps, key))
    deps.credits.charge(key, route.name, creditsPerCall(op.priceKey))
    sendBody(res, answerOf(route.name, result, hits, deps), hits)
  } catch (e) {
    const error = errorStatus(e)
    sendJson(res, error.status, { error: error.message })
  }
  return true
}

interface RpcOutcome {
  envelope: Record<string, unknown>
  hits: Map<FaultKind, ActiveFault>
}

function rpcError(id: unknown, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: id ?? null, error: { code, message } }
}

/** Handles JSON-RPC at POST /, single requests and batches. */
export async function handleJsonRpc(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ServiceDeps,
): Promise<void> {
  const key = apiKeyOf(req, url, false)
  if (!deps.keys.isKnown(key)) {
    sendJson(
      res,
      401,
      rpcError(
        null,
        JSON_RPC_ERROR_CODES.unauthorized,
        key === undefined ? 'missing api key' : 'invalid api key',
      ),
    )
    return
  }
  let payload: unknown
  try {
    payload = JSON.parse(await readBody(req))
  } catch {
    sendJson(
      res,
      200,
      rpcError(null, JSON_RPC_ERROR_CODES.parseError, 'Parse error: body is not valid JSON'),
    )
    return
  }
  const isBatch = Array.isArray(payload)
  const requests: unknown[] = isBatch ? (payload as unknown[]) : [payload]
  if (requests.length === 0) {
    sendJson(
      res,
      200,
      rpcError(null, JSON_RPC_ERROR_CODES.invalidRequest, 'Invalid request: empty batch'),
    )
    return
  }
  // First pass: envelopes, methods, faults and rate limits, so a refused batch costs nothing.
  const planned = requests.map((raw) => {
    const envelope = JsonRpcRequest.safeParse(raw)
    if (!envelope.success) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : null
      return {
        error: rpcError(
          id,
          JSON_RPC_ERROR_CODES.invalidRequest,
          `Invalid request: ${describeIssues(envelope.error)}`,
        ),
      }
    }
    const name = findJsonRpcOperation(envelope.data.method)
    if (name === undefined)
      return {
        error: rpcError(
          envelope.data.id,
          JSON_RPC_ERROR_CODES.methodNotFound,
          `Method not found: ${envelope.data.method}`,
        ),
      }
    return { request: envelope.data, name, hits: deps.faults.draw(name) }
  })
  const merged = new Map<FaultKind, ActiveFault>()
  for (const p of planned) {
    if (!('hits' in p) || !p.hits) continue
    for (const [kind, fault] of p.hits) {
      const existing = merged.get(kind)
      if (
        !existing ||
        (kind === 'latency' && (fault.latencyMs ?? 500) > (existing.latencyMs ?? 500))
      )
        merged.set(kind, fault)
    }
  }
  const first = planned.find((p) => 'request' in p)
  const firstId = first?.request?.id ?? null
  const firstClass = first?.name === undefined ? 'rpc' : OPERATIONS[first.name].endpointClass
  if (await applyEarlyFaults(merged, res, deps, firstId, { key, endpointClass: firstClass })) return
  for (const p of planned) {
    if (!('name' in p) || p.name === undefined) continue
    const wait = deps.limiter.take(key, OPERATIONS[p.name].endpointClass)
    if (wait !== null) {
      sendRateLimited(res, wait, p.request.id)
      return
    }
  }
  const outcomes: RpcOutcome[] = planned.map((p) => {
    if ('error' in p && p.error) return { envelope: p.error, hits: new Map() }
    const { request, name, hits } = p as {
      request: JsonRpcRequest
      name: OperationName
      hits: Map<FaultKind, ActiveFault>
    }
    const op = OPERATIONS[name]
    try {
      const parsed = op.request.safeParse(request.params)
      if (!parsed.success) {
        const message = describeIssues(parsed.error, 'params')
        // Photon words its refusals "Validation Error: …" (docs/service.md, Compression).
        const prefix =
          op.priceKey === 'compression' || op.priceKey === 'validityProof'
            ? 'Validation Error: '
            : 'Invalid params: '
        return {
          envelope: rpcError(request.id, JSON_RPC_ERROR_CODES.invalidParams, `${prefix}${message}`),
          hits,
        }
      }
      const result = runHandler(name, parsed.data, handlerContext(deps, key))
      deps.credits.charge(key, name, creditsPerCall(op.priceKey))
      const answer = answerOf(name, result, hits, deps)
      return { envelope: { jsonrpc: '2.0', id: request.id, result: answer }, hits }
    } catch (e) {
      const error = errorStatus(e)
      return { envelope: rpcError(request.id, error.rpcCode, error.message), hits }
    }
  })
  const body = isBatch ? outcomes.map((o) => o.envelope) : outcomes[0]?.envelope
  sendBody(res, body, merged)
}
