import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import type { Core } from '../../app/core'
import { decodedPathPart } from './request-parts'

/** Path prefix of finished exports (see exportDownloadPath in the contract's schemas). */
export const EXPORT_DOWNLOAD_PREFIX = '/export/'

/** A file name safe inside a quoted Content-Disposition value, with the UTF-8 form beside it. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * Serves a finished export once, as an attachment, then removes its file; an unknown or
 * already fetched id is a 404. The caller has already checked host, Origin and token.
 * Returns false when the path is not an export download.
 */
export function serveExportDownload(
  core: Core,
  method: string | undefined,
  pathname: string,
  response: ServerResponse,
): boolean {
  if (!pathname.startsWith(EXPORT_DOWNLOAD_PREFIX)) return false
  // Only a GET spends the one-time download; a HEAD probe must not.
  if (method !== 'GET') {
    response.writeHead(405, { allow: 'GET' }).end()
    return true
  }
  const id = decodedPathPart(pathname.slice(EXPORT_DOWNLOAD_PREFIX.length))
  if (id === null) {
    response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
    response.end('Bad request: the export id is not valid percent-encoding.')
    return true
  }
  const download = core.takeExportDownload(id)
  if (download === null) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    response.end('This export is not available (it was downloaded already or has expired).')
    return true
  }
  const remove = (): void => void rm(download.path, { force: true })
  const stream = createReadStream(download.path)
  stream.once('error', () => {
    if (!response.headersSent) response.writeHead(410)
    response.end()
    remove()
  })
  stream.once('open', () => {
    response.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': contentDisposition(download.fileName),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    stream.pipe(response)
  })
  response.once('close', remove)
  return true
}
