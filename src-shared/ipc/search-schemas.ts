import { z } from 'zod'
import { WalletAddress } from '../api/base58'
import { LookupRequest } from './lookup-schemas'

// The header search (issue 29): what the mirror already knows, found as the person types,
// for free and offline. Pasting a whole id still goes through `lookup:recognise`.

/** Characters a search may hold: longer than any name, address or signature. */
export const MAX_SEARCH_LENGTH = 120

/** Results a search returns at most. */
export const MAX_SEARCH_HITS = 20

export const MirrorSearchInput = z.object({
  text: z.string().max(MAX_SEARCH_LENGTH, `a search holds at most ${MAX_SEARCH_LENGTH} characters`),
})

/**
 * What a hit is: a watched wallet, another address the mirror knows (a counterparty or a
 * named address), a token (mint) or a transaction of a watched wallet's history.
 */
export const SearchHitKind = z.enum(['wallet', 'address', 'token', 'transaction'])
export type SearchHitKind = z.infer<typeof SearchHitKind>

/** Which of the mirror's facts the text matched. */
export const SearchField = z.enum([
  /** The person's label of a watched wallet. */
  'label',
  /** The name the service gave an address (identity). */
  'name',
  /** A domain such as `alice.sol` the service listed for an address. */
  'domain',
  'symbol',
  'token-name',
  /** The start of an address or mint (case-sensitive, 4 characters or more). */
  'address',
  /** The start of a transaction signature (case-sensitive, 4 characters or more). */
  'signature',
])
export type SearchField = z.infer<typeof SearchField>

/** How well: the whole text, its start, or anywhere within. Ranked in this order. */
export const SearchMatch = z.enum(['exact', 'prefix', 'substring'])
export type SearchMatch = z.infer<typeof SearchMatch>

/** Where choosing a hit goes: a watched wallet's page, else the look-up desk. */
export const SearchTarget = z.discriminatedUnion('page', [
  z.object({ page: z.literal('wallet'), address: WalletAddress }),
  z.object({ page: z.literal('lookup'), request: LookupRequest }),
])
export type SearchTarget = z.infer<typeof SearchTarget>

/** One result of `lookup:search`. */
export const SearchHit = z.object({
  kind: SearchHitKind,
  /** The address, mint or signature. */
  id: z.string(),
  /** What the mirror calls it (label, name, "USDC · USD Coin"), or null when nothing. */
  name: z.string().nullable(),
  field: SearchField,
  /** The text that matched, e.g. the label or the domain. */
  matched: z.string(),
  match: SearchMatch,
  opens: SearchTarget,
})
export type SearchHit = z.infer<typeof SearchHit>

/** `lookup:search`: hits ranked best first (exact, prefix, substring; watched wallets first). */
export const MirrorSearchResult = z.object({
  /** The text searched, trimmed. */
  text: z.string(),
  hits: z.array(SearchHit).max(MAX_SEARCH_HITS),
})
export type MirrorSearchResult = z.infer<typeof MirrorSearchResult>
