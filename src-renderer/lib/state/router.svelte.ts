/** The wallet page's tabs. */
export const WALLET_TABS = ['overview', 'history', 'transfers', 'compressed'] as const
export type WalletTab = (typeof WALLET_TABS)[number]

import type { LookupRequestInput } from '@shared/ipc/lookup-schemas'

/** The page the main area shows. Hash-based, so reloads keep the page in both shells. */
export type Route =
  | { page: 'watchlist' }
  | { page: 'wallet'; address: string; tab: WalletTab }
  | { page: 'activity' }
  /** Every watched wallet's transactions, newest first. */
  | { page: 'feed' }
  | { page: 'export' }
  | { page: 'webhooks' }
  | { page: 'alerts' }
  | { page: 'settings' }
  /** The look-up desk; `request` is what to look up (null: the page's forms only). */
  | { page: 'lookup'; request: LookupRequestInput | null }

const LAST_ROUTE_KEY = 'heliograph:last-route'

/** A look-up in the hash: its request as URL-encoded JSON (ids, a base64 transaction). */
function parseLookup(rest: string): Route {
  if (!rest) return { page: 'lookup', request: null }
  try {
    return { page: 'lookup', request: JSON.parse(decodeURIComponent(rest)) as LookupRequestInput }
  } catch {
    return { page: 'lookup', request: null }
  }
}

function parse(hash: string): Route {
  const lookup = /^#?\/?lookup(?:\/(.*))?$/.exec(hash)
  if (lookup) return parseLookup(lookup[1] ?? '')
  const [page, address, tab] = hash.replace(/^#\/?/, '').split('/')
  if (page === 'wallet' && address) {
    const known = WALLET_TABS.find((t) => t === tab)
    return { page: 'wallet', address, tab: known ?? 'overview' }
  }
  if (page === 'activity') return { page: 'activity' }
  if (page === 'feed') return { page: 'feed' }
  if (page === 'export') return { page: 'export' }
  if (page === 'webhooks') return { page: 'webhooks' }
  if (page === 'alerts') return { page: 'alerts' }
  if (page === 'settings') return { page: 'settings' }
  return { page: 'watchlist' }
}

/** The hash of a route. */
export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'wallet':
      return `#/wallet/${route.address}/${route.tab}`
    case 'activity':
      return '#/activity'
    case 'feed':
      return '#/feed'
    case 'export':
      return '#/export'
    case 'webhooks':
      return '#/webhooks'
    case 'alerts':
      return '#/alerts'
    case 'settings':
      return '#/settings'
    case 'lookup':
      return route.request
        ? `#/lookup/${encodeURIComponent(JSON.stringify(route.request))}`
        : '#/lookup'
    default:
      return '#/watchlist'
  }
}

function initialHash(): string {
  // The last page is remembered so that the app opens where the person left it.
  if (location.hash.length > 2) return location.hash
  const remembered = localStorage.getItem(LAST_ROUTE_KEY)
  if (remembered) history.replaceState(null, '', location.pathname + location.search + remembered)
  return remembered ?? ''
}

export const router = $state<{ route: Route }>({ route: parse(initialHash()) })

window.addEventListener('hashchange', () => {
  router.route = parse(location.hash)
  localStorage.setItem(LAST_ROUTE_KEY, hrefOf(router.route))
})

/** Navigates to a route. */
export function go(route: Route): void {
  location.hash = hrefOf(route)
}
