/**
 * Exact decimal text for amounts. The service sends decimal-adjusted amounts as JSON
 * numbers; their shortest round-trip text is exactly what was sent whenever it fit a
 * double, so that text (never a re-formatted float) is what the mirror keeps and exports.
 */

/**
 * The plain decimal text of a number, never in exponent notation.
 *
 * @example
 * decimalText(1e-7)   // '0.0000001'
 * decimalText(-2.5e21) // '-2500000000000000000000'
 */
export function decimalText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`)
  const text = String(value)
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text === '-0' ? '0' : text
  const [, sign, whole, fraction = '', exp] = match
  const digits = `${whole}${fraction}`
  const point = (whole as string).length + Number(exp)
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? `${digits}${'0'.repeat(point - digits.length)}`
        : `${digits.slice(0, point)}.${digits.slice(point)}`
  return `${sign}${plain}`
}

/**
 * The integer amount in smallest units for a decimal text and the mint's decimals, or
 * null when the text has more fractional digits than the mint allows (then it is not an
 * exact amount of that mint and no raw value is claimed).
 *
 * @example
 * rawFromDecimalText('-1.5', 9) // '-1500000000'
 * rawFromDecimalText('0.0000000001', 9) // null
 */
export function rawFromDecimalText(text: string, decimals: number): string | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) return null
  const [, sign, whole, fraction = ''] = match
  if (fraction.length > decimals) return null
  const digits = `${whole}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '')
  return digits === '0' ? '0' : `${sign}${digits}`
}

/**
 * The decimal text of a raw integer amount with `decimals` places, exact for any size.
 *
 * @example
 * decimalFromRaw('9007199254740993', 9) // '9007199.254740993'
 */
export function decimalFromRaw(raw: string, decimals: number): string {
  // Scans by character code, not regular expressions: exports call this once per row.
  const negative = raw.startsWith('-')
  let start = negative ? 1 : 0
  while (start < raw.length - 1 && raw.charCodeAt(start) === ZERO) start++
  const digits = raw.slice(start)
  if (decimals === 0) return `${negative && digits !== '0' ? '-' : ''}${digits}`
  const padded = digits.padStart(decimals + 1, '0')
  const point = padded.length - decimals
  let end = padded.length
  while (end > point && padded.charCodeAt(end - 1) === ZERO) end--
  const whole = padded.slice(0, point)
  const body = end === point ? whole : `${whole}.${padded.slice(point, end)}`
  return negative && body !== '0' ? `-${body}` : body
}

const ZERO = 48
