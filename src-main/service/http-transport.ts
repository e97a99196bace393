import type { Redactor } from './redact'
import type { ServiceSettings } from './service-settings'
import { AbortedError, InvalidResponseError, NetworkError, TimeoutError } from './service-errors'

// One HTTP exchange with the service: fetch under a timeout and the caller's signal, the
// body read in full, and every way that can fail turned into a typed error whose URL has
// its key redacted. What the answer means is for the callers to decide.

/** Per-call options: a timeout override and the caller's cancellation signal. */
export interface CallOptions {
  signal?: AbortSignal
  timeoutMs?: number
}

/** A complete HTTP answer, whatever its status. */
export interface HttpExchange {
  httpStatus: number
  headers: Headers
  bodyText: string
}

/** What a request consists of. */
export interface HttpRequest {
  method: string
  headers: Record<string, string>
  body?: string
}

/** Sends one request for the named operation and reads the whole answer. */
type SendHttp = (
  name: string,
  url: URL,
  request: HttpRequest,
  callOptions: CallOptions,
) => Promise<HttpExchange>

/** What every call needs to reach the service: the settings, the transport and the key's redactor. */
export interface ServiceConnection {
  settings: ServiceSettings
  sendHttp: SendHttp
  redact: Redactor
}

/** An answered call: the validated value and the HTTP status it came with. */
export interface AnsweredCall {
  value: unknown
  httpStatus: number
}

/**
 * The transport of one client: `defaultTimeoutMs` unless a call says otherwise, one redacted
 * line per exchange to `log`.
 */
export function createHttpTransport(config: {
  defaultTimeoutMs: number
  redact: Redactor
  log?: ((line: string) => void) | undefined
}): SendHttp {
  const { redact } = config
  return async function sendHttp(name, url, request, callOptions) {
    const timeoutMs = callOptions.timeoutMs ?? config.defaultTimeoutMs
    const safeUrl = redact(url.toString())
    const callerSignal = callOptions.signal
    if (callerSignal?.aborted)
      throw new AbortedError(name, 'cancelled before it was sent', { url: safeUrl })

    const controller = new AbortController()
    let isTimedOut = false
    const timer = setTimeout(() => {
      isTimedOut = true
      controller.abort()
    }, timeoutMs)
    const onCallerAbort = () => controller.abort()
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true })
    const aborted = () =>
      isTimedOut
        ? new TimeoutError(name, `no answer within ${timeoutMs} ms (${safeUrl})`, {
            timeoutMs,
            url: safeUrl,
          })
        : new AbortedError(name, 'cancelled by the caller', { url: safeUrl })
    const started = performance.now()
    try {
      let response: Response
      try {
        response = await fetch(url, { ...request, signal: controller.signal, redirect: 'error' })
      } catch (cause) {
        if (controller.signal.aborted) throw aborted()
        const code = networkCode(cause)
        throw new NetworkError(
          name,
          redact(`cannot reach ${safeUrl}: ${code ?? describeThrown(cause)}`),
          { url: safeUrl, code: code ?? null },
        )
      }
      let bodyText: string
      try {
        bodyText = await response.text()
      } catch (cause) {
        if (controller.signal.aborted) throw aborted()
        throw new InvalidResponseError(
          name,
          redact(`truncated response body (${describeThrown(cause)})`),
          { reason: 'truncated', httpStatus: response.status },
        )
      }
      config.log?.(
        redact(
          `${request.method} ${safeUrl} -> ${response.status} in ${Math.round(performance.now() - started)} ms`,
        ),
      )
      return { httpStatus: response.status, headers: response.headers, bodyText }
    } finally {
      clearTimeout(timer)
      callerSignal?.removeEventListener('abort', onCallerAbort)
    }
  }
}

/** Whether an answer has a success status. */
export function isSuccessStatus(httpStatus: number): boolean {
  return httpStatus >= 200 && httpStatus <= 299
}

/** A thrown value in words, with its cause when it has one (undici hides the reason there). */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) {
    const cause = value.cause instanceof Error ? ` (${value.cause.message})` : ''
    return `${value.message}${cause}`
  }
  return String(value)
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
