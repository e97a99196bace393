import { request } from 'node:http'
import WebSocket from 'ws'

/** An HTTP answer as received. */
export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * One HTTP request to a loopback port with exactly the headers given (fetch would add or
 * forbid some: Origin, Cookie, Host).
 */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Opens a WebSocket; resolves the socket, or the HTTP status of a refused handshake. */
export function openSocket(
  port: number,
  path: string,
  headers: Record<string, string>,
  protocols: string[] = [],
): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, protocols, { headers })
    ws.on('open', () => resolve(ws))
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
    ws.on('error', () => resolve(-1))
  })
}
