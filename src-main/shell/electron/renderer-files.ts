import { isAbsolute, relative, resolve } from 'node:path'

/**
 * The file of the built renderer an `app://` URL path names, or null when the path is
 * not a file inside the renderer folder. Compared as a relative path, not as a string
 * prefix: `/out/renderer-evil` starts with `/out/renderer` but is another folder.
 *
 * @example
 * rendererFilePath('/app/out/renderer', '/assets/a.js')          // '/app/out/renderer/assets/a.js'
 * rendererFilePath('/app/out/renderer', '/..%2Frenderer-x/a.js') // null
 */
export function rendererFilePath(rendererDir: string, urlPathname: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPathname)
  } catch {
    return null // a malformed %-escape names no file
  }
  if (decoded.includes('\0')) return null
  const root = resolve(rendererDir)
  const path = resolve(root, `.${decoded}`)
  const inside = relative(root, path)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null
  return path
}
