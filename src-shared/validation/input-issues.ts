import type { z } from 'zod'
import { formatCount } from '../domain/display-text'

// Person-facing words for a refused input (Settings, the CLI, any form): a schema path such
// as `apiKey:` or `watch.backstopEverySec:` means nothing to the person who typed the value.
// Developer diagnostics (the service client's response checks, the simulator's 400 replies)
// keep the path form of zod-issues.ts.

const MAX_ISSUES = 5

/** Words that are acronyms or units when a field name is read aloud. */
const WORDS: Readonly<Record<string, string>> = {
  api: 'API',
  url: 'URL',
  urls: 'URLs',
  rpc: 'RPC',
  json: 'JSON',
  rest: 'REST',
  id: 'ID',
  ids: 'IDs',
  sol: 'SOL',
  csv: 'CSV',
  nft: 'NFT',
  sec: '(seconds)',
  ms: '(milliseconds)',
  v0: 'v0',
}

/**
 * A field path in words, as a person would name it: `apiKey` is "API key",
 * `walletRestBaseUrl` "Wallet REST base URL", `addresses[3]` "Addresses #4".
 * Nested fields are named by their last name; the empty path is "The input".
 */
export function fieldWords(path: readonly PropertyKey[]): string {
  const lastName = [...path].reverse().find((key) => typeof key === 'string')
  if (lastName === undefined) return 'The input'
  const words = lastName
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase())
  const index = path.at(-1)
  const text = words.join(' ') + (typeof index === 'number' ? ` #${index + 1}` : '')
  // "v0 REST base URL" keeps its own spelling; other names start with a capital.
  const isSpelledAsIs = Object.values(WORDS).includes(words[0] ?? '')
  return isSpelledAsIs ? text : text.charAt(0).toUpperCase() + text.slice(1)
}

/** One zod issue as a sentence a person reads. */
function issueSentence(issue: z.core.$ZodIssue): string {
  const { message } = issue
  // The schema's own sentence ("The API key is empty.") says it best.
  if (/[.!?]$/.test(message)) return message
  const field = fieldWords(issue.path)
  // A fragment written for this project ("must be an http(s) URL") follows the field's name.
  if (/^(must|is|cannot|may|needs) /.test(message)) return `${field} ${message}.`
  if (/^[a-z]/.test(message)) return `${field}: ${message}.`
  return `${field} ${zodDefaultWords(issue) ?? `is not valid (${message})`}.`
}

/** Zod's generic messages ("Too big: expected number to be <=100") in plain words. */
function zodDefaultWords(issue: z.core.$ZodIssue): string | null {
  const count = (n: number | bigint) => (typeof n === 'number' ? formatCount(n) : String(n))
  switch (issue.code) {
    case 'invalid_type':
      // Zod reports no input by default; its message says what it received.
      return / received undefined$/.test(issue.message)
        ? 'is missing'
        : `must be ${article(issue.expected)}`
    case 'too_big':
      if (issue.origin === 'string')
        return `is longer than ${count(issue.maximum)} characters allow`
      if (issue.origin === 'array' || issue.origin === 'set')
        return `holds more than ${count(issue.maximum)} entries`
      return issue.inclusive
        ? `must be at most ${count(issue.maximum)}`
        : `must be less than ${count(issue.maximum)}`
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'is empty'
          : `must be at least ${count(issue.minimum)} characters long`
      if (issue.origin === 'array' || issue.origin === 'set')
        return `needs at least ${count(issue.minimum)} entries`
      return issue.inclusive
        ? `must be at least ${count(issue.minimum)}`
        : `must be more than ${count(issue.minimum)}`
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a setting' : 'settings'} it does not know: ${issue.keys.join(', ')}`
    case 'invalid_format':
      return issue.format === 'url'
        ? 'must be a full URL, such as https://example.com/hook'
        : `is not a valid ${issue.format}`
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`
    default:
      return null
  }
}

const article = (expected: string): string =>
  expected === 'int'
    ? 'a whole number'
    : /^[aeiou]/.test(expected)
      ? `an ${expected}`
      : `a ${expected}`

/**
 * A refused input in sentences a person reads, naming fields in words and never by their
 * schema path: "The API key is empty." or "Daily budget must be at most 10,000,000,000."
 */
export function describeInputIssues(error: z.ZodError): string {
  const sentences = error.issues.slice(0, MAX_ISSUES).map((issue) => issueSentence(issue))
  return sentences.length === 0 ? 'The input is not valid.' : [...new Set(sentences)].join(' ')
}
