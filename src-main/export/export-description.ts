import { shortAddress } from '@shared/domain/wallet-address'
import { countText } from '@shared/domain/display-text'
import { EXPORT_ROW_NOUNS, type ExportKind } from '@shared/ipc/export-schemas'
import type { ExportRowFilters } from '../db/queries/export-queries'

// What an export holds, said in words before it is written (and after, with the count read),
// and the wallet part of its file name: both from the same resolved filters as the rows.

/** Names the description uses: wallet labels and mint symbols, null where unknown. */
export interface ExportNames {
  walletLabel(address: string): string | null
  mintSymbol(mint: string): string | null
}

const DAY_SEC = 86_400
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** A bound on a UTC day's edge reads as that day; anything else as a UTC date-time. */
function dateText(sec: number, edge: 'from' | 'to', withYear: boolean): string {
  const isDayEdge = edge === 'from' ? sec % DAY_SEC === 0 : (sec + 1) % DAY_SEC === 0
  const d = new Date(sec * 1000)
  if (!isDayEdge) return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const day = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`
  return withYear ? `${day} ${d.getUTCFullYear()}` : day
}

function datesText(kind: ExportKind, f: ExportRowFilters): string {
  if (kind === 'balances' || kind === 'balances-at') {
    return f.toSec === null ? 'latest snapshot' : `as of ${dateText(f.toSec, 'to', true)}`
  }
  if (f.fromSec !== null && f.toSec !== null) {
    const sameYear =
      new Date(f.fromSec * 1000).getUTCFullYear() === new Date(f.toSec * 1000).getUTCFullYear()
    return `${dateText(f.fromSec, 'from', !sameYear)} – ${dateText(f.toSec, 'to', true)}`
  }
  if (f.fromSec !== null) return `from ${dateText(f.fromSec, 'from', true)}`
  if (f.toSec !== null) return `until ${dateText(f.toSec, 'to', true)}`
  return 'all dates'
}

function walletsText(f: ExportRowFilters, names: ExportNames): string {
  const shown = f.walletAddresses.map((a) => names.walletLabel(a) ?? shortAddress(a))
  if (shown.length === 0) return 'every watched wallet'
  if (shown.length === 1) return `wallet ${shown[0]}`
  const listed = shown.length <= 3 ? shown : [...shown.slice(0, 2), `${shown.length - 2} more`]
  return `wallets ${listed.join(', ')}`
}

/**
 * What an export of `rows` rows holds, in words.
 *
 * @example
 * describeExport('balance-changes', filters, 17, names)
 * // '17 balance changes of LUMN, incoming, wallet Treasury, 1 Jan – 31 Mar 2025'
 */
export function describeExport(
  kind: ExportKind,
  f: ExportRowFilters,
  rows: number,
  names: ExportNames,
): string {
  const [singular, plural] = EXPORT_ROW_NOUNS[kind]
  let head = countText(rows, singular, plural)
  if (f.mints.length > 0) {
    head += ` of ${f.mints.map((m) => names.mintSymbol(m) ?? shortAddress(m)).join(', ')}`
  }
  const isMovement = kind !== 'balances' && kind !== 'balances-at'
  const parts = [
    head,
    ...(isMovement && f.direction !== null ? [f.direction === 'in' ? 'incoming' : 'outgoing'] : []),
    ...(isMovement && f.isFailedOnly ? ['failed transactions only'] : []),
    ...(isMovement && f.signaturePrefix !== ''
      ? [
          `signature ${f.signaturePrefix.length >= 64 ? shortAddress(f.signaturePrefix, 6) : `${f.signaturePrefix}…`}`,
        ]
      : []),
    walletsText(f, names),
    datesText(kind, f),
  ]
  return parts.join(', ')
}

/** The wallets part of an export's file name: a label or short address, or how many. */
export function walletsForFileName(f: ExportRowFilters, names: ExportNames): string {
  const [only] = f.walletAddresses
  if (f.walletAddresses.length === 1 && only !== undefined) {
    return names.walletLabel(only) ?? `${only.slice(0, 4)}-${only.slice(-4)}`
  }
  return f.walletAddresses.length === 0 ? 'all wallets' : `${f.walletAddresses.length} wallets`
}
