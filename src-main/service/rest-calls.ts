import { fillPath, pathParamNames } from '@shared/api/operations'
import type { OperationName, RestOperation } from '@shared/api/operations'
import { encodeQuery } from '@shared/api/rest-query'
import { placeApiKey } from './api-key-placement'
import { parseJsonBody, validateResponse } from './call-validation'
import { errorFromHttpStatus } from './error-mapping'
import { isSuccessStatus } from './http-transport'
import type { AnsweredCall, CallOptions, ServiceConnection } from './http-transport'

/**
 * Calls a REST operation with an already validated input: path parameters fill the path,
 * the rest go to the query (GET, DELETE) or a JSON body; the answer is checked against the
 * operation's response schema.
 */
export async function callRest(
  connection: ServiceConnection,
  name: OperationName,
  op: RestOperation,
  input: Record<string, unknown>,
  callOptions: CallOptions,
): Promise<AnsweredCall> {
  const { settings, redact } = connection
  const base = op.transport === 'wallet-rest' ? settings.walletRestBaseUrl : settings.v0RestBaseUrl
  const url = new URL(base.replace(/\/+$/, '') + fillPath(op.path, input))
  const pathNames = pathParamNames(op.path)
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !pathNames.includes(k)))
  const headers: Record<string, string> = { accept: 'application/json' }
  let body: string | undefined
  if (op.httpMethod === 'GET' || op.httpMethod === 'DELETE') {
    for (const [k, v] of encodeQuery(rest)) url.searchParams.set(k, v)
  } else {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(rest)
  }
  placeApiKey(op.transport, url, headers, settings.apiKey)
  const exchange = await connection.sendHttp(
    name,
    url,
    body === undefined
      ? { method: op.httpMethod, headers }
      : { method: op.httpMethod, headers, body },
    callOptions,
  )
  if (!isSuccessStatus(exchange.httpStatus)) throw errorFromHttpStatus(name, exchange, redact)
  // DELETE answers may be empty (the service documents no body).
  const payload =
    exchange.bodyText.trim() === '' && op.httpMethod === 'DELETE'
      ? null
      : parseJsonBody(name, exchange)
  return {
    value: validateResponse(name, op.response, payload, '', exchange, redact),
    httpStatus: exchange.httpStatus,
  }
}
