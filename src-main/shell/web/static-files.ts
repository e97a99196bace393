import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { decodedPathPart } from './request-parts'

// Browsers refuse module scripts served with the wrong type, so every built asset needs one.
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

/**
 * Serves a file of the built renderer, or the app's index.html for unknown paths (the
 * renderer routes itself). Paths that climb out of the folder are refused.
 */
export async function serveRendererFile(
  rendererDir: string,
  urlPath: string,
  response: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const decoded = decodedPathPart(urlPath)
  if (decoded === null) {
    response.writeHead(400).end('Bad path')
    return
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '')
  let file = join(rendererDir, relative)
  if (!file.startsWith(rendererDir + sep) && file !== rendererDir) {
    response.writeHead(400).end('Bad path')
    return
  }
  const info = await stat(file).catch(() => null)
  if (info === null || !info.isFile()) file = join(rendererDir, 'index.html')
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream'
  const exists = await stat(file).catch(() => null)
  if (exists === null) {
    response.writeHead(500, { 'content-type': 'text/plain' })
    response.end('The renderer is not built: run `npm run build`.')
    return
  }
  response.writeHead(200, { ...headers, 'content-type': type, 'cache-control': 'no-cache' })
  createReadStream(file).pipe(response)
}
