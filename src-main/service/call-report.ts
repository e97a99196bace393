import { OPERATIONS } from '@shared/api/operations'
import type { Operation, OperationName } from '@shared/api/operations'
import { creditsPerCall } from '@shared/api/prices'
import { isSuccessStatus } from './http-transport'
import type { Redactor } from './redact'
import { InvalidResponseError } from './service-errors'
import type { ServiceError } from './service-errors'
import type { ServiceSettings } from './service-settings'

/** What every call reports to `onCall` (the sync engine's credit ledger). */
export interface CallReport {
  operation: OperationName
  /**
   * Credits the call cost, from the price table: the full price when the service answered
   * with a success status (even if the body then proved garbled or off-schema), 0 otherwise.
   */
  credits: number
  status: 'ok' | 'error'
  errorName?: string
  durationMs: number
  httpStatus?: number
}

/** How one call ended: answered (with its status) or failed with a typed error. */
type CallOutcome = { ok: true; httpStatus: number } | { ok: false; error: ServiceError }

/** Reports one call, started at `startedMs` (performance.now()), once it has ended. */
export type ReportCall = (name: OperationName, startedMs: number, outcome: CallOutcome) => void

/**
 * Whether a call costs credits: the service charges for the work it answered with a
 * success status, even when the body then proves garbled or off-schema; refusals (4xx,
 * 429, JSON-RPC error objects), server errors and calls with no answer cost nothing.
 * The service publishes no rule; this one is shared with the simulator's credit counter,
 * so the ledger and the service's counter agree call for call.
 */
function isBilled(outcome: CallOutcome, httpStatus: number | undefined): boolean {
  const isAnswered = httpStatus !== undefined && isSuccessStatus(httpStatus)
  return isAnswered && (outcome.ok || outcome.error instanceof InvalidResponseError)
}

/** The reporter of one client: each call to `onCall`, each failure as a redacted line to `log`. */
export function createCallReporter(config: {
  settings: ServiceSettings
  redact: Redactor
  onCall?: ((report: CallReport) => void) | undefined
  log?: ((line: string) => void) | undefined
}): ReportCall {
  return (name, startedMs, outcome) => {
    const op: Operation = OPERATIONS[name]
    const httpStatus = outcome.ok ? outcome.httpStatus : outcome.error.httpStatus
    const entry: CallReport = {
      operation: name,
      credits: isBilled(outcome, httpStatus)
        ? creditsPerCall(op.priceKey, config.settings.creditOverrides)
        : 0,
      status: outcome.ok ? 'ok' : 'error',
      durationMs: Math.max(0, performance.now() - startedMs),
    }
    if (!outcome.ok) {
      entry.errorName = outcome.error.name
      config.log?.(config.redact(`${name} failed: ${outcome.error.message}`))
    }
    if (httpStatus !== undefined) entry.httpStatus = httpStatus
    config.onCall?.(entry)
  }
}
