import { WEBHOOK_TRANSACTION_TYPES } from '../api/enums'

// The transaction types a rule or a filter may name: the service's published list (what its
// enhanced transactions and webhooks say), of which the mirror derives SWAP, TRANSFER,
// NFT_SALE and UNKNOWN itself. A type the service sends that is not on the list is kept as
// text; the mirror's own rows then show it is one.

const PUBLISHED = new Set<string>(WEBHOOK_TRANSACTION_TYPES.filter((t) => t !== 'ANY'))

/** The types the mirror tells from balance changes alone: the ones most rules name. */
export const COMMON_TRANSACTION_TYPES = ['SWAP', 'TRANSFER', 'NFT_SALE', 'UNKNOWN'] as const

/** Whether the service's published list names this type. */
export function isPublishedTransactionType(type: string): boolean {
  return PUBLISHED.has(type)
}

/**
 * Why a type is not one (after the flag and the type: "--type “SWAPPY”: …"), with the
 * nearest published type when one is close.
 *
 * @example
 * unknownTypeWords('SWAPPY') // 'not a transaction type; did you mean SWAP? (e.g. SWAP, TRANSFER, NFT_SALE, UNKNOWN)'
 */
export function unknownTypeWords(type: string): string {
  const nearest = nearestType(type)
  const hint = nearest === null ? '' : `; did you mean ${nearest}?`
  return `not a transaction type${hint} (e.g. ${COMMON_TRANSACTION_TYPES.join(', ')})`
}

/** The published type fewest edits away, when it is at most two edits away. */
function nearestType(type: string): string | null {
  let best: { type: string; distance: number } | null = null
  for (const candidate of PUBLISHED) {
    if (Math.abs(candidate.length - type.length) > 2) continue
    const distance = editDistance(type, candidate)
    if (distance <= 2 && (best === null || distance < best.distance))
      best = { type: candidate, distance }
  }
  return best?.type ?? null
}

/** Levenshtein distance: inserts, deletes and replacements. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      )
    }
    previous = row
  }
  return previous[b.length] ?? 0
}
