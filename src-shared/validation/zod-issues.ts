import type { z } from 'zod'

// One way to turn a failed zod parse into words, shared by the service client's errors, the
// simulator's 400 replies and the app's InvalidInputError: a field is named like
// `data[3].balanceChanges[0].amount`, and a message is `path: what was expected`.

/** One issue, reduced to what is safe and useful to show: where and what was expected. */
interface IssueSummary {
  path: string
  message: string
}

// Caps so a 572-value enum or a thousand bad ids does not flood a log line or an error body.
const MAX_ISSUES = 5
const MAX_MESSAGE_CHARS = 200

/** Formats a zod issue path as `a.b[3].c` after an optional prefix; the empty path is `(root)`. */
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

/** The first issues of a zod error as `{ path, message }`, paths after `prefix`, messages capped. */
export function summarizeIssues(error: z.ZodError, prefix = ''): IssueSummary[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: formatIssuePath(issue.path, prefix),
    message:
      issue.message.length > MAX_MESSAGE_CHARS
        ? `${issue.message.slice(0, MAX_MESSAGE_CHARS)}…`
        : issue.message,
  }))
}

/**
 * One readable message naming every field at fault: `limit: Too big: expected number to be
 * <=100`. The path is left out at the root and where the message already starts with it
 * (`Label is longer than 64 characters.`); sentences are joined by a space, fragments by `; `.
 */
export function describeIssues(error: z.ZodError, prefix = ''): string {
  let out = ''
  for (const { path, message } of summarizeIssues(error, prefix)) {
    const part =
      path === '(root)' || startsWithWord(message, path) ? message : `${path}: ${message}`
    out = out === '' ? part : `${out}${/[.!?]$/.test(out) ? ' ' : '; '}${part}`
  }
  return out === '' ? 'invalid input' : out
}

/** Whether `text` opens with `word` as a whole word, in any case (`Label is…` opens with `label`). */
function startsWithWord(text: string, word: string): boolean {
  return (
    text.slice(0, word.length).toLowerCase() === word.toLowerCase() &&
    !/^[\w$]/.test(text.slice(word.length))
  )
}
