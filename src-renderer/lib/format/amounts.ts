// Token amounts follow the one rule in @shared/domain/amount-text (formatAmount for the
// short form, formatAmountExact for details and tooltips); this module holds the rest.

const LOCALE = typeof navigator === 'undefined' ? 'en' : navigator.language

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
