import type { z } from 'zod'
import { AppError, InvalidInputError, type ErrorPayload } from '@shared/ipc/ipc-errors'
import { describeInputIssues } from '@shared/validation/input-issues'
import { describeUnsafeText, type UnsafeText } from '@shared/validation/safe-text'
import { formatIssuePath, summarizeIssues } from '@shared/validation/zod-issues'

/**
 * The input of a channel as an InvalidInputError whose message says what was wrong in words
 * the person reads (fields by name, not by schema path); the details keep the paths.
 */
export function invalidInput(channel: string, error: z.ZodError): InvalidInputError {
  return new InvalidInputError(describeInputIssues(error), {
    channel,
    issues: summarizeIssues(error),
  })
}

/** Text no channel accepts (a NUL, a lone surrogate) as the same InvalidInputError on every engine. */
export function unsafeTextInput(channel: string, found: UnsafeText): InvalidInputError {
  const message = describeUnsafeText(found)
  return new InvalidInputError(message, {
    channel,
    issues: [{ path: formatIssuePath(found.path), message }],
  })
}

/**
 * Turns anything thrown by a handler into the wire form, removing every secret the core
 * knows of (the API key) from message and details. Unexpected errors keep their message
 * but not their stack: stacks name local paths and are no use to the renderer.
 */
export function toErrorPayload(error: unknown, redact: (text: string) => string): ErrorPayload {
  if (error instanceof AppError || (error instanceof Error && 'details' in error)) {
    const details = (error as AppError).details
    return {
      name: error.name,
      message: redact(error.message),
      ...(details === undefined ? {} : { details: JSON.parse(redact(JSON.stringify(details))) }),
    }
  }
  if (error instanceof Error) return { name: error.name || 'Error', message: redact(error.message) }
  return { name: 'Error', message: redact(String(error)) }
}
