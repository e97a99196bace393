import { join } from 'node:path'

/**
 * The file of the built renderer an `app://` URL path names, or null when the path
 * leaves the renderer folder.
 */
export function rendererFilePath(rendererDir: string, urlPathname: string): string | null {
  const path = join(rendererDir, decodeURIComponent(urlPathname))
  return path.startsWith(rendererDir) ? path : null
}
