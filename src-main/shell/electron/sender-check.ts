import { originOf } from './app-origin'

/**
 * Tells whether an IPC message comes from the app's own page: the sending frame's URL
 * must be at one of the allowed origins (the app scheme, or the dev server while
 * developing). Anything else — an iframe, a page that navigated away — is refused.
 *
 * @example
 * isTrustedSender('app://heliograph/index.html', ['app://heliograph']) // true
 * isTrustedSender('https://evil.example/', ['app://heliograph'])        // false
 */
export function isTrustedSender(
  senderFrameUrl: string | undefined | null,
  allowedOrigins: readonly string[],
): boolean {
  if (!senderFrameUrl) return false
  const origin = originOf(senderFrameUrl)
  return origin !== null && origin !== 'file://' && allowedOrigins.includes(origin)
}
