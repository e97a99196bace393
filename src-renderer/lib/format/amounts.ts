// Amounts arrive as exact decimal text from the mirror; they are formatted from that text
// (never through a float) so the grouping follows the locale and the digits stay exact.

const LOCALE = typeof navigator === 'undefined' ? 'en' : navigator.language

const parts = new Intl.NumberFormat(LOCALE).formatToParts(1234.5)
const DECIMAL = parts.find((p) => p.type === 'decimal')?.value ?? '.'

/**
 * Formats an exact decimal text for the table: locale grouping, at most `maxFraction`
 * fraction digits (trailing zeros dropped), and a leading sign when asked.
 *
 * @example
 * formatAmountText('-1234567.123456789', { maxFraction: 4 }) // '-1,234,567.1235' (en)
 */
export function formatAmountText(
  text: string,
  options: { maxFraction?: number; isSigned?: boolean } = {},
): string {
  const maxFraction = options.maxFraction ?? 6
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) return text
  const [, minus = '', whole = '0', fraction = ''] = match
  let intPart = BigInt(whole)
  let frac = fraction
  if (frac.length > maxFraction) {
    // Round half up on the text's digits, in integer arithmetic so carries are exact.
    const unit = 10n ** BigInt(maxFraction)
    let scaled = BigInt(whole) * unit + BigInt(frac.slice(0, maxFraction) || '0')
    if (Number(frac[maxFraction]) >= 5) scaled += 1n
    intPart = scaled / unit
    frac = maxFraction === 0 ? '' : (scaled % unit).toString().padStart(maxFraction, '0')
  }
  frac = frac.replace(/0+$/, '')
  const isZero = intPart === 0n && frac === ''
  const sign = minus === '-' && !isZero ? '−' : options.isSigned && !isZero ? '+' : ''
  const grouped = intPart.toLocaleString(LOCALE)
  const tiny =
    isZero && /[1-9]/.test(fraction)
      ? `<${'0' + DECIMAL + '0'.repeat(Math.max(0, maxFraction - 1))}1`
      : ''
  if (tiny) return `${minus === '-' ? '−' : options.isSigned ? '+' : ''}${tiny}`
  return `${sign}${grouped}${frac ? DECIMAL + frac : ''}`
}

const usd = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'USD' })
const usdCompact = new Intl.NumberFormat(LOCALE, {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
})

/** A USD value: `$1,234.56`, or compact (`$1.2M`) for tight places. */
export function formatUsd(value: number, options: { isCompact?: boolean } = {}): string {
  return options.isCompact && Math.abs(value) >= 10_000
    ? usdCompact.format(value)
    : usd.format(value)
}

/** The exact USD value for a tooltip. */
export function exactUsd(value: number): string {
  return `$${value}`
}

/** A price per token, with enough digits for tiny prices. */
export function formatPrice(value: number): string {
  if (value === 0) return usd.format(0)
  const digits = value < 1 ? Math.min(10, Math.max(2, 2 - Math.floor(Math.log10(value)) + 2)) : 2
  return new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: digits,
  }).format(value)
}

/** A count with locale grouping. */
export function formatCount(value: number): string {
  return value.toLocaleString(LOCALE)
}

/** A share (0–1) as a percentage. */
export function formatShare(share: number): string {
  return new Intl.NumberFormat(LOCALE, { style: 'percent', maximumFractionDigits: 1 }).format(share)
}
