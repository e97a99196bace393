import { redactText } from './redact'

// Typed errors of the service client. The client only classifies; retrying is the sync
// engine's job. Each error has a stable `name`, the `operation` it came from and JSON-safe
// `details`, so it can cross IPC as `{ name, message, details }` and be rebuilt on the
// other side (STYLE, "errors cross IPC in one envelope").

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }
export type ErrorDetails = { [key: string]: JsonValue }

/** The names of all service errors; stable, since they cross IPC and land in the ledger. */
type ServiceErrorName =
  | 'AuthError'
  | 'PlanError'
  | 'NotFoundError'
  | 'RateLimitedError'
  | 'ServerError'
  | 'TimeoutError'
  | 'AbortedError'
  | 'NetworkError'
  | 'InvalidResponseError'
  | 'JsonRpcError'
  | 'BadRequestError'
  | 'InvalidRequestError'

/** Serialised form of a service error. */
interface SerializedServiceError {
  name: ServiceErrorName
  message: string
  operation: string
  details: ErrorDetails
}

function redactDetails(value: JsonValue): JsonValue {
  if (typeof value === 'string') return redactText(value)
  if (Array.isArray(value)) return value.map(redactDetails)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDetails(v)]))
  }
  return value
}

/** Base of every error the service client throws. */
export abstract class ServiceError extends Error {
  abstract override readonly name: ServiceErrorName
  /** Operation name from the registry, e.g. `wallet.history`. */
  readonly operation: string
  /** JSON-safe facts about the failure (status, code, field path…); already redacted. */
  readonly details: ErrorDetails

  constructor(operation: string, message: string, details: ErrorDetails = {}) {
    // `api-key=` values are stripped here as a last line of defence; the client also removes
    // the known key value before it builds a message.
    super(redactText(`${operation}: ${message}`))
    this.operation = operation
    this.details = redactDetails(details) as ErrorDetails
  }

  /** HTTP status of the response that caused the error, if there was one. */
  get httpStatus(): number | undefined {
    return typeof this.details.httpStatus === 'number' ? this.details.httpStatus : undefined
  }

  /** The IPC-safe form `{ name, message, operation, details }`. */
  toJSON(): SerializedServiceError {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      details: this.details,
    }
  }
}

/** Bad or missing key: HTTP 401 or JSON-RPC -32001 (docs/service.md, Errors). */
export class AuthError extends ServiceError {
  override readonly name = 'AuthError'
}

/** The plan does not allow the call: HTTP 403 (identity and funded-by on the free plan). */
export class PlanError extends ServiceError {
  override readonly name = 'PlanError'
}

/** Nothing found: HTTP 404 or JSON-RPC -32004. */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError'
}

/** Rate limited: HTTP 429 or JSON-RPC -32005/-32029/-32429, with Retry-After when given. */
export class RateLimitedError extends ServiceError {
  override readonly name = 'RateLimitedError'
  /** How long the service asked the caller to wait, when it said. */
  get retryAfterMs(): number | undefined {
    return typeof this.details.retryAfterMs === 'number' ? this.details.retryAfterMs : undefined
  }
}

/** Server-side failure: HTTP 5xx or JSON-RPC -32000/-32603. */
export class ServerError extends ServiceError {
  override readonly name = 'ServerError'
}

/** No complete answer within the call's timeout. */
export class TimeoutError extends ServiceError {
  override readonly name = 'TimeoutError'
}

/** The caller cancelled the call through its AbortSignal. */
export class AbortedError extends ServiceError {
  override readonly name = 'AbortedError'
}

/** The service could not be reached: connection refused or reset, DNS failure. */
export class NetworkError extends ServiceError {
  override readonly name = 'NetworkError'
}

/**
 * The response is not what the interface promises: not JSON, truncated, or a schema mismatch.
 * For a mismatch, `details.fieldPath` names the bad field (e.g. `data[3].balanceChanges[0].amount`).
 */
export class InvalidResponseError extends ServiceError {
  override readonly name = 'InvalidResponseError'
  /** Path of the first bad field, when the body was JSON but did not match. */
  get fieldPath(): string | undefined {
    return typeof this.details.fieldPath === 'string' ? this.details.fieldPath : undefined
  }
}

/** A JSON-RPC error object whose code has no more specific class. */
export class JsonRpcError extends ServiceError {
  override readonly name = 'JsonRpcError'
  /** The JSON-RPC error code. */
  get code(): number | undefined {
    return typeof this.details.rpcCode === 'number' ? this.details.rpcCode : undefined
  }
}

/** The service rejected the request: HTTP 400 (or another 4xx) or JSON-RPC -32602. */
export class BadRequestError extends ServiceError {
  override readonly name: 'BadRequestError' | 'InvalidRequestError' = 'BadRequestError'
}

/** The request broke the interface's bounds and was not sent; `details.parameter` names the field. */
export class InvalidRequestError extends BadRequestError {
  override readonly name = 'InvalidRequestError'
}

type ServiceErrorClass = new (
  operation: string,
  message: string,
  details?: ErrorDetails,
) => ServiceError

const CLASSES: Record<ServiceErrorName, ServiceErrorClass> = {
  AuthError,
  PlanError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  AbortedError,
  NetworkError,
  InvalidResponseError,
  JsonRpcError,
  BadRequestError,
  InvalidRequestError,
}

/** Rebuilds a service error from its serialised form (the other side of IPC). */
export function serviceErrorFromJSON(data: SerializedServiceError): ServiceError {
  const Class = CLASSES[data.name]
  const prefix = `${data.operation}: `
  const message = data.message.startsWith(prefix) ? data.message.slice(prefix.length) : data.message
  return new Class(data.operation, message, data.details)
}
