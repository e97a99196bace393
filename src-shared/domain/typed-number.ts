// A number a person types: read the way they write it, or refused in words that name the
// field. Every numeric input of the app goes through here, so "5,000" never turns into
// "no limit" on one page and into 5000 on another.

/** What a typed number must be, and how the field is called in the message. */
export interface TypedNumberRule {
  /** The field's name as the person sees it, e.g. "Daily credit budget". */
  field: string
  /** Whether an empty field is allowed (it reads as null, e.g. "no limit"). */
  isOptional?: boolean
  isWholeNumber?: boolean
  min?: number
  max?: number
  /** Locale whose grouping and decimal marks are accepted (default: the runtime's). */
  locale?: string
}

export type TypedNumber = { ok: true; value: number | null } | { ok: false; message: string }

/** Marks people group digits with in any locale: spaces (also narrow and no-break), _ and '. */
const COMMON_GROUP_MARKS = [' ', '\u00a0', '\u202f', '_', "'", '’']

function marksOf(locale: string | undefined): { group: string[]; decimal: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5)
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.'
  const localeGroup = parts.find((p) => p.type === 'group')?.value
  const group = [...COMMON_GROUP_MARKS, ...(localeGroup ? [localeGroup] : [])].filter(
    (m) => m !== decimal,
  )
  return { group, decimal }
}

function escape(mark: string): string {
  return mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Reads a typed number: grouping marks between digits are dropped (5,000 / 5 000 / 5_000
 * are 5000 in English), the locale's decimal mark is the decimal point; anything else is
 * refused with a message naming the field.
 *
 * @example
 * parseTypedNumber('5,000', { field: 'Daily credit budget', locale: 'en' }) // { ok: true, value: 5000 }
 */
export function parseTypedNumber(text: string, rule: TypedNumberRule): TypedNumber {
  const trimmed = text.trim()
  if (trimmed === '') {
    return rule.isOptional
      ? { ok: true, value: null }
      : { ok: false, message: `${rule.field}: enter a number.` }
  }
  const { group, decimal } = marksOf(rule.locale)
  const groupClass = group.map(escape).join('')
  // Digits, groups separated by one mark each, an optional fraction after the decimal mark.
  const shape = new RegExp(`^([+-]?)(\\d+(?:[${groupClass}]\\d+)*)(?:${escape(decimal)}(\\d+))?$`)
  const match = shape.exec(trimmed)
  if (!match) {
    return {
      ok: false,
      message: `${rule.field}: “${trimmed}” is not a number. Type digits, e.g. ${example(rule)}.`,
    }
  }
  const [, sign = '', whole = '', fraction] = match
  const digits = whole.replace(new RegExp(`[${groupClass}]`, 'g'), '')
  const value = Number(`${sign}${digits}${fraction === undefined ? '' : `.${fraction}`}`)
  if (rule.isWholeNumber && !Number.isInteger(value)) {
    return { ok: false, message: `${rule.field}: enter a whole number, without a fraction.` }
  }
  if (
    (rule.min !== undefined && value < rule.min) ||
    (rule.max !== undefined && value > rule.max)
  ) {
    return { ok: false, message: `${rule.field}: enter a number ${rangeText(rule)}.` }
  }
  return { ok: true, value }
}

function rangeText(rule: TypedNumberRule): string {
  const n = (v: number) => v.toLocaleString(rule.locale)
  if (rule.min !== undefined && rule.max !== undefined)
    return `from ${n(rule.min)} to ${n(rule.max)}`
  if (rule.min !== undefined) return `of at least ${n(rule.min)}`
  return `of at most ${n(rule.max ?? 0)}`
}

function example(rule: TypedNumberRule): string {
  return (5000).toLocaleString(rule.locale)
}
