import type { z } from 'zod'
import { OPERATIONS } from '@shared/api/operations'
import type { Operation, OperationName } from '@shared/api/operations'
import { summarizeIssues } from '@shared/validation/zod-issues'
import type { HttpExchange } from './http-transport'
import type { Redactor } from './redact'
import { InvalidRequestError, InvalidResponseError } from './service-errors'

// Both ends of a call checked against the interface's zod shapes: a request that breaks its
// bounds is never sent, and an answer that does not match is never handed on. Messages
// name the field at fault, redacted, since a bad value may be the key itself.

/** The input of an operation as its request schema parses it, or an InvalidRequestError. */
export function validateRequest(name: OperationName, input: unknown, redact: Redactor): unknown {
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

/** Parses a body as JSON, telling a cut-off body from one that never was JSON. */
export function parseJsonBody(name: string, exchange: HttpExchange): unknown {
  try {
    return JSON.parse(exchange.bodyText)
  } catch {
    const text = exchange.bodyText.trim()
    const looksCut = text.startsWith('{') || text.startsWith('[')
    throw new InvalidResponseError(
      name,
      looksCut
        ? 'truncated JSON body'
        : `body is not JSON (${text === '' ? 'empty' : `${text.length} characters`})`,
      { reason: looksCut ? 'truncated' : 'not-json', httpStatus: exchange.httpStatus },
    )
  }
}

/**
 * A payload as its response schema parses it; a mismatch is an InvalidResponseError naming the
 * field (after `prefix`, e.g. `result`) and what was expected.
 */
export function validateResponse<T>(
  name: string,
  schema: z.ZodType<T>,
  payload: unknown,
  prefix: string,
  exchange: HttpExchange,
  redact: Redactor,
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
      httpStatus: exchange.httpStatus,
    },
  )
}
