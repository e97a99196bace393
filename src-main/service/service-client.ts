import { OPERATIONS, OPERATION_NAMES } from '@shared/api/operations'
import type {
  Operation,
  OperationInput,
  OperationName,
  OperationOutput,
} from '@shared/api/operations'
import { createCallReporter } from './call-report'
import type { CallReport } from './call-report'
import { validateRequest } from './call-validation'
import { asServiceError } from './error-mapping'
import { createHttpTransport } from './http-transport'
import type { AnsweredCall, CallOptions, ServiceConnection } from './http-transport'
import { callJsonRpcBatch } from './json-rpc-batch'
import type { BatchEntry, BatchOutcomes } from './json-rpc-batch'
import { callJsonRpc, createRpcIdSource } from './json-rpc-calls'
import { createRedactor } from './redact'
import { callRest } from './rest-calls'
import type { ServiceSettings } from './service-settings'

// The typed client of the data service, composed of its parts: the HTTP transport, REST and
// JSON-RPC calls, batches, error mapping, validation and the per-call report. It only
// classifies failures; retrying and pacing are the sync engine's job.

export type { CallOptions } from './http-transport'
export type { CallReport } from './call-report'
export { parseRetryAfterMs } from './error-mapping'

/** Options of the client. */
interface ServiceClientOptions {
  /** Called once per operation call, also for each entry of a batch. */
  onCall?: (report: CallReport) => void
  /** Receives one redacted line per HTTP exchange. */
  log?: (line: string) => void
}

type NamespaceOf<N> = N extends `${infer NS}.${string}` ? NS : never
type MethodOf<N> = N extends `${string}.${infer M}` ? M : never

/** One method per operation, grouped by family: `client.wallet.history(input, options)`. */
type ServiceMethods = {
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

/** Builds the client over the given settings. */
export function createServiceClient(
  settings: ServiceSettings,
  options: ServiceClientOptions = {},
): ServiceClient {
  const redact = createRedactor([settings.apiKey])
  const sendHttp = createHttpTransport({
    defaultTimeoutMs: settings.timeoutMs,
    redact,
    log: options.log,
  })
  const connection: ServiceConnection = { settings, sendHttp, redact }
  const report = createCallReporter({ settings, redact, onCall: options.onCall, log: options.log })
  const nextRpcId = createRpcIdSource()

  async function call<N extends OperationName>(
    name: N,
    input: OperationInput<N>,
    callOptions: CallOptions = {},
  ): Promise<OperationOutput<N>> {
    const started = performance.now()
    const op: Operation = OPERATIONS[name]
    if (op === undefined) throw new TypeError(`unknown operation ${String(name)}`)
    let answered: AnsweredCall
    try {
      const valid = validateRequest(name, input, redact)
      answered =
        op.transport === 'json-rpc'
          ? await callJsonRpc(connection, name, op, valid, nextRpcId(), callOptions)
          : await callRest(connection, name, op, valid as Record<string, unknown>, callOptions)
    } catch (thrown) {
      const error = asServiceError(thrown, redact)
      report(name, started, { ok: false, error })
      throw error
    }
    // Reported outside the try: an exception from the hook reaches the caller as itself.
    report(name, started, { ok: true, httpStatus: answered.httpStatus })
    return answered.value as OperationOutput<N>
  }

  async function batch<const E extends readonly BatchEntry[]>(
    entries: E,
    callOptions: CallOptions = {},
  ): Promise<BatchOutcomes<E>> {
    const outcomes = await callJsonRpcBatch(connection, entries, { nextRpcId, report }, callOptions)
    return outcomes as unknown as BatchOutcomes<E>
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
