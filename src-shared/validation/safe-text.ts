import { fieldWords } from './input-issues'

// Text that no channel accepts, whatever its field: a NUL character (PostgreSQL's text
// cannot hold one, SQLite would cut C strings at it, and no person types one) and a lone
// surrogate (half of a character: it cannot be written as UTF-8, so a driver would store
// U+FFFD instead of what was sent). Checked once, at the edge, over the whole input, so
// every engine gives the same answer and no database ever sees such text.

/** Where an input holds text no channel accepts, and what it is. */
export interface UnsafeText {
  /** The field (object keys and array indexes); an object key itself is named by its parent. */
  path: (string | number)[]
  /** The character's position in the text, from 1. */
  position: number
  /** The offending code unit, e.g. `U+0000`. */
  codePoint: string
  kind: 'nul' | 'lone-surrogate'
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The first character of `text` no channel accepts, or null. */
function unsafeIn(text: string): Omit<UnsafeText, 'path'> | null {
  const nul = text.indexOf('\u0000')
  const lone = LONE_SURROGATE.exec(text)?.index ?? -1
  if (nul < 0 && lone < 0) return null
  const isNulFirst = nul >= 0 && (lone < 0 || nul < lone)
  const at = isNulFirst ? nul : lone
  return {
    position: at + 1,
    codePoint: `U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`,
    kind: isNulFirst ? 'nul' : 'lone-surrogate',
  }
}

/**
 * The first text in `value` (a channel's input as received: strings, arrays, objects and
 * their keys, at any depth) holding a NUL character or a lone surrogate; null when none.
 *
 * @example
 * findUnsafeText({ filters: { token: 'US\u0000DC' } })
 * // { path: ['filters', 'token'], position: 3, codePoint: 'U+0000', kind: 'nul' }
 */
export function findUnsafeText(value: unknown, path: (string | number)[] = []): UnsafeText | null {
  if (typeof value === 'string') {
    const found = unsafeIn(value)
    return found === null ? null : { path, ...found }
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, i])
      if (found !== null) return found
    }
    return null
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      const inKey = unsafeIn(key)
      if (inKey !== null) return { path, ...inKey }
      const found = findUnsafeText(inner, [...path, key])
      if (found !== null) return found
    }
  }
  return null
}

/**
 * The refusal of unsafe text in words a person reads, naming the field as every other
 * refused input does.
 *
 * @example
 * describeUnsafeText({ path: ['filters', 'token'], position: 3, codePoint: 'U+0000', kind: 'nul' })
 * // 'Token holds a NUL character (U+0000) at character 3; text may not hold NUL characters or lone surrogates.'
 */
export function describeUnsafeText(found: UnsafeText): string {
  const what =
    found.kind === 'nul'
      ? `a NUL character (${found.codePoint})`
      : `a lone surrogate (${found.codePoint}, half of a character)`
  return `${fieldWords(found.path)} holds ${what} at character ${found.position}; text may not hold NUL characters or lone surrogates.`
}
