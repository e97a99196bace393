import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One delivery the receiver got: its Authorization header and the signatures it carried. */
export interface ReceivedDelivery {
  authorization: string | null
  signatures: string[]
}

/** A webhook receiver on loopback: records every POST and answers with `status`. */
export interface WebhookReceiver {
  url: string
  received: ReceivedDelivery[]
  /** What it answers from now on: 200 accepts, 500 fails the delivery. */
  status: number
  close(): Promise<void>
}

/** Starts a receiver; deliveries carry a JSON array of transactions (raw or enhanced). */
export async function startWebhookReceiver(status = 200): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    status,
    close: () => new Promise((done) => server.close(() => done())),
  }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const events = JSON.parse(body) as {
        signature?: string
        transaction?: { signatures: string[] }
      }[]
      receiver.received.push({
        authorization: req.headers.authorization ?? null,
        signatures: events.map((e) => e.signature ?? e.transaction?.signatures[0] ?? ''),
      })
      res.writeHead(receiver.status).end()
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return receiver
}
