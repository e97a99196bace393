import { originOf } from './app-origin'

/** What to do with a navigation or window-open request from the renderer. */
export type NavigationDecision = 'allow' | 'open-externally' | 'deny'

/**
 * The page may only navigate within the app; http(s) links go to the system browser;
 * every other scheme (file:, javascript:, custom handlers) is dropped.
 */
export function decideNavigation(
  targetUrl: string,
  appOrigins: readonly string[],
): NavigationDecision {
  const origin = originOf(targetUrl)
  if (origin !== null && origin !== 'file://' && appOrigins.includes(origin)) return 'allow'
  return isExternalWebUrl(targetUrl) ? 'open-externally' : 'deny'
}

/** Tells whether a URL is plain http(s), the only kind handed to the system browser. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}
