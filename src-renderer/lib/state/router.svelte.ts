/** The page the main area shows. Hash-based, so reloads keep the page in both shells. */
export type Route = { page: 'watchlist' } | { page: 'wallet'; address: string }

function parse(hash: string): Route {
  const [page, address] = hash.replace(/^#\/?/, '').split('/')
  if (page === 'wallet' && address) return { page: 'wallet', address }
  return { page: 'watchlist' }
}

export const router = $state<{ route: Route }>({ route: parse(location.hash) })

window.addEventListener('hashchange', () => {
  router.route = parse(location.hash)
})

/** Navigates to a route. */
export function go(route: Route): void {
  location.hash = route.page === 'wallet' ? `#/wallet/${route.address}` : '#/watchlist'
}
