import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One POST the receiver got. */
export interface ReceivedPost {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** What the receiver answers one POST with; `'hang'` never answers it (a stuck receiver). */
export type ReceiverAnswer =
  | {
      status: number
      headers?: Record<string, string>
      body?: string
    }
  | 'hang'

/**
 * An alert channel's receiver on loopback (a real `node:http` server): records every POST
 * and answers from `answers` in order, then with `then` (200 unless told).
 */
export interface AlertReceiver {
  url: string
  received: ReceivedPost[]
  answers: ReceiverAnswer[]
  close(): Promise<void>
}

export async function startAlertReceiver(
  answers: ReceiverAnswer[] = [],
  then: ReceiverAnswer = { status: 200 },
): Promise<AlertReceiver> {
  const receiver: AlertReceiver = {
    url: '',
    received: [],
    answers,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      receiver.received.push({ path: req.url ?? '', headers: req.headers, body })
      const answer = receiver.answers.shift() ?? then
      if (answer === 'hang') return
      res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '')
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/s3cretPathToken`
  return receiver
}
