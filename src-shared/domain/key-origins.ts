// Where the API key goes: main refuses to let a settings change carry the key to a new
// host, and Settings asks for the key beside URLs that point somewhere new.

/** The three service URLs, each of which receives the API key. */
export interface ServiceUrls {
  walletRestBaseUrl: string
  v0RestBaseUrl: string
  jsonRpcUrl: string
}

/** The origins the API key is sent to: one per service URL. */
function keyOrigins(urls: ServiceUrls): Set<string> {
  return new Set(
    [urls.walletRestBaseUrl, urls.v0RestBaseUrl, urls.jsonRpcUrl].map((url) => {
      try {
        return new URL(url).origin
      } catch {
        return url
      }
    }),
  )
}

/**
 * Whether the settings now send the key to an origin it did not go to before. Such a change
 * must not take the key along by itself: a settings change (or whoever made it) would
 * otherwise hand the key to any host. A new path, or moving a URL to an origin the key
 * already goes to, is not a new origin.
 */
export function isKeyGoingToNewOrigin(before: ServiceUrls, after: ServiceUrls): boolean {
  const known = keyOrigins(before)
  return [...keyOrigins(after)].some((origin) => !known.has(origin))
}

/**
 * The origin of `url` when the settings' key has never gone there, else null: a one-run
 * service URL on such an origin gets no stored key.
 *
 * @example
 * newKeyOrigin(settings, 'https://rpc.elsewhere.example/') // 'https://rpc.elsewhere.example'
 */
export function newKeyOrigin(urls: ServiceUrls, url: string): string | null {
  const origin = URL.parse(url)?.origin ?? url
  return keyOrigins(urls).has(origin) ? null : origin
}
