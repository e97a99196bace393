import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATION_NAMES } from '@shared/api/operations'
import { createServiceClient } from '../../../src-main/service/service-client'
import type { ServiceClient } from '../../../src-main/service/service-client'
import { ServiceError } from '../../../src-main/service/service-errors'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { closedPortUrl, startRecordedServer } from '../../helpers/recorded-server'
import type { Handler, RecordedServer } from '../../helpers/recorded-server'
import * as s from '../../unit/api/interface-samples'
import { VALID_INPUTS, recordedHandler } from './recorded-answers'

// Secrets never appear in logs, errors or IPC payloads (ARCHITECTURE, Data rules). A hostile
// service even echoes the key back in every error body; nothing the client produces may
// contain it.

const KEY = 'SECRET-KEY-4f2a9c1e7b'
let server: RecordedServer

beforeAll(async () => {
  server = await startRecordedServer(recordedHandler())
})
afterAll(async () => {
  await server.close()
})

const echo = (req: { path: string; query: URLSearchParams; headers: Record<string, unknown> }) =>
  `you sent ${req.path}?${req.query.toString()} with key ${String(req.headers['x-api-key'] ?? req.query.get('api-key'))}`

const rpcErr =
  (code: number): Handler =>
  (req) => ({
    json: {
      jsonrpc: '2.0',
      id: (req.json as { id?: string } | undefined)?.id ?? 'rest',
      error: { code, message: echo(req) },
    },
  })

const hostile: [string, Handler][] = [
  ['401 echoing the key', (req) => ({ status: 401, json: { error: echo(req) } })],
  ['403', (req) => ({ status: 403, json: { message: echo(req) } })],
  ['404', (req) => ({ status: 404, text: echo(req) })],
  [
    '429',
    (req) => ({
      status: 429,
      headers: { 'retry-after': '1' },
      json: { error: { message: echo(req) } },
    }),
  ],
  ['500 plain text', (req) => ({ status: 500, text: echo(req) })],
  ['400', (req) => ({ status: 400, json: { error: echo(req) } })],
  ['not JSON', (req) => ({ text: `<html>${echo(req)}</html>` })],
  ['truncated', (req) => ({ text: `{"error": "${echo(req)}` })],
  ['schema drift', () => ({ json: { data: [{ signature: KEY }], pagination: { hasMore: KEY } } })],
  ['rpc -32001', rpcErr(-32001)],
  ['rpc -32005', rpcErr(-32005)],
  ['rpc -32029', rpcErr(-32029)],
  ['rpc -32429', rpcErr(-32429)],
  ['rpc -32602', rpcErr(-32602)],
  ['rpc -32003', rpcErr(-32003)],
  ['rpc wrong id', () => ({ json: { jsonrpc: '2.0', id: KEY, result: null } })],
  ['hang (timeout)', () => ({ raw: () => undefined })],
]

describe('the API key never leaks', () => {
  it('is absent from every error, log line, report and console output on every failure path', async () => {
    const captured: string[] = []
    const restore: (() => void)[] = []
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[method]
      console[method] = (...args: unknown[]) =>
        captured.push(args.map((a) => inspect(a, { depth: 10 })).join(' '))
      restore.push(() => (console[method] = original))
    }
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream)
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        captured.push(String(chunk))
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest)
      }) as typeof stream.write
      restore.push(() => (stream.write = original))
    }
    const errors: unknown[] = []
    try {
      const make = (url: string) =>
        createServiceClient(singleOriginServiceSettings(url, KEY, { timeoutMs: 300 }), {
          onCall: (report) => captured.push(JSON.stringify(report)),
          log: (line) => {
            captured.push(line)
            console.log(line)
          },
        })
      const client = make(server.url)
      const calls: ((c: ServiceClient) => Promise<unknown>)[] = [
        (c) => c.wallet.history({ wallet: s.WALLET }),
        (c) => c.das.getAssetsByOwner({ ownerAddress: s.WALLET }),
        (c) => c.webhooks.toggle({ webhookID: s.WEBHOOK_ID, active: true }),
      ]
      for (const [, handler] of hostile) {
        server.setHandler(handler)
        for (const call of calls) errors.push(await call(client).catch((e: unknown) => e))
      }
      server.setHandler(recordedHandler())
      // Every operation's happy path too (log lines carry URLs with ?api-key=).
      for (const name of OPERATION_NAMES) await client.call(name, VALID_INPUTS[name] as never)
      // Local validation with the key as the bad value, abort, network down, batch failure.
      errors.push(await client.wallet.history({ wallet: KEY }).catch((e: unknown) => e))
      errors.push(await client.wallet.identity({ wallet: KEY }).catch((e: unknown) => e))
      errors.push(
        await client.wallet
          .history({ wallet: s.WALLET }, { signal: AbortSignal.abort(KEY) })
          .catch((e: unknown) => e),
      )
      const down = make(await closedPortUrl())
      for (const call of calls) errors.push(await call(down).catch((e: unknown) => e))
      server.setHandler((req) => ({ status: 503, text: echo(req) }))
      errors.push(
        await client
          .batch([{ operation: 'das.getAssetBatch', input: { ids: [s.ASSET_ID] } }])
          .catch((e: unknown) => e),
      )
    } finally {
      server.setHandler(recordedHandler())
      for (const undo of restore.reverse()) undo()
    }

    expect(errors.length).toBeGreaterThan(50)
    for (const error of errors) {
      expect(error).toBeInstanceOf(ServiceError)
      const e = error as ServiceError
      captured.push(
        e.message,
        e.stack ?? '',
        JSON.stringify(e),
        String(e),
        inspect(e, { depth: 10 }),
      )
    }
    // The hostile server did echo the key, so redaction had real work to do.
    expect(captured.join('\n')).toContain('api-key=***')
    expect(captured.join('\n')).toContain('with key ***')
    const leaks = captured.filter((text) => text.includes(KEY))
    expect(leaks).toEqual([])
  })
})
