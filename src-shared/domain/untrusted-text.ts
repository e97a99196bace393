// Text that comes from the chain or a person (token symbols and names, NFT names,
// counterparty names, labels, rule names) is shown as plain words: one line, no control or
// direction-changing characters, and short. What each channel's format needs on top
// (Slack's escapes, Discord's markdown) is the channel's message builder's work.

/** The longest token symbol shown; real ones are a few letters. */
export const MAX_SYMBOL_CHARS = 16
/** The longest token, NFT, counterparty or wallet name shown. */
export const MAX_NAME_CHARS = 48
/** An address is at most 44 characters: a longer text in its place is no address, and is cut. */
export const MAX_ADDRESS_CHARS = 64
/** The longest rule name shown. */
export const MAX_RULE_NAME_CHARS = 80

/** C0 and C1 controls (line breaks and tabs too) and the line and paragraph separators: a space each. */
const CONTROL_CHARS = /[\p{Cc}\u2028\u2029]/gu
/**
 * The invisible characters that reorder or hide text, removed: bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069), marks (U+200E, U+200F, U+061C),
 * zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF).
 */
const INVISIBLE_CHARS = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g

/**
 * A text from outside as one plain line: hidden characters removed, runs of spaces made
 * one, at most `maxChars` characters (cut with "…").
 *
 * @example
 * plainText('<!channel>\u202e gm', 16) // '<!channel> gm'
 * plainText('A very long token name indeed', 10) // 'A very lo…'
 */
export function plainText(text: string, maxChars: number): string {
  const line = text
    .replace(CONTROL_CHARS, ' ')
    .replace(INVISIBLE_CHARS, '')
    .replace(/\s+/g, ' ')
    .trim()
  const chars = [...line]
  return chars.length <= maxChars
    ? line
    : `${chars
        .slice(0, maxChars - 1)
        .join('')
        .trimEnd()}…`
}
