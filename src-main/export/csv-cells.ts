import { decimalFromRaw, decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'

/** First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection"). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r'])

/** Decimal places of SOL; fees are in SOL (lamports = 10^-9 SOL). */
export const SOL_DECIMALS = 9

/**
 * A text cell made safe for spreadsheets: a leading `=`, `+`, `-`, `@`, tab or carriage
 * return gets an apostrophe in front, which spreadsheets show as text and never evaluate
 * (OWASP). Only for text (labels, symbols, names); numeric cells stay as they are.
 *
 * @example
 * textCell('=HYPERLINK("x")') // "'=HYPERLINK(\"x\")"
 * textCell('Savings')         // 'Savings'
 */
export function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return ''
  return FORMULA_START.has(value.charAt(0)) ? `'${value}` : value
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/

/**
 * The exact decimal text of an amount: from the raw integer and decimals when the mirror
 * has them (exact at any size), else the stored decimal text (already exact, never a
 * re-formatted float).
 *
 * @example
 * exactAmount('9007199254740993', 9, '9007199.254740993') // '9007199.254740993'
 * exactAmount(null, 9, '0.1')                            // '0.1'
 */
export function exactAmount(raw: string | null, decimals: number, text: string): string {
  if (raw !== null && /^-?\d+$/.test(raw)) return decimalFromRaw(raw, decimals)
  if (PLAIN_DECIMAL.test(text)) return text
  // Text from an older writer in exponent form: rewrite it without exponent (lossless).
  return decimalText(Number(text))
}

/** A decimal text as a scaled integer: `{ units: 15n, scale: 1 }` for '1.5'. */
function scaled(text: string): { units: bigint; scale: number } {
  const fraction = text.split('.')[1] ?? ''
  const raw = rawFromDecimalText(text, fraction.length)
  if (raw === null) throw new RangeError(`Not a decimal amount: ${text}`)
  return { units: BigInt(raw), scale: fraction.length }
}

/**
 * The exact sum of two decimal texts, in plain decimal text.
 *
 * @example
 * addDecimals('-1.000005', '0.000005') // '-1'
 * addDecimals('0.1', '0.2')            // '0.3'
 */
export function addDecimals(a: string, b: string): string {
  const x = scaled(a)
  const y = scaled(b)
  const scale = Math.max(x.scale, y.scale)
  const sum = x.units * 10n ** BigInt(scale - x.scale) + y.units * 10n ** BigInt(scale - y.scale)
  return decimalFromRaw(sum.toString(), scale)
}

/** A decimal text without its sign. */
export function absDecimal(text: string): string {
  return text.startsWith('-') ? text.slice(1) : text
}

/** A decimal text with its sign flipped ('0' stays '0'). */
export function negateDecimal(text: string): string {
  if (text.startsWith('-')) return text.slice(1)
  return /^0(?:\.0*)?$/.test(text) ? text : `-${text}`
}

/** The sign of a decimal text: -1, 0 or 1. */
export function signOfDecimal(text: string): -1 | 0 | 1 {
  if (/^-?0(?:\.0*)?$/.test(text)) return 0
  return text.startsWith('-') ? -1 : 1
}

/** Exact SOL text of a fee stored as decimal text (normalised through lamports when it fits). */
export function feeSolText(feeText: string): string {
  const lamports = rawFromDecimalText(feeText, SOL_DECIMALS)
  return lamports === null
    ? exactAmount(null, SOL_DECIMALS, feeText)
    : decimalFromRaw(lamports, SOL_DECIMALS)
}

/**
 * ISO 8601 UTC time of a block time, to the second; '' when the service did not know it.
 *
 * @example
 * isoUtc(1793491200) // '2026-11-01T00:00:00Z'
 */
export function isoUtc(sec: number | null): string {
  if (sec === null) return ''
  // One Date per UTC day, arithmetic for the time of day: a Date per row cost a tenth of
  // the export's time in the million-row bench.
  const daySec = sec - (((sec % DAY_SEC) + DAY_SEC) % DAY_SEC)
  if (daySec !== cachedDaySec) {
    cachedDaySec = daySec
    cachedDay = new Date(daySec * 1000).toISOString().slice(0, 11)
  }
  const t = sec - daySec
  return `${cachedDay}${two(Math.floor(t / 3600))}:${two(Math.floor(t / 60) % 60)}:${two(t % 60)}Z`
}

const DAY_SEC = 86_400
let cachedDaySec = Number.NaN
let cachedDay = ''
const two = (n: number): string => (n < 10 ? `0${n}` : String(n))

/** Koinly's date form, `YYYY-MM-DD HH:mm:ss UTC`. */
export function koinlyTime(sec: number | null): string {
  if (sec === null) return ''
  const iso = new Date(sec * 1000).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`
}

/** CoinTracker's date form, `MM/DD/YYYY HH:MM:SS` in UTC. */
export function coinTrackerTime(sec: number | null): string {
  if (sec === null) return ''
  const iso = new Date(sec * 1000).toISOString()
  return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`
}
