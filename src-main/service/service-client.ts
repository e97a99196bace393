import type { z } from 'zod'
import { summarizeIssues } from '@shared/validation/zod-issues'
import { JSON_RPC_ERROR_CODES, JsonRpcResponse } from '@shared/api/json-rpc'
import type { JsonRpcResponse as JsonRpcResponseType } from '@shared/api/json-rpc'
import { OPERATIONS, OPERATION_NAMES, fillPath, pathParamNames } from '@shared/api/operations'
import type {
  JsonRpcOperation,
  JsonRpcOperationName,
  Operation,
  OperationInput,
  OperationName,
  OperationOutput,
  RestOperation,
} from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { encodeQuery } from '@shared/api/rest-query'
import { createRedactor } from './redact'
import {
  AbortedError,
  AuthError,
  BadRequestError,
  InvalidRequestError,
  InvalidResponseError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PlanError,
  RateLimitedError,
  ServerError,
  ServiceError,
  TimeoutError,
} from './service-errors'
import type { ErrorDetails } from './service-errors'
import type { ServiceSettings } from './service-settings'

/** Per-call options: a timeout override and the caller's cancellation signal. */
export interface CallOptions {
  signal?: AbortSignal
  timeoutMs?: number
}

/** What every call reports to `onCall` (the sync engine's credit ledger). */
export interface CallReport {
  operation: OperationName
  /**
   * Credits the call may have cost, from the price table: the full price whenever the request
   * left the client (answered, timed out or aborted in flight); 0 when it was rejected locally
   * or never reached the service (network down).
   */
  credits: number
  status: 'ok' | 'error'
  errorName?: string
  durationMs: number
  httpStatus?: number
}

/** Options of the client. */
export interface ServiceClientOptions {
  /** Called once per operation call, also for each entry of a batch. */
  onCall?: (report: CallReport) => void
  /** Receives one redacted line per HTTP exchange. */
  log?: (line: string) => void
}

/** Outcome of one entry of a JSON-RPC batch. */
export type BatchOutcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError }

/** One entry of a JSON-RPC batch. */
export type BatchEntry = {
  [N in JsonRpcOperationName]: { operation: N; input: OperationInput<N> }
}[JsonRpcOperationName]

type BatchOutcomes<E extends readonly BatchEntry[]> = {
  [K in keyof E]: E[K] extends { operation: infer N extends JsonRpcOperationName }
    ? BatchOutcome<OperationOutput<N>>
    : never
}

type NamespaceOf<N> = N extends `${infer NS}.${string}` ? NS : never
type MethodOf<N> = N extends `${string}.${infer M}` ? M : never

/** One method per operation, grouped by family: `client.wallet.history(input, options)`. */
export type ServiceMethods = {
  [NS in NamespaceOf<OperationName>]: {
    [N in OperationName as N extends `${NS}.${string}` ? MethodOf<N> : never]: (
      input: OperationInput<N>,
      options?: CallOptions,
    ) => Promise<OperationOutput<N>>
  }
}

/** The typed service client. */
export type ServiceClient = ServiceMethods & {
  /** Calls an operation by its registry name. */
  call<N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    options?: CallOptions,
  ): Promise<OperationOutput<N>>
  /** Sends several JSON-RPC operations in one HTTP request; each entry succeeds or fails alone. */
  batch<const E extends readonly BatchEntry[]>(
    entries: E,
    options?: CallOptions,
  ): Promise<BatchOutcomes<E>>
}

/** A failure inside the client, with whether the request left it (for the credit report). */
type Failure = { error: ServiceError; sent: boolean }

interface Exchange {
  httpStatus: number
  headers: Headers
  bodyText: string
}

const RATE_LIMIT_CODES: readonly number[] = JSON_RPC_ERROR_CODES.rateLimited

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfterMs(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** Builds the client over the given settings. */
export function createServiceClient(
  settings: ServiceSettings,
  options: ServiceClientOptions = {},
): ServiceClient {
  const redact = createRedactor([settings.apiKey])
  let nextId = 1

  /**
   * Whether a call costs credits: the service charges for the work it answered with a
   * success status, even when the body then proves garbled or off-schema; refusals (4xx,
   * 429, JSON-RPC error objects), server errors and calls with no answer cost nothing.
   * The facts file gives no rule; this one is shared with the simulator's credit counter,
   * so the ledger and the service's counter agree call for call.
   */
  function isBilled(outcome: { httpStatus?: number; error?: ServiceError }): boolean {
    const status = outcome.httpStatus ?? outcome.error?.httpStatus
    const answered = status !== undefined && status >= 200 && status < 300
    return (
      answered && (outcome.error === undefined || outcome.error instanceof InvalidResponseError)
    )
  }

  /** Reports one call to `onCall` (and a failure to `log`). */
  function report(
    name: OperationName,
    startedMs: number,
    outcome: { ok: boolean; sent: boolean; error?: ServiceError; httpStatus?: number },
  ) {
    const op: Operation = OPERATIONS[name]
    const entry: CallReport = {
      operation: name,
      credits: isBilled(outcome) ? creditsPerCall(op.priceKey, settings.creditOverrides) : 0,
      status: outcome.ok ? 'ok' : 'error',
      durationMs: Math.max(0, performance.now() - startedMs),
    }
    if (outcome.error) {
      entry.errorName = outcome.error.name
      options.log?.(redact(`${name} failed: ${outcome.error.message}`))
    }
    const status = outcome.httpStatus ?? outcome.error?.httpStatus
    if (status !== undefined) entry.httpStatus = status
    options.onCall?.(entry)
  }

  function validateRequest(name: OperationName, input: unknown): unknown {
    const op: Operation = OPERATIONS[name]
    const parsed = op.request.safeParse(input)
    if (parsed.success) return parsed.data
    const issues = summarizeIssues(parsed.error)
    const first = issues[0] ?? { path: '(root)', message: 'invalid input' }
    throw new InvalidRequestError(
      name,
      redact(`invalid request parameter ${first.path}: ${first.message}`),
      {
        parameter: first.path,
        issues: issues.map((i) => ({ path: i.path, message: redact(i.message) })),
      },
    )
  }

  /** Performs one HTTP exchange under the call's timeout and the caller's signal. */
  async function exchange(
    name: string,
    url: URL,
    init: { method: string; headers: Record<string, string>; body?: string },
    callOptions: CallOptions,
  ): Promise<Exchange> {
    const timeoutMs = callOptions.timeoutMs ?? settings.timeoutMs
    const controller = new AbortController()
    let isTimedOut = false
    const timer = setTimeout(() => {
      isTimedOut = true
      controller.abort()
    }, timeoutMs)
    const onCallerAbort = () => controller.abort()
    const callerSignal = callOptions.signal
    const safeUrl = redact(url.toString())
    const started = performance.now()
    const aborted = (): Failure => {
      if (isTimedOut) {
        return {
          error: new TimeoutError(name, `no answer within ${timeoutMs} ms (${safeUrl})`, {
            timeoutMs,
            url: safeUrl,
          }),
          sent: true,
        }
      }
      return {
        error: new AbortedError(name, 'cancelled by the caller', { url: safeUrl }),
        sent: true,
      }
    }
    if (callerSignal?.aborted) {
      clearTimeout(timer)
      throw {
        error: new AbortedError(name, 'cancelled before it was sent', { url: safeUrl }),
        sent: false,
      } satisfies Failure
    }
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true })
    try {
      let response: Response
      try {
        response = await fetch(url, { ...init, signal: controller.signal, redirect: 'error' })
      } catch (cause) {
        if (controller.signal.aborted) throw aborted()
        const code = networkCode(cause)
        throw {
          error: new NetworkError(
            name,
            redact(`cannot reach ${safeUrl}: ${code ?? describe(cause)}`),
            {
              url: safeUrl,
              code: code ?? null,
            },
          ),
          sent: false,
        } satisfies Failure
      }
      let bodyText: string
      try {
        bodyText = await response.text()
      } catch (cause) {
        if (controller.signal.aborted) throw aborted()
        throw {
          error: new InvalidResponseError(
            name,
            redact(`truncated response body (${describe(cause)})`),
            {
              reason: 'truncated',
              httpStatus: response.status,
            },
          ),
          sent: true,
        } satisfies Failure
      }
      options.log?.(
        redact(
          `${init.method} ${safeUrl} -> ${response.status} in ${Math.round(performance.now() - started)} ms`,
        ),
      )
      return { httpStatus: response.status, headers: response.headers, bodyText }
    } finally {
      clearTimeout(timer)
      callerSignal?.removeEventListener('abort', onCallerAbort)
    }
  }

  /** Parses a body as JSON, telling a cut-off body from one that never was JSON. */
  function parseJson(name: string, ex: Exchange): unknown {
    try {
      return JSON.parse(ex.bodyText)
    } catch {
      const text = ex.bodyText.trim()
      const looksCut = text.startsWith('{') || text.startsWith('[')
      throw new InvalidResponseError(
        name,
        looksCut
          ? 'truncated JSON body'
          : `body is not JSON (${text === '' ? 'empty' : `${text.length} characters`})`,
        { reason: looksCut ? 'truncated' : 'not-json', httpStatus: ex.httpStatus },
      )
    }
  }

  /** Classifies a non-2xx HTTP answer (facts, "Limits and errors"). */
  function httpError(name: string, ex: Exchange): ServiceError {
    const status = ex.httpStatus
    const serviceMessage = redact(extractMessage(ex.bodyText))
    const details: ErrorDetails = { httpStatus: status }
    if (serviceMessage !== '') details.serviceMessage = serviceMessage
    const rpcCode = extractRpcCode(ex.bodyText)
    if (rpcCode !== undefined) details.rpcCode = rpcCode
    const suffix = serviceMessage === '' ? '' : `: ${serviceMessage}`
    if (status === 401)
      return new AuthError(name, `HTTP 401, bad or missing API key${suffix}`, details)
    if (status === 403)
      return new PlanError(name, `HTTP 403, the plan does not allow this call${suffix}`, details)
    if (status === 404) return new NotFoundError(name, `HTTP 404, nothing found${suffix}`, details)
    if (status === 429) {
      const retryAfterMs = parseRetryAfterMs(ex.headers.get('retry-after'))
      if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs
      return new RateLimitedError(name, `HTTP 429, rate limited${suffix}`, details)
    }
    if (status >= 500) return new ServerError(name, `HTTP ${status}${suffix}`, details)
    return new BadRequestError(name, `HTTP ${status}, request rejected${suffix}`, details)
  }

  /** Classifies a JSON-RPC error object by its code (facts, "Limits and errors"). */
  function rpcError(
    name: string,
    error: { code: number; message: string },
    ex: Exchange,
  ): ServiceError {
    const message = redact(error.message)
    const details: ErrorDetails = {
      rpcCode: error.code,
      serviceMessage: message,
      httpStatus: ex.httpStatus,
    }
    const text = `JSON-RPC error ${error.code}: ${message}`
    if (RATE_LIMIT_CODES.includes(error.code)) {
      const retryAfterMs = parseRetryAfterMs(ex.headers.get('retry-after'))
      if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs
      return new RateLimitedError(name, text, details)
    }
    switch (error.code) {
      case JSON_RPC_ERROR_CODES.unauthorized:
        return new AuthError(name, text, details)
      case JSON_RPC_ERROR_CODES.notFound:
        return new NotFoundError(name, text, details)
      case JSON_RPC_ERROR_CODES.invalidParams:
        return new BadRequestError(name, text, details)
      case JSON_RPC_ERROR_CODES.serverError:
      case JSON_RPC_ERROR_CODES.internalError:
        return new ServerError(name, text, details)
      default:
        return new JsonRpcError(name, text, details)
    }
  }

  /** Validates a payload; a mismatch names the operation, the field path and what was expected. */
  function validateResponse<T>(
    name: string,
    schema: z.ZodType<T>,
    payload: unknown,
    prefix: string,
    ex: Exchange,
  ): T {
    const parsed = schema.safeParse(payload)
    if (parsed.success) return parsed.data
    const issues = summarizeIssues(parsed.error, prefix)
    const first = issues[0] ?? { path: '(root)', message: 'invalid' }
    throw new InvalidResponseError(
      name,
      redact(`response field ${first.path} does not match the interface: ${first.message}`),
      {
        reason: 'schema',
        fieldPath: first.path,
        expected: redact(first.message),
        issues: issues.map((i) => ({ path: i.path, message: redact(i.message) })),
        httpStatus: ex.httpStatus,
      },
    )
  }

  function withKeyInQuery(url: URL): URL {
    // interface 5.3: JSON-RPC, token-metadata and webhooks take the key as ?api-key=
    url.searchParams.set('api-key', settings.apiKey)
    return url
  }

  function joinUrl(base: string, path: string): URL {
    return new URL(base.replace(/\/+$/, '') + path)
  }

  function nextRpcId(): string {
    return `hg-${nextId++}`
  }

  async function callRest(
    name: OperationName,
    op: RestOperation,
    input: Record<string, unknown>,
    callOptions: CallOptions,
  ) {
    const pathNames = pathParamNames(op.path)
    const url = joinUrl(
      op.transport === 'wallet-rest' ? settings.walletRestBaseUrl : settings.v0RestBaseUrl,
      fillPath(op.path, input),
    )
    const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !pathNames.includes(k)))
    const headers: Record<string, string> = { accept: 'application/json' }
    let body: string | undefined
    if (op.httpMethod === 'GET' || op.httpMethod === 'DELETE') {
      for (const [k, v] of encodeQuery(rest)) url.searchParams.set(k, v)
    } else {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(rest)
    }
    // interface 5.2: the wallet REST takes the key as the X-Api-Key header (recommended form).
    if (op.transport === 'wallet-rest') headers['x-api-key'] = settings.apiKey
    else withKeyInQuery(url)
    const ex = await exchange(
      name,
      url,
      body === undefined
        ? { method: op.httpMethod, headers }
        : { method: op.httpMethod, headers, body },
      callOptions,
    )
    if (ex.httpStatus < 200 || ex.httpStatus > 299)
      throw { error: httpError(name, ex), sent: true } satisfies Failure
    try {
      // DELETE answers may be empty (facts leave the body undocumented).
      const payload =
        ex.bodyText.trim() === '' && op.httpMethod === 'DELETE' ? null : parseJson(name, ex)
      return {
        value: validateResponse(name, op.response, payload, '', ex),
        httpStatus: ex.httpStatus,
      }
    } catch (error) {
      throw { error: error as ServiceError, sent: true } satisfies Failure
    }
  }

  function rpcEnvelope(
    name: string,
    payload: unknown,
    expectedId: string,
    ex: Exchange,
  ): JsonRpcResponseType {
    const envelope = JsonRpcResponse.safeParse(payload)
    if (!envelope.success || !('result' in envelope.data || 'error' in envelope.data)) {
      const path = envelope.success
        ? 'result'
        : (summarizeIssues(envelope.error)[0]?.path ?? '(root)')
      throw new InvalidResponseError(name, `not a JSON-RPC 2.0 response envelope (at ${path})`, {
        reason: 'envelope',
        fieldPath: path,
        httpStatus: ex.httpStatus,
      })
    }
    const id = envelope.data.id
    if (id !== null && id !== expectedId) {
      throw new InvalidResponseError(
        name,
        `JSON-RPC id ${JSON.stringify(redact(String(id)))} does not match the request's`,
        {
          reason: 'envelope',
          fieldPath: 'id',
          httpStatus: ex.httpStatus,
        },
      )
    }
    return envelope.data
  }

  function rpcResult(
    name: string,
    op: JsonRpcOperation,
    envelope: JsonRpcResponseType,
    ex: Exchange,
  ): unknown {
    if ('error' in envelope) throw rpcError(name, envelope.error, ex)
    return validateResponse(name, op.response, envelope.result, 'result', ex)
  }

  function rpcUrl(): URL {
    return withKeyInQuery(new URL(settings.jsonRpcUrl))
  }

  async function callJsonRpc(
    name: OperationName,
    op: JsonRpcOperation,
    params: unknown,
    callOptions: CallOptions,
  ) {
    const id = nextRpcId()
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: op.rpcMethod, params })
    const headers = { 'content-type': 'application/json', accept: 'application/json' }
    const ex = await exchange(name, rpcUrl(), { method: 'POST', headers, body }, callOptions)
    try {
      // HTTP status first (401, 403, 404, 429, 5xx); a JSON-RPC error body only adds its code.
      if (ex.httpStatus < 200 || ex.httpStatus > 299) throw httpError(name, ex)
      const payload = parseJson(name, ex)
      const envelope = rpcEnvelope(name, payload, id, ex)
      return { value: rpcResult(name, op, envelope, ex), httpStatus: ex.httpStatus }
    } catch (error) {
      throw { error: error as ServiceError, sent: true } satisfies Failure
    }
  }

  async function call<N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    callOptions: CallOptions = {},
  ): Promise<OperationOutput<N>> {
    const started = performance.now()
    const op: Operation = OPERATIONS[name]
    if (op === undefined) throw new TypeError(`unknown operation ${String(name)}`)
    let result: { value: unknown; httpStatus: number }
    try {
      const valid = validateRequest(name, input)
      result =
        op.transport === 'json-rpc'
          ? await callJsonRpc(name, op, valid, callOptions)
          : await callRest(name, op, valid as Record<string, unknown>, callOptions)
    } catch (thrown) {
      const failure = asFailure(thrown)
      report(name, started, { ok: false, sent: failure.sent, error: failure.error })
      throw failure.error
    }
    // Reported outside the try: an exception from the hook reaches the caller as itself.
    report(name, started, { ok: true, sent: true, httpStatus: result.httpStatus })
    return result.value as OperationOutput<N>
  }

  async function batch<const E extends readonly BatchEntry[]>(
    entries: E,
    callOptions: CallOptions = {},
  ): Promise<BatchOutcomes<E>> {
    const started = performance.now()
    if (entries.length === 0) return [] as unknown as BatchOutcomes<E>
    const prepared = entries.map((entry) => {
      const op: Operation = OPERATIONS[entry.operation]
      if (op.transport !== 'json-rpc')
        throw new TypeError(`${entry.operation} is not a JSON-RPC operation`)
      return { name: entry.operation, op, id: nextRpcId() }
    })
    const validated: unknown[] = []
    for (const entry of entries) {
      try {
        validated.push(validateRequest(entry.operation, entry.input))
      } catch (error) {
        // Nothing is sent when one entry breaks the interface's bounds.
        for (const p of prepared)
          report(p.name, started, { ok: false, sent: false, error: error as ServiceError })
        throw error
      }
    }
    const body = JSON.stringify(
      prepared.map((p, i) => ({
        jsonrpc: '2.0',
        id: p.id,
        method: p.op.rpcMethod,
        params: validated[i],
      })),
    )
    const label = `batch(${prepared.map((p) => p.name).join(',')})`
    let ex: Exchange
    let payload: unknown
    try {
      ex = await exchange(
        label,
        rpcUrl(),
        { method: 'POST', headers: { 'content-type': 'application/json' }, body },
        callOptions,
      )
      if (ex.httpStatus < 200 || ex.httpStatus > 299)
        throw { error: httpError(label, ex), sent: true } satisfies Failure
      try {
        payload = parseJson(label, ex)
      } catch (error) {
        throw { error: error as ServiceError, sent: true } satisfies Failure
      }
      if (!Array.isArray(payload)) {
        const error = new InvalidResponseError(
          label,
          'a JSON-RPC batch must be answered with an array',
          {
            reason: 'envelope',
            fieldPath: '(root)',
            httpStatus: ex.httpStatus,
          },
        )
        throw { error, sent: true } satisfies Failure
      }
    } catch (thrown) {
      const failure = asFailure(thrown)
      for (const p of prepared)
        report(p.name, started, { ok: false, sent: failure.sent, error: failure.error })
      throw failure.error
    }
    const exchangeDone = ex
    const byId = new Map<string, unknown>()
    for (const item of payload) {
      const id = (item as { id?: unknown } | null)?.id
      if (typeof id === 'string') byId.set(id, item)
    }
    const outcomes = prepared.map((p): BatchOutcome<unknown> => {
      try {
        const item = byId.get(p.id)
        if (item === undefined) {
          throw new InvalidResponseError(p.name, 'the batch answer has no entry for this request', {
            reason: 'envelope',
            fieldPath: 'id',
            httpStatus: exchangeDone.httpStatus,
          })
        }
        const value = rpcResult(
          p.name,
          p.op,
          rpcEnvelope(p.name, item, p.id, exchangeDone),
          exchangeDone,
        )
        report(p.name, started, { ok: true, sent: true, httpStatus: exchangeDone.httpStatus })
        return { ok: true, value }
      } catch (error) {
        const failure = asFailure({ error, sent: true })
        report(p.name, started, { ok: false, sent: true, error: failure.error })
        return { ok: false, error: failure.error }
      }
    })
    return outcomes as unknown as BatchOutcomes<E>
  }

  function asFailure(thrown: unknown): Failure {
    if (thrown instanceof ServiceError) return { error: thrown, sent: false }
    if (
      typeof thrown === 'object' &&
      thrown !== null &&
      'error' in thrown &&
      (thrown as Failure).error instanceof ServiceError
    ) {
      return thrown as Failure
    }
    // A bug in this module, not a service failure: keep it visible but never leak the key.
    throw new Error(redact(`service client internal error: ${describe(thrown)}`))
  }

  const methods: Record<
    string,
    Record<string, (input: unknown, options?: CallOptions) => Promise<unknown>>
  > = {}
  for (const name of OPERATION_NAMES) {
    const [family = '', method = ''] = name.split('.')
    const group = (methods[family] ??= {})
    group[method] = (input, callOptions) => call(name, input as never, callOptions)
  }

  return { ...(methods as unknown as ServiceMethods), call, batch }
}

function networkCode(cause: unknown): string | undefined {
  // undici: TypeError('fetch failed') with `cause.code` such as ECONNREFUSED, ENOTFOUND, ECONNRESET.
  let current: unknown = cause
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

function describe(value: unknown): string {
  if (value instanceof Error) {
    const cause = value.cause instanceof Error ? ` (${value.cause.message})` : ''
    return `${value.message}${cause}`
  }
  return String(value)
}

/** The code of a JSON-RPC error body sent with a non-2xx status, if any. */
function extractRpcCode(bodyText: string): number | undefined {
  try {
    const parsed = JsonRpcResponse.safeParse(JSON.parse(bodyText))
    return parsed.success && 'error' in parsed.data ? parsed.data.error.code : undefined
  } catch {
    return undefined
  }
}

/** The service's own words from an error body, if it sent any: `{error}`, `{message}` or `{error:{message}}`. */
function extractMessage(bodyText: string): string {
  const text = bodyText.trim()
  if (text === '') return ''
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body === 'object' && body !== null) {
      const record = body as Record<string, unknown>
      const error = record.error
      if (typeof error === 'string') return error.slice(0, 300)
      if (
        typeof error === 'object' &&
        error !== null &&
        typeof (error as { message?: unknown }).message === 'string'
      ) {
        return (error as { message: string }).message.slice(0, 300)
      }
      if (typeof record.message === 'string') return record.message.slice(0, 300)
    }
    return ''
  } catch {
    return text.slice(0, 200)
  }
}
