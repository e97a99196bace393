import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, parseRetryAfterMs } from '../../../src-main/service/service-client'
import type { CallReport } from '../../../src-main/service/service-client'
import {
  AbortedError,
  AuthError,
  BadRequestError,
  InvalidRequestError,
  InvalidResponseError,
  JsonRpcError,
  NetworkError,
  NotFoundError,
  PlanError,
  RateLimitedError,
  ServerError,
  ServiceError,
  TimeoutError,
  serviceErrorFromJSON,
} from '../../../src-main/service/service-errors'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { closedPortUrl, startRecordedServer } from '../../helpers/recorded-server'
import type { Handler, RecordedServer } from '../../helpers/recorded-server'
import * as s from '../../unit/api/interface-samples'
import { recordedHandler } from './recorded-answers'

const KEY = 'errors-key-19bc'
let server: RecordedServer

beforeAll(async () => {
  server = await startRecordedServer(recordedHandler())
})
afterAll(async () => {
  await server.close()
})

async function failure(
  handler: Handler,
  run: (client: ReturnType<typeof createServiceClient>) => Promise<unknown>,
) {
  server.setHandler(handler)
  const reports: CallReport[] = []
  try {
    const client = createServiceClient(
      singleOriginServiceSettings(server.url, KEY, { timeoutMs: 2000 }),
      {
        onCall: (r) => reports.push(r),
      },
    )
    await run(client)
  } catch (error) {
    return { error: error as ServiceError, reports }
  } finally {
    server.setHandler(recordedHandler())
  }
  throw new Error('expected the call to fail')
}

const history = (c: ReturnType<typeof createServiceClient>) =>
  c.wallet.history({ wallet: s.WALLET })
const assets = (c: ReturnType<typeof createServiceClient>) =>
  c.das.getAssetsByOwner({ ownerAddress: s.WALLET })
const rpcError =
  (code: number, message: string): Handler =>
  (req) => ({
    json: { jsonrpc: '2.0', id: (req.json as { id: string }).id, error: { code, message } },
  })

describe('HTTP statuses', () => {
  it.each([
    [401, AuthError, 'AuthError'],
    [403, PlanError, 'PlanError'],
    [404, NotFoundError, 'NotFoundError'],
    [400, BadRequestError, 'BadRequestError'],
    [500, ServerError, 'ServerError'],
    [503, ServerError, 'ServerError'],
  ] as const)('HTTP %i -> %o', async (status, Class, name) => {
    const { error, reports } = await failure(
      () => ({ status, json: { error: 'said the service' } }),
      history,
    )
    expect(error).toBeInstanceOf(Class)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.name).toBe(name)
    expect(error.operation).toBe('wallet.history')
    expect(error.httpStatus).toBe(status)
    expect(error.message).toContain('wallet.history')
    expect(error.message).toContain('said the service')
    expect(reports).toEqual([
      expect.objectContaining({
        status: 'error',
        errorName: name,
        httpStatus: status,
        // Only answered work is billed: refusals and server errors cost nothing.
        credits: 0,
      }),
    ])
  })

  it('HTTP 429 carries Retry-After in seconds and costs no credits', async () => {
    const { error, reports } = await failure(
      () => ({ status: 429, headers: { 'retry-after': '7' }, json: {} }),
      history,
    )
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).retryAfterMs).toBe(7000)
    expect(reports).toEqual([
      expect.objectContaining({ errorName: 'RateLimitedError', credits: 0 }),
    ])
  })

  it('HTTP 429 on the JSON-RPC endpoint, Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 5000).toUTCString()
    const { error } = await failure(
      () => ({ status: 429, headers: { 'retry-after': at }, text: 'slow down' }),
      assets,
    )
    expect(error).toBeInstanceOf(RateLimitedError)
    const ms = (error as RateLimitedError).retryAfterMs ?? -1
    expect(ms).toBeGreaterThan(2000)
    expect(ms).toBeLessThanOrEqual(5000)
  })

  it('HTTP 429 without Retry-After has no retryAfterMs', async () => {
    const { error } = await failure(() => ({ status: 429, json: {} }), history)
    expect((error as RateLimitedError).retryAfterMs).toBeUndefined()
  })

  it('parses Retry-After forms', () => {
    expect(parseRetryAfterMs('0')).toBe(0)
    expect(parseRetryAfterMs('1.5')).toBe(1500)
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000)
    expect(parseRetryAfterMs('soon')).toBeUndefined()
    expect(parseRetryAfterMs(null)).toBeUndefined()
  })
})

describe('JSON-RPC error codes', () => {
  it.each([
    [-32005, RateLimitedError],
    [-32029, RateLimitedError],
    [-32429, RateLimitedError],
    [-32602, BadRequestError],
    [-32001, AuthError],
    [-32004, NotFoundError],
    [-32603, ServerError],
    [-32003, JsonRpcError],
  ] as const)('code %i -> %o', async (code, Class) => {
    const { error } = await failure(rpcError(code, 'Validation Error: something'), assets)
    expect(error).toBeInstanceOf(Class)
    expect(error.details.rpcCode).toBe(code)
    expect(error.message).toContain('das.getAssetsByOwner')
    expect(error.message).toContain(String(code))
  })

  it('JsonRpcError exposes code and message', async () => {
    const { error } = await failure(rpcError(-32003, 'Node is behind 42 slots'), assets)
    expect((error as JsonRpcError).code).toBe(-32003)
    expect(error.details.serviceMessage).toBe('Node is behind 42 slots')
  })

  it('a rate-limit code in an HTTP 200 also reads Retry-After', async () => {
    const { error } = await failure(
      (req) => ({
        headers: { 'retry-after': '3' },
        json: {
          jsonrpc: '2.0',
          id: (req.json as { id: string }).id,
          error: { code: -32429, message: 'slow' },
        },
      }),
      assets,
    )
    expect((error as RateLimitedError).retryAfterMs).toBe(3000)
  })

  it('an answer to another id is rejected', async () => {
    const { error } = await failure(
      () => ({ json: { jsonrpc: '2.0', id: 'someone-else', result: [] } }),
      (c) => c.das.getAssetBatch({ ids: [s.ASSET_ID] }),
    )
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.details.fieldPath).toBe('id')
  })
})

describe('transport failures', () => {
  it('a server that never answers -> TimeoutError after the per-call timeout', async () => {
    server.setHandler(() => ({ raw: () => undefined }))
    try {
      const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
      const started = performance.now()
      const error = await client.wallet
        .history({ wallet: s.WALLET }, { timeoutMs: 150 })
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TimeoutError)
      expect(performance.now() - started).toBeLessThan(5000)
      expect((error as TimeoutError).details.timeoutMs).toBe(150)
    } finally {
      server.setHandler(recordedHandler())
    }
  })

  it('a body that stalls half way also times out', async () => {
    server.setHandler(() => ({
      raw: (res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"data": [')
      },
    }))
    try {
      const client = createServiceClient(
        singleOriginServiceSettings(server.url, KEY, { timeoutMs: 150 }),
      )
      await expect(client.wallet.history({ wallet: s.WALLET })).rejects.toBeInstanceOf(TimeoutError)
    } finally {
      server.setHandler(recordedHandler())
    }
  })

  it('the caller aborts -> AbortedError, promptly', async () => {
    server.setHandler(() => ({ raw: () => undefined }))
    try {
      const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
      const controller = new AbortController()
      const pending = client.das.getAssetBatch({ ids: [s.ASSET_ID] }, { signal: controller.signal })
      setTimeout(() => controller.abort(), 50)
      await expect(pending).rejects.toBeInstanceOf(AbortedError)
    } finally {
      server.setHandler(recordedHandler())
    }
  })

  it('an already aborted signal sends nothing', async () => {
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
    const seen = server.requests.length
    await expect(
      client.wallet.history({ wallet: s.WALLET }, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(AbortedError)
    expect(server.requests.length).toBe(seen)
  })

  it('a closed port -> NetworkError with the connection code, no credits', async () => {
    const reports: CallReport[] = []
    const client = createServiceClient(singleOriginServiceSettings(await closedPortUrl(), KEY), {
      onCall: (r) => reports.push(r),
    })
    const error = await client.wallet.history({ wallet: s.WALLET }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).details.code).toBe('ECONNREFUSED')
    expect(reports[0]).toMatchObject({ credits: 0, errorName: 'NetworkError' })
  })
})

describe('invalid responses', () => {
  it('malformed JSON', async () => {
    const { error } = await failure(() => ({ text: '<html>gateway</html>' }), history)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.details.reason).toBe('not-json')
  })

  it('a body cut off by a closed connection', async () => {
    const { error } = await failure(
      () => ({
        raw: (res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
          res.write('{"data": [{"signature": "')
          setTimeout(() => res.socket?.destroy(), 20)
        },
      }),
      history,
    )
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.details.reason).toBe('truncated')
  })

  it('a body that ends in the middle of the JSON', async () => {
    const { error } = await failure(() => ({ text: '{"data": [{"signature": "abc"' }), history)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.details.reason).toBe('truncated')
  })

  it('schema drift of the answer itself names the operation, the field path and what was expected', async () => {
    const drifted = structuredClone(s.historyBody) as { pagination: Record<string, unknown> }
    drifted.pagination.hasMore = 'yes'
    const { error, reports } = await failure(() => ({ json: drifted }), history)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect((error as InvalidResponseError).fieldPath).toBe('pagination.hasMore')
    expect(error.message).toContain('wallet.history')
    expect(error.message).toContain('pagination.hasMore')
    expect(error.message).toMatch(/expected boolean/)
    expect(reports[0]?.errorName).toBe('InvalidResponseError')
  })

  it('a missing required field in a JSON-RPC result is named under result', async () => {
    const list = structuredClone(s.assetListResult) as Record<string, unknown>
    delete list.total
    const { error } = await failure(
      (req) => ({ json: { jsonrpc: '2.0', id: (req.json as { id: string }).id, result: list } }),
      assets,
    )
    expect((error as InvalidResponseError).fieldPath).toBe('result.total')
    expect(error.message).toContain('das.getAssetsByOwner')
  })

  it('a JSON-RPC answer without result or error', async () => {
    const { error } = await failure(
      (req) => ({ json: { jsonrpc: '2.0', id: (req.json as { id: string }).id } }),
      assets,
    )
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.details.reason).toBe('envelope')
  })
})

describe('local validation', () => {
  it('names the bad parameter and sends nothing', async () => {
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
    const seen = server.requests.length
    const error = await client.das.getAssetBatch({ ids: [] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error).toBeInstanceOf(BadRequestError)
    expect((error as InvalidRequestError).details.parameter).toBe('ids')
    expect((error as Error).message).toContain('das.getAssetBatch')
    expect(server.requests.length).toBe(seen)
  })
})

describe('errors cross IPC as plain JSON', () => {
  it('round-trips name, operation, message and details', async () => {
    const { error } = await failure(
      () => ({ status: 429, headers: { 'retry-after': '2' }, json: {} }),
      history,
    )
    const wire = JSON.parse(JSON.stringify(error)) as Parameters<typeof serviceErrorFromJSON>[0]
    expect(wire).toMatchObject({ name: 'RateLimitedError', operation: 'wallet.history' })
    const rebuilt = serviceErrorFromJSON(wire)
    expect(rebuilt).toBeInstanceOf(RateLimitedError)
    expect(rebuilt.message).toBe(error.message)
    expect((rebuilt as RateLimitedError).retryAfterMs).toBe(2000)
  })
})

describe('log lines', () => {
  it('one line per exchange and per failure, URL redacted', async () => {
    const lines: string[] = []
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
      log: (line) => lines.push(line),
    })
    await client.das.getAssetBatch({ ids: [s.ASSET_ID] })
    server.setHandler(() => ({ status: 404, json: { error: 'none' } }))
    try {
      await client.webhooks.get({ webhookID: s.WEBHOOK_ID }).catch(() => undefined)
    } finally {
      server.setHandler(recordedHandler())
    }
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/\?api-key=\*\*\* -> 200 in \d+ ms$/)
    expect(lines[1]).toMatch(/^GET .*\/v0\/webhooks\/[\w-]+\?api-key=\*\*\* -> 404/)
    expect(lines[2]).toContain('webhooks.get failed: webhooks.get: HTTP 404')
  })
})
