import { OPERATIONS } from '@shared/api/operations'
import type {
  JsonRpcOperation,
  JsonRpcOperationName,
  Operation,
  OperationInput,
  OperationOutput,
} from '@shared/api/operations'
import type { ReportCall } from './call-report'
import { parseJsonBody, validateRequest } from './call-validation'
import { asServiceError, errorFromHttpStatus } from './error-mapping'
import { isSuccessStatus } from './http-transport'
import type { CallOptions, HttpExchange, ServiceConnection } from './http-transport'
import { jsonRpcPost, readRpcAnswer, rpcRequest } from './json-rpc-calls'
import { InvalidResponseError } from './service-errors'
import type { ServiceError } from './service-errors'

// Several JSON-RPC operations in one HTTP request (JSON-RPC 2.0 batch). The request as a
// whole can fail (bad input, transport, HTTP status, a body that is no array): then every
// entry is reported with that error and it is thrown. Otherwise the answers are matched to
// the entries by id, in any order, and each entry succeeds or fails on its own.

/** Outcome of one entry of a JSON-RPC batch. */
type BatchOutcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError }

/** One entry of a JSON-RPC batch. */
export type BatchEntry = {
  [N in JsonRpcOperationName]: { operation: N; input: OperationInput<N> }
}[JsonRpcOperationName]

/** The outcomes of a batch, typed entry by entry. */
export type BatchOutcomes<E extends readonly BatchEntry[]> = {
  [K in keyof E]: E[K] extends { operation: infer N extends JsonRpcOperationName }
    ? BatchOutcome<OperationOutput<N>>
    : never
}

interface PreparedEntry {
  name: JsonRpcOperationName
  op: JsonRpcOperation
  id: string
}

/** Sends the entries as one batch; one outcome per entry, in the entries' order. */
export async function callJsonRpcBatch(
  connection: ServiceConnection,
  entries: readonly BatchEntry[],
  client: { nextRpcId: () => string; report: ReportCall },
  callOptions: CallOptions,
): Promise<BatchOutcome<unknown>[]> {
  const started = performance.now()
  if (entries.length === 0) return []
  const prepared = entries.map((entry): PreparedEntry => {
    const op: Operation = OPERATIONS[entry.operation]
    if (op.transport !== 'json-rpc')
      throw new TypeError(`${entry.operation} is not a JSON-RPC operation`)
    return { name: entry.operation, op, id: client.nextRpcId() }
  })
  const failAll = (thrown: unknown): never => {
    const error = asServiceError(thrown, connection.redact)
    for (const p of prepared) client.report(p.name, started, { ok: false, error })
    throw error
  }

  let exchange: HttpExchange
  let answers: unknown[]
  try {
    // Nothing is sent when one entry breaks the interface's bounds.
    const body = prepared.map((p, i) =>
      rpcRequest(p.op, p.id, validateRequest(p.name, entries[i]?.input, connection.redact)),
    )
    const label = `batch(${prepared.map((p) => p.name).join(',')})`
    const { url, request } = jsonRpcPost(connection, body)
    exchange = await connection.sendHttp(label, url, request, callOptions)
    if (!isSuccessStatus(exchange.httpStatus))
      throw errorFromHttpStatus(label, exchange, connection.redact)
    const payload = parseJsonBody(label, exchange)
    if (!Array.isArray(payload)) {
      throw new InvalidResponseError(label, 'a JSON-RPC batch must be answered with an array', {
        reason: 'envelope',
        fieldPath: '(root)',
        httpStatus: exchange.httpStatus,
      })
    }
    answers = payload
  } catch (thrown) {
    return failAll(thrown)
  }

  const answersById = new Map<string, unknown>()
  for (const answer of answers) {
    const id = (answer as { id?: unknown } | null)?.id
    if (typeof id === 'string') answersById.set(id, answer)
  }
  return prepared.map((p): BatchOutcome<unknown> => {
    try {
      const answer = answersById.get(p.id)
      if (answer === undefined) {
        throw new InvalidResponseError(p.name, 'the batch answer has no entry for this request', {
          reason: 'envelope',
          fieldPath: 'id',
          httpStatus: exchange.httpStatus,
        })
      }
      const value = readRpcAnswer(connection, p.name, p.op, answer, p.id, exchange)
      client.report(p.name, started, { ok: true, httpStatus: exchange.httpStatus })
      return { ok: true, value }
    } catch (thrown) {
      const error = asServiceError(thrown, connection.redact)
      client.report(p.name, started, { ok: false, error })
      return { ok: false, error }
    }
  })
}
