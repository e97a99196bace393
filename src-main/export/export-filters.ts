import type { DateBound, ExportFilters } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { ExportRowFilters } from '../db/queries/export-queries'
import type { MintName } from '../db/stores/mint-store'

// An export request's filters in the mirror's terms: addresses, UTC seconds (both bounds
// inclusive), flags — the same row filters the History view uses.

const DAY_SEC = 86_400
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * UTC seconds of a date bound. A plain `to` date covers its whole UTC day, so
 * `from: '2026-10-01', to: '2026-10-31'` is all of October.
 *
 * @example
 * resolveDateBound('2026-11-01', 'from') // 1793491200
 * resolveDateBound('2026-11-01', 'to')   // 1793577599
 */
export function resolveDateBound(bound: DateBound, edge: 'from' | 'to'): number {
  if (typeof bound === 'number') return bound
  const text = bound.trim()
  if (PLAIN_DATE.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`) / 1000
    return edge === 'from' ? start : start + DAY_SEC - 1
  }
  // A date-time without an offset is read as UTC, never as the machine's local time.
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text)
  const ms = Date.parse(hasZone ? text : `${text.replace(' ', 'T')}Z`)
  if (Number.isNaN(ms)) throw new InvalidInputError(`Not a date: “${bound}”.`)
  return Math.floor(ms / 1000)
}

/** The filters of a parsed request in the mirror's terms; rejects `from` after `to`. */
export function resolveFilters(filters: ExportFilters): ExportRowFilters {
  const fromSec = filters.from === undefined ? null : resolveDateBound(filters.from, 'from')
  const toSec = filters.to === undefined ? null : resolveDateBound(filters.to, 'to')
  if (fromSec !== null && toSec !== null && fromSec > toSec) {
    throw new InvalidInputError('The date range ends before it starts.', { fromSec, toSec })
  }
  return {
    walletAddresses: [...new Set(filters.wallets)],
    fromSec,
    toSec,
    mints: [...new Set(filters.mints)],
    direction: filters.direction ?? null,
    isFailedOnly: filters.failedOnly,
    signaturePrefix: filters.signature,
  }
}

/** Where symbols are looked up: the mirror's mint cache. */
export interface MintLookup {
  withSymbol(symbol: string): Promise<MintName[]>
}

// A mint address is 32–44 base58 characters; anything else given as a mint is a symbol.
const MINT_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * The mint filter with symbols replaced by the one mint each names in the mirror. A
 * symbol that names no mint, or several, is refused: exporting nothing, or a guess, would
 * look like a finished export. The ambiguous case lists the candidates in `details`.
 *
 * @example
 * await resolveMintChoices(['USDC'], mirror.mints) // ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v']
 */
export async function resolveMintChoices(
  choices: readonly string[],
  lookup: MintLookup,
): Promise<string[]> {
  const mints: string[] = []
  for (const choice of choices) {
    if (MINT_ADDRESS.test(choice)) {
      mints.push(choice)
      continue
    }
    const found = await lookup.withSymbol(choice)
    const exact = found.filter((m) => m.symbol === choice)
    const [one] = exact.length === 1 ? exact : found
    if (found.length === 0 || one === undefined) {
      throw new InvalidInputError(
        `No token in this mirror has the symbol “${choice}”; give its mint address instead.`,
        { symbol: choice, candidates: [] },
      )
    }
    if (exact.length !== 1 && found.length > 1) {
      throw new InvalidInputError(
        `“${choice}” is the symbol of ${found.length} mints in this mirror; give the mint address of the one you mean.`,
        { symbol: choice, candidates: found },
      )
    }
    mints.push(one.mint)
  }
  return [...new Set(mints)]
}
