import { isLoopbackHost } from '@shared/domain/service-url'

/**
 * The renderer's dev server URL that electron-vite passes while developing, or undefined.
 * A packaged app always loads its own renderer: an environment variable must not swap
 * the page that holds the IPC bridge for another. Even while developing, only a server
 * on this computer is loaded.
 */
export function devServerUrlToLoad(
  env: Record<string, string | undefined>,
  isPackaged: boolean,
): string | undefined {
  const url = env.ELECTRON_RENDERER_URL
  if (isPackaged || url === undefined) return undefined
  try {
    const { protocol, hostname } = new URL(url)
    const isLocal = (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(hostname)
    return isLocal ? url : undefined
  } catch {
    return undefined
  }
}
