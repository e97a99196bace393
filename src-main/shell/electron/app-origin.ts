/** Scheme under which the desktop app serves its built renderer (a standard, secure scheme). */
export const APP_SCHEME = 'app'

/** Host part of the app's URLs; together with the scheme, the app's one origin. */
export const APP_HOST = 'heliograph'

/** The origin the renderer runs at in a packaged build. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

/** The URL of the renderer's entry page. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`

/**
 * The origin of a URL, computed the same way for `app://`, `http://` and `file://`
 * (Node's URL reports "null" for non-special schemes, so build it by hand).
 */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    if (parsed.protocol === 'file:') return 'file://'
    return `${parsed.protocol}//${parsed.host}`
  } catch {
    return null
  }
}
