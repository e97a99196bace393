import type { ServerResponse } from 'node:http'
import type { Core } from '../../app/core'
import { IMAGE_ROUTE } from '../../app/image-cache'
import { serveExportDownload } from './export-download-route'
import { serveRendererFile } from './static-files'

/**
 * The app's pages over HTTP, shared by the web shell and the team server once a request
 * is let in: finished exports, cached images, and the built renderer (every other path).
 */
export function serveAppRoute(
  core: Core,
  rendererDir: string,
  method: string,
  url: URL,
  response: ServerResponse,
  pageHeaders: Record<string, string>,
): void {
  if (serveExportDownload(core, method, url.pathname, response)) return
  if (url.pathname.startsWith(IMAGE_ROUTE)) {
    void serveImage(core, url.pathname.slice(IMAGE_ROUTE.length), response)
    return
  }
  void serveRendererFile(rendererDir, url.pathname, response, pageHeaders).catch(() => {
    if (!response.headersSent) response.writeHead(500)
    response.end()
  })
}

/**
 * The page's Content-Security-Policy: its own scripts and styles only, images from the
 * data folder or inline, and the contract's socket at `connectSources`.
 */
export function contentSecurityPolicy(
  connectSources: string[],
  formAction: string = "'none'",
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Svelte sets element styles (widths of progress bars) as attributes.
    "style-src 'self' 'unsafe-inline'",
    // Images come from the data folder (/images/…) or are inline: never from their hosts.
    "img-src 'self' data:",
    `connect-src 'self' ${connectSources.join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action ${formAction}`,
  ].join('; ')
}

/**
 * Headers every page of the app is served with, beside its CSP. The team server's pages
 * send `same-origin`: under `no-referrer` a browser's POST carries `Origin: null`, and
 * the server's CSRF check needs the real one.
 */
export function pageHeaders(
  csp: string,
  referrerPolicy: 'no-referrer' | 'same-origin' = 'no-referrer',
): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': referrerPolicy,
  }
}

/** Answers `/images/<key>` from the core's image cache (404 when there is no image). */
async function serveImage(core: Core, key: string, response: ServerResponse): Promise<void> {
  const image = await core.readImage(key).catch(() => null)
  if (!image) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No such image.')
    return
  }
  response.writeHead(200, {
    'content-type': image.mime,
    'content-length': image.body.length,
    'cache-control': 'private, max-age=86400',
    'x-content-type-options': 'nosniff',
  })
  response.end(image.body)
}
