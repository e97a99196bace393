import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A small real HTTP server on 127.0.0.1 that answers with recorded bodies, so client tests
// run over real sockets (no fetch mocks) and can see exactly what the client sent.

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: string
  json: unknown
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; text: string }
  /** Full control of the socket: truncated bodies, hangs. */
  | { raw: (res: ServerResponse, req: IncomingMessage) => void }

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>

export interface RecordedServer {
  url: string
  requests: RecordedRequest[]
  setHandler(handler: Handler): void
  close(): Promise<void>
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startRecordedServer(initial: Handler): Promise<RecordedServer> {
  let handler = initial
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      let json: unknown
      try {
        json = body === '' ? undefined : JSON.parse(body)
      } catch {
        json = undefined
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
      }
      requests.push(recorded)
      void Promise.resolve()
        .then(() => handler(recorded))
        .catch(
          (error: unknown) =>
            ({ status: 599, text: `test handler failed: ${String(error)}` }) as Reply,
        )
        .then((reply) => {
          if ('raw' in reply) return reply.raw(res, req)
          const text = 'json' in reply ? JSON.stringify(reply.json) : reply.text
          res.writeHead(reply.status ?? 200, {
            'content-type': 'json' in reply ? 'application/json' : 'text/plain',
            ...reply.headers,
          })
          res.end(text)
        })
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next) {
      handler = next
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A port that was just open and is now closed: connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
