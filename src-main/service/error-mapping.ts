import { JSON_RPC_ERROR_CODES, JsonRpcResponse } from '@shared/api/json-rpc'
import { describeThrown } from './http-transport'
import type { HttpExchange } from './http-transport'
import type { Redactor } from './redact'
import {
  AuthError,
  BadRequestError,
  JsonRpcError,
  NotFoundError,
  PlanError,
  RateLimitedError,
  ServerError,
  ServiceError,
} from './service-errors'
import type { ErrorDetails } from './service-errors'

// How the service's refusals become typed errors: an HTTP status, or the code of a JSON-RPC
// error object (docs/service.md, Errors). The service's own words are kept, redacted.

const RATE_LIMIT_CODES: readonly number[] = JSON_RPC_ERROR_CODES.rateLimited

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfterMs(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

/** The typed error for a non-2xx HTTP answer; a JSON-RPC error body only adds its code. */
export function errorFromHttpStatus(
  name: string,
  exchange: HttpExchange,
  redact: Redactor,
): ServiceError {
  const status = exchange.httpStatus
  const serviceMessage = redact(extractMessage(exchange.bodyText))
  const details: ErrorDetails = { httpStatus: status }
  if (serviceMessage !== '') details.serviceMessage = serviceMessage
  const rpcCode = extractRpcCode(exchange.bodyText)
  if (rpcCode !== undefined) details.rpcCode = rpcCode
  const suffix = serviceMessage === '' ? '' : `: ${serviceMessage}`
  if (status === 401)
    return new AuthError(name, `HTTP 401, bad or missing API key${suffix}`, details)
  if (status === 403)
    return new PlanError(name, `HTTP 403, the plan does not allow this call${suffix}`, details)
  if (status === 404) return new NotFoundError(name, `HTTP 404, nothing found${suffix}`, details)
  if (status === 429) {
    const retryAfterMs = parseRetryAfterMs(exchange.headers.get('retry-after'))
    if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs
    return new RateLimitedError(name, `HTTP 429, rate limited${suffix}`, details)
  }
  if (status >= 500) return new ServerError(name, `HTTP ${status}${suffix}`, details)
  return new BadRequestError(name, `HTTP ${status}, request rejected${suffix}`, details)
}

/** The typed error for a JSON-RPC error object, chosen by its code. */
export function errorFromRpcError(
  name: string,
  error: { code: number; message: string },
  exchange: HttpExchange,
  redact: Redactor,
): ServiceError {
  const message = redact(error.message)
  const details: ErrorDetails = {
    rpcCode: error.code,
    serviceMessage: message,
    httpStatus: exchange.httpStatus,
  }
  const text = `JSON-RPC error ${error.code}: ${message}`
  if (RATE_LIMIT_CODES.includes(error.code)) {
    const retryAfterMs = parseRetryAfterMs(exchange.headers.get('retry-after'))
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

/**
 * A caught value as the service error it is. Anything else is a bug in the client, not a
 * service failure: it is rethrown as a plain Error, still visible but without the key.
 */
export function asServiceError(thrown: unknown, redact: Redactor): ServiceError {
  if (thrown instanceof ServiceError) return thrown
  throw new Error(redact(`service client internal error: ${describeThrown(thrown)}`))
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
