import type { LookupCacheEntry, Recognised } from '@shared/ipc/lookup-schemas'
import type { SearchHit } from '@shared/ipc/search-schemas'
import { client } from './connection.svelte'
import { go } from './router.svelte'

/** The look-up desk's shared state: what the header search recognised, the recent look-ups. */
export const lookupDesk = $state<{
  recognised: Recognised | null
  recent: LookupCacheEntry[]
  searchError: string | null
}>({ recognised: null, recent: [], searchError: null })

/**
 * Recognises a pasted text (free, offline) and opens the Look up page on what it is; an
 * ambiguous text opens the best guess and the page offers the other candidates.
 */
export async function searchPasted(text: string): Promise<void> {
  if (text.trim() === '') return
  try {
    const recognised = await client.call('lookup:recognise', { text })
    lookupDesk.recognised = recognised
    lookupDesk.searchError = null
    go({ page: 'lookup', request: recognised.request })
  } catch (e) {
    lookupDesk.searchError = e instanceof Error ? e.message : String(e)
  }
}

/** Reloads the recent look-ups, newest first. */
export async function loadRecentLookups(): Promise<void> {
  lookupDesk.recent = await client.call('lookup:recent')
}

/** What the mirror knows matching a typed text (free, offline), best first. */
export async function searchMirror(text: string): Promise<SearchHit[]> {
  if (text.trim() === '') return []
  return (await client.call('lookup:search', { text })).hits
}

/** Opens a search hit: a watched wallet's page, else the look-up desk on it. */
export function openSearchHit(hit: SearchHit): void {
  lookupDesk.searchError = null
  if (hit.opens.page === 'wallet')
    go({ page: 'wallet', address: hit.opens.address, tab: 'overview' })
  else go({ page: 'lookup', request: hit.opens.request })
}
