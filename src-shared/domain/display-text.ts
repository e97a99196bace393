/**
 * Text a person reads: amounts, money, counts and plurals, dates and SOL gross or net.
 * The app's pages, the look-up desk, the CLI, notifications and alerts all format through
 * this one module, so a number or a date reads the same wherever it appears.
 *
 * The words around the numbers are English, so numbers are written the English way
 * (`en-US`: "1,234.5", "$21,557.99") unless a caller passes another locale.
 */

import { decimalFromRaw, decimalText } from './exact-amount'
import { shortAddress } from './wallet-address'

/** The locale numbers are written in when the caller names none. */
export const DISPLAY_LOCALE = 'en-US'

// ── Amounts ────────────────────────────────────────────────────────────────────────────
/*
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
  /** BCP 47 locale; `DISPLAY_LOCALE` when absent. */
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
  const grouped = intPart.toLocaleString(options.locale ?? DISPLAY_LOCALE)
  return `${sign}${grouped}${fraction ? decimalSeparator(options.locale) + fraction : ''}`
}

const separators = new Map<string, string>()

function decimalSeparator(locale: string = DISPLAY_LOCALE): string {
  const key = locale
  let separator = separators.get(key)
  if (separator === undefined) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1.5)
    separator = parts.find((p) => p.type === 'decimal')?.value ?? '.'
    separators.set(key, separator)
  }
  return separator
}

// ── Token amounts: decimals applied, a name before an address ──────────────────────────

export { shortAddress }

/** What is known about a token for naming it: its symbol or name, else only its mint. */
export interface TokenNaming {
  mint: string
  symbol?: string | null
  name?: string | null
}

/**
 * A token's name for people: its symbol, else its name, else its short mint address.
 *
 * @example
 * tokenLabel({ mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC' }) // 'USDC'
 * tokenLabel({ mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }) // 'EPjF…Dt1v'
 */
export function tokenLabel(token: TokenNaming): string {
  return token.symbol?.trim() || token.name?.trim() || shortAddress(token.mint)
}

/**
 * An amount of a token as a person reads it: decimals applied to a raw amount when the
 * decimals are known, grouped, followed by the token's label. Raw amounts of unknown
 * decimals say so instead of passing for whole tokens.
 *
 * @example
 * tokenAmountText({ raw: '21557990000', decimals: 6, mint, symbol: 'USDC' }) // '21,557.99 USDC'
 * tokenAmountText({ amount: '0.5', mint })                                 // '0.5 EPjF…Dt1v'
 * tokenAmountText({ raw: '12', decimals: null, mint })                     // '12 smallest units of EPjF…Dt1v'
 */
export function tokenAmountText(
  token: TokenNaming & { amount?: string; raw?: string; decimals?: number | null },
  options: AmountFormatOptions = {},
): string {
  const label = tokenLabel(token)
  if (token.amount !== undefined) return `${formatAmount(token.amount, options)} ${label}`
  const raw = token.raw ?? '0'
  if (token.decimals === null || token.decimals === undefined)
    return `${formatAmountExact(raw, options)} smallest units of ${label}`
  return `${formatAmount(decimalFromRaw(raw, token.decimals), options)} ${label}`
}

/** Lamports per SOL: SOL has 9 decimals. */
const SOL_DECIMALS = 9

/**
 * SOL from lamports, exact and grouped: `1,500,000,000` lamports → `1.5 SOL`.
 *
 * @example
 * lamportsText(2_039_280) // '0.00203928 SOL'
 */
export function lamportsText(lamports: number | string, options: AmountFormatOptions = {}): string {
  return `${formatAmountExact(decimalFromRaw(String(lamports), SOL_DECIMALS), options)} SOL`
}

/**
 * Whether a SOL figure includes the network fee: `net` is the wallet's balance change (the
 * fee payer's change already has the fee taken off), `gross` is what was sent or received
 * before the fee. Every place that shows SOL says which one it shows.
 */
export type SolBasis = 'gross' | 'net'

/** The words that say which SOL figure a column or a line shows. */
export const SOL_BASIS_WORDS: Record<SolBasis, string> = {
  gross: 'before fees',
  net: 'net of fees',
}

/**
 * A column or line heading for SOL figures that names their basis.
 *
 * @example
 * solHeading('Change', 'net') // 'Change (SOL, net of fees)'
 */
export function solHeading(heading: string, basis: SolBasis): string {
  return `${heading} (SOL, ${SOL_BASIS_WORDS[basis]})`
}

// ── Money ──────────────────────────────────────────────────────────────────────────────

const moneyFormats = new Map<string, Intl.NumberFormat>()

function moneyFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`
  let format = moneyFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', ...options })
    moneyFormats.set(key, format)
  }
  return format
}

/** What a price or value the service does not know shows as: a dash, never $0. */
export const UNPRICED_TEXT = '—'

/**
 * A USD value to the cent with separators: `$21,557.99`; compact (`$1.2M`) for tight places
 * from $10,000 up; a value the service does not know (null) is a dash.
 *
 * @example
 * formatUsd(21557.99) // '$21,557.99'
 * formatUsd(1_234_567, { isCompact: true }) // '$1.2M'
 * formatUsd(null) // '—'
 */
export function formatUsd(
  value: number | null,
  options: { isCompact?: boolean; locale?: string } = {},
): string {
  if (value === null) return UNPRICED_TEXT
  const locale = options.locale ?? DISPLAY_LOCALE
  return options.isCompact && Math.abs(value) >= 10_000
    ? moneyFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value)
    : moneyFormat(locale, {}).format(value)
}

/**
 * Who funded a wallet, as the funded-by answer names it: the known entity's name and kind
 * ("Coinbase 2 (exchange)"), else its address.
 *
 * @example
 * funderText({ funder: '2ojv…', funderName: 'Coinbase 2', funderType: 'exchange' }) // 'Coinbase 2 (exchange)'
 */
export function funderText(f: {
  funder: string
  funderName: string | null
  funderType: string | null
}): string {
  if (f.funderName === null) return f.funder
  return f.funderType ? `${f.funderName} (${f.funderType})` : f.funderName
}

/**
 * A total of USD values with how many holdings it leaves out for want of a price, so a
 * total is never read as covering tokens it does not.
 *
 * @example
 * totalUsdText(1234.5, 0) // '$1,234.50'
 * totalUsdText(1234.5, 2) // '$1,234.50 (2 tokens without a price not counted)'
 */
export function totalUsdText(
  valueUsd: number,
  unpricedCount: number,
  options: { isCompact?: boolean; locale?: string } = {},
): string {
  const total = formatUsd(valueUsd, options)
  return unpricedCount === 0
    ? total
    : `${total} (${countText(unpricedCount, 'token')} without a price not counted)`
}

/** The exact USD value for a tooltip: every digit the service sent, grouped. */
export function exactUsd(value: number | null, options: { locale?: string } = {}): string {
  if (value === null) return 'No price is known for this token'
  const text = formatAmountExact(decimalText(value), options)
  return text.startsWith(MINUS) ? `${MINUS}$${text.slice(1)}` : `$${text}`
}

/**
 * A price per token with every digit the service gave (at least cents): a price is never
 * rounded, so the shown amount × the shown price gives the shown value.
 *
 * @example
 * formatPrice(150.2345) // '$150.2345'
 * formatPrice(0.00001234) // '$0.00001234'
 * formatPrice(1) // '$1.00'
 * formatPrice(null) // '—'
 */
export function formatPrice(value: number | null, options: { locale?: string } = {}): string {
  if (value === null) return UNPRICED_TEXT
  const [whole = '0', fraction = ''] = decimalText(Math.abs(value)).split('.')
  const digits = fraction.length < 2 ? fraction.padEnd(2, '0') : fraction
  const text = `${BigInt(whole).toLocaleString(options.locale ?? DISPLAY_LOCALE)}${decimalSeparator(options.locale)}${digits}`
  return value < 0 ? `${MINUS}$${text}` : `$${text}`
}

// ── Counts and plurals ─────────────────────────────────────────────────────────────────

/** A count with grouping: `1,204`. */
export function formatCount(value: number, options: { locale?: string } = {}): string {
  return value.toLocaleString(options.locale ?? DISPLAY_LOCALE)
}

/** A share (0–1) as a percentage: `12.5%`. */
export function formatShare(share: number, options: { locale?: string } = {}): string {
  return new Intl.NumberFormat(options.locale ?? DISPLAY_LOCALE, {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(share)
}

/**
 * The noun for a count: singular for exactly one.
 *
 * @example
 * nounFor(1, 'call') // 'call'
 * nounFor(0, 'entry', 'entries') // 'entries'
 */
export function nounFor(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural
}

/**
 * A count with its noun: `1 credit`, `6 tokens`, `0 assets`, `1,204 balance changes`.
 *
 * @example
 * countText(1, 'credit') // '1 credit'
 * countText(3, 'balance change') // '3 balance changes'
 */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${nounFor(count, singular, plural)}`
}

/** Credits as every page and command says them: "1 credit", "1,500 credits", "price unknown". */
export function creditsText(credits: number | null): string {
  return credits === null ? 'price unknown' : countText(credits, 'credit')
}

// ── Dates ──────────────────────────────────────────────────────────────────────────────

/**
 * The clock dates are shown in: the computer's own time zone, or UTC (the service's and
 * the mirror's clock). Chosen in Settings; one format either way.
 */
export type DisplayTimeZone = 'local' | 'utc'

const pad2 = (n: number): string => String(n).padStart(2, '0')

function partsOf(sec: number, zone: DisplayTimeZone) {
  const d = new Date(sec * 1000)
  return zone === 'utc'
    ? {
        y: d.getUTCFullYear(),
        mo: d.getUTCMonth() + 1,
        d: d.getUTCDate(),
        h: d.getUTCHours(),
        mi: d.getUTCMinutes(),
        s: d.getUTCSeconds(),
      }
    : {
        y: d.getFullYear(),
        mo: d.getMonth() + 1,
        d: d.getDate(),
        h: d.getHours(),
        mi: d.getMinutes(),
        s: d.getSeconds(),
      }
}

/**
 * The date of UTC seconds in the one date format, `YYYY-MM-DD` (the same as the date
 * pickers, and unambiguous in every country).
 *
 * @example
 * formatDate(1_795_000_000, 'utc') // '2026-11-18'
 */
export function formatDate(sec: number, zone: DisplayTimeZone): string {
  const p = partsOf(sec, zone)
  return `${p.y}-${pad2(p.mo)}-${pad2(p.d)}`
}

/**
 * Date and time of UTC seconds in the one format, `YYYY-MM-DD HH:MM` on a 24-hour clock
 * (seconds on request); UTC times end in "UTC" so they are never read as local.
 *
 * @example
 * formatDateTime(1_795_000_000, 'utc') // '2026-11-18 11:06 UTC'
 * formatDateTime(1_795_000_000, 'utc', { withSeconds: true }) // '2026-11-18 11:06:40 UTC'
 */
export function formatDateTime(
  sec: number,
  zone: DisplayTimeZone,
  options: { withSeconds?: boolean } = {},
): string {
  const p = partsOf(sec, zone)
  const time = `${pad2(p.h)}:${pad2(p.mi)}${options.withSeconds ? `:${pad2(p.s)}` : ''}`
  return `${formatDate(sec, zone)} ${time}${zone === 'utc' ? ' UTC' : ''}`
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
]

const relative = new Intl.RelativeTimeFormat(DISPLAY_LOCALE, { numeric: 'auto' })

/**
 * How long ago (or until) UTC seconds are from `nowSec`: "3 minutes ago", "in 2 days", "now".
 *
 * @example
 * formatRelative(1000, 1180) // '3 minutes ago'
 */
export function formatRelative(sec: number, nowSec: number): string {
  const delta = sec - nowSec
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(delta) >= size) return relative.format(Math.round(delta / size), unit)
  }
  return relative.format(0, 'second')
}
