/**
 * The one rule for showing an amount (tables, details, notifications): formatted from the
 * mirror's exact decimal text, never through a float, with the locale's grouping.
 *
 * - Short form: at most 6 fraction digits, but an amount below 1 keeps 3 significant
 *   digits, so a fee of 0.0000575 and a change of −0.0000575 read the same and dust never
 *   rounds to zero. Rounding is half up on the text's digits.
 * - Exact form: every digit the text has, grouped; what details and tooltips show.
 */

/** Fraction digits the short form keeps at most, above the significant-digit floor. */
const SHORT_FRACTION_DIGITS = 6
/** Significant digits the short form keeps for an amount below 1. */
const SHORT_SIGNIFICANT_DIGITS = 3
/** The minus sign shown (U+2212), wider and clearer than a hyphen beside digits. */
const MINUS = '−'

interface AmountFormatOptions {
  /** Prefix positive amounts with "+" (balance changes). */
  isSigned?: boolean
  /** BCP 47 locale; the runtime's default when absent. */
  locale?: string
}

const DECIMAL_PATTERN = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * The short form of an exact decimal text: grouped, at most 6 fraction digits, 3
 * significant digits below 1. Text that is not a plain decimal is returned unchanged.
 *
 * @example
 * formatAmount('-18595.522735', { locale: 'en' })  // '−18,595.522735'
 * formatAmount('-0.530846669', { locale: 'en' })   // '−0.530847'
 * formatAmount('0.0000575', { locale: 'en' })      // '0.0000575'
 */
export function formatAmount(text: string, options: AmountFormatOptions = {}): string {
  const match = DECIMAL_PATTERN.exec(text.trim())
  if (!match) return text
  const [, minus = '', whole = '0', fraction = ''] = match
  const firstSignificant = BigInt(whole) === 0n ? fraction.search(/[1-9]/) : -1
  const keep = Math.max(
    SHORT_FRACTION_DIGITS,
    firstSignificant >= 0 ? firstSignificant + SHORT_SIGNIFICANT_DIGITS : 0,
  )
  return compose(minus, ...roundHalfUp(whole, fraction, keep), options)
}

/**
 * The exact form of a decimal text: every digit, grouped, with the same signs as the
 * short form. Text that is not a plain decimal is returned unchanged.
 *
 * @example
 * formatAmountExact('-1234.530846669', { locale: 'en' }) // '−1,234.530846669'
 */
export function formatAmountExact(text: string, options: AmountFormatOptions = {}): string {
  const match = DECIMAL_PATTERN.exec(text.trim())
  if (!match) return text
  const [, minus = '', whole = '0', fraction = ''] = match
  return compose(minus, BigInt(whole), fraction.replace(/0+$/, ''), options)
}

/** Rounds the digits to `keep` fraction digits, half up, in integer arithmetic. */
function roundHalfUp(whole: string, fraction: string, keep: number): [bigint, string] {
  if (fraction.length <= keep) return [BigInt(whole), fraction.replace(/0+$/, '')]
  const unit = 10n ** BigInt(keep)
  let scaled = BigInt(whole) * unit + BigInt(fraction.slice(0, keep) || '0')
  if (Number(fraction[keep]) >= 5) scaled += 1n
  const kept = keep === 0 ? '' : (scaled % unit).toString().padStart(keep, '0')
  return [scaled / unit, kept.replace(/0+$/, '')]
}

function compose(
  minus: string,
  intPart: bigint,
  fraction: string,
  options: AmountFormatOptions,
): string {
  const isZero = intPart === 0n && fraction === ''
  const sign = isZero ? '' : minus === '-' ? MINUS : options.isSigned ? '+' : ''
  const grouped = intPart.toLocaleString(options.locale)
  return `${sign}${grouped}${fraction ? decimalSeparator(options.locale) + fraction : ''}`
}

const separators = new Map<string, string>()

function decimalSeparator(locale: string | undefined): string {
  const key = locale ?? ''
  let separator = separators.get(key)
  if (separator === undefined) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1.5)
    separator = parts.find((p) => p.type === 'decimal')?.value ?? '.'
    separators.set(key, separator)
  }
  return separator
}
