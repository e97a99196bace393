import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A loopback HTTP proxy in front of the simulator that lets a test act while watching's
// balance look is in flight: just before the look reaches the service, and just after its
// answer left the service but before the app reads it. Transactions injected then land
// during the look, or between the look and the sync it causes: what a real chain does
// while the app waits on the network.

/** What runs around the next balance look (one getMultipleAccounts call). */
export interface LookHooks {
  /** Runs before the look is sent on: what it injects, the look sees. */
  before?: () => void | Promise<void>
  /** Runs once the service answered, before the app has the answer: the look misses it. */
  after?: () => void | Promise<void>
}

export interface LookProxy {
  url: string
  /** Arms hooks for the next balance look; they run once. */
  onNextLook(hooks: LookHooks): void
  /** Whether hooks are armed and not yet run. */
  readonly isArmed: boolean
  close(): Promise<void>
}

/** Starts the proxy on an ephemeral loopback port, forwarding everything to `target`. */
export async function startLookProxy(target: string): Promise<LookProxy> {
  const upstream = new URL(target)
  let armed: LookHooks | null = null
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => void forward(req, Buffer.concat(chunks), res))
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  async function forward(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const hooks = armed !== null && isBalanceLook(body) ? armed : null
    if (hooks) armed = null
    try {
      await hooks?.before?.()
      const answer = await send(req, body)
      await hooks?.after?.()
      res.writeHead(answer.status, answer.headers)
      res.end(answer.body)
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }))
    }
  }

  function send(
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    return new Promise((done, fail) => {
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const parts: Buffer[] = []
          answer.on('data', (c: Buffer) => parts.push(c))
          answer.on('end', () =>
            done({
              status: answer.statusCode ?? 502,
              headers: Object.fromEntries(
                Object.entries(answer.headers).flatMap(([k, v]) =>
                  typeof v === 'string' && k !== 'transfer-encoding' && k !== 'connection'
                    ? [[k, v]]
                    : [],
                ),
              ),
              body: Buffer.concat(parts),
            }),
          )
          answer.on('error', fail)
        },
      )
      out.on('error', fail)
      out.end(body)
    })
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    onNextLook(hooks) {
      armed = hooks
    },
    get isArmed() {
      return armed !== null
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((done) => server.close(() => done()))
    },
  }
}

/** Whether a JSON-RPC body is (or holds) a getMultipleAccounts call: watching's balance look. */
function isBalanceLook(body: Buffer): boolean {
  if (body.length === 0) return false
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    return calls.some((c) => (c as { method?: unknown }).method === 'getMultipleAccounts')
  } catch {
    return false
  }
}
