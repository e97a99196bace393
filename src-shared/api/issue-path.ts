import type { z } from 'zod'

// One way to name a field in a request or response, shared by the client's errors and the
// simulator's 400 replies, e.g. `data[3].balanceChanges[0].amount`.

/** Formats a zod issue path as `a.b[3].c`; the empty path is `(root)`. */
export function formatIssuePath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key))
      out += out === '' ? key : `.${key}`
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out === '' ? '(root)' : out
}

/** One issue, reduced to what is safe and useful to show: where and what was expected. */
export interface IssueSummary {
  path: string
  message: string
}

const MAX_MESSAGE_CHARS = 200

/** Summaries of a zod error's issues, capped so a 572-value enum does not flood a log line. */
export function summarizeIssues(error: z.ZodError, prefix = '', max = 5): IssueSummary[] {
  return error.issues.slice(0, max).map((issue) => ({
    path: formatIssuePath(issue.path, prefix),
    message:
      issue.message.length > MAX_MESSAGE_CHARS
        ? `${issue.message.slice(0, MAX_MESSAGE_CHARS)}…`
        : issue.message,
  }))
}

/**
 * One sentence naming every offending field of a failed parse, for people and for the
 * simulator's error replies alike: `label: Label is longer than 64 characters.`
 *
 * @example
 * describeIssues(error, 'params') // "params.limit: Too big: expected number to be <=1000"
 */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.')
      // A message that already names its field ("Label is longer…") is not prefixed again.
      return path === '' || issue.message.toLowerCase().startsWith(path.toLowerCase())
        ? issue.message
        : `${path}: ${issue.message}`
    })
    .join('; ')
}
