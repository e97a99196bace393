import type { LookupRequest, LookupResult } from '@shared/ipc/lookup-schemas'

/** "7xKX…gAsU": an id shortened for a title. */
function short(id: string): string {
  return id.length <= 12 ? id : `${id.slice(0, 4)}…${id.slice(-4)}`
}

function ids(list: readonly string[]): string {
  const first = list[0] ?? ''
  return list.length === 1 ? short(first) : `${short(first)} and ${list.length - 1} more`
}

/** A short title of a cached look-up, e.g. "Wallet 7xKX…gAsU (Binance)". */
export function lookupTitle(request: LookupRequest, result: LookupResult): string {
  switch (request.view) {
    case 'wallet': {
      const name = result.view === 'wallet' ? result.identity?.name.trim() : ''
      return `Wallet ${short(request.address)}${name ? ` (${name})` : ''}`
    }
    case 'asset': {
      const name = result.view === 'asset' ? result.assets[0]?.content.metadata?.name : undefined
      return request.ids.length === 1 && name ? `Asset ${name}` : `Asset ${ids(request.ids)}`
    }
    case 'assets-by-owner':
      return `Assets of ${short(request.owner)}, page ${request.page}`
    case 'assets-by-authority':
      return `Assets by authority ${short(request.authority)}, page ${request.page}`
    case 'token-accounts':
      return request.owner !== undefined
        ? `Token accounts of ${short(request.owner)}, page ${request.page}`
        : `Token accounts of mint ${short(request.mint ?? '')}, page ${request.page}`
    case 'compressed-account':
      return `Compressed account ${ids(request.hashes ?? request.addresses ?? [])}`
    case 'compressed-owner':
      return `Compressed state of ${short(request.owner)}`
    case 'compressed-tx':
      return `Transaction ${short(request.signature)}`
    case 'compressed-proof':
      return `Validity proof for ${ids(request.hashes)}`
    case 'priority-fee':
      return request.accounts !== undefined
        ? `Priority fee for ${ids(request.accounts)}`
        : 'Priority fee for a transaction'
    case 'token-metadata':
      return `Token metadata of ${ids(request.mints)}`
  }
}
