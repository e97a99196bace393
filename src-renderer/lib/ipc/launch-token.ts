// The web shell's launch token, kept in this tab only. It arrives once in the printed
// URL's `?token=`; the page moves it to sessionStorage (this tab, this origin: it survives
// reloads, is never sent with a request and no other page or port can read it) and takes
// it out of the address bar, history and screenshots.

const STORAGE_KEY = 'heliograph.launch-token'

/**
 * The launch token of this tab, or null when the page was opened without one.
 *
 * @example
 * new WebSocket(url, socketProtocols(launchToken() ?? ''))
 */
export function launchToken(): string | null {
  const params = new URLSearchParams(location.search)
  const fromUrl = params.get('token')
  if (fromUrl) {
    sessionStorage.setItem(STORAGE_KEY, fromUrl)
    params.delete('token')
    const search = params.size > 0 ? `?${params}` : ''
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`)
    return fromUrl
  }
  return sessionStorage.getItem(STORAGE_KEY)
}
