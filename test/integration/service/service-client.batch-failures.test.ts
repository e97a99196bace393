import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../src-main/service/service-client'
import type { CallReport } from '../../../src-main/service/service-client'
import {
  InvalidRequestError,
  InvalidResponseError,
  RateLimitedError,
} from '../../../src-main/service/service-errors'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { startRecordedServer } from '../../helpers/recorded-server'
import type { Handler, RecordedServer } from '../../helpers/recorded-server'
import * as s from '../../unit/api/interface-samples'
import { recordedHandler } from './recorded-answers'

// A JSON-RPC batch fails as a whole (nothing sent, a refused request, a body that is no
// array) or entry by entry (an answer missing or off-schema); every entry is reported once.

const KEY = 'batch-key-5e21'
let server: RecordedServer

beforeAll(async () => {
  server = await startRecordedServer(recordedHandler())
})
afterAll(async () => {
  await server.close()
})

type RpcRequest = { id: string; method: string }

/** The batch every test sends, unless it needs a bad entry. */
const assetsAndBalance = (client: ReturnType<typeof createServiceClient>) =>
  client.batch([
    { operation: 'das.getAssetBatch', input: { ids: [s.ASSET_ID] } },
    { operation: 'compression.getCompressedBalanceByOwner', input: { owner: s.WALLET } },
  ])

/** A client whose reports land in the returned list, against `handler`. */
function clientAnswering(handler: Handler) {
  server.setHandler(handler)
  const reports: CallReport[] = []
  const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
    onCall: (r) => reports.push(r),
  })
  return { client, reports }
}

describe('a JSON-RPC batch that fails as a whole', () => {
  it('sends nothing when one entry breaks the bounds, and reports every entry', async () => {
    const { client, reports } = clientAnswering(recordedHandler())
    const seen = server.requests.length
    const tooMany = Array.from({ length: 1001 }, () => s.ASSET_ID)
    const error = await client
      .batch([
        { operation: 'compression.getCompressedBalanceByOwner', input: { owner: s.WALLET } },
        { operation: 'das.getAssetBatch', input: { ids: tooMany } },
      ])
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect((error as InvalidRequestError).details.parameter).toBe('ids')
    expect(server.requests.length).toBe(seen)
    expect(reports.map((r) => [r.operation, r.errorName, r.credits])).toEqual([
      ['compression.getCompressedBalanceByOwner', 'InvalidRequestError', 0],
      ['das.getAssetBatch', 'InvalidRequestError', 0],
    ])
  })

  it('throws the refusal of the whole request and reports it for every entry', async () => {
    const { client, reports } = clientAnswering(() => ({
      status: 429,
      headers: { 'retry-after': '3' },
      json: { error: 'slow down' },
    }))
    const error = await assetsAndBalance(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect((error as RateLimitedError).retryAfterMs).toBe(3000)
    expect((error as RateLimitedError).operation).toBe(
      'batch(das.getAssetBatch,compression.getCompressedBalanceByOwner)',
    )
    expect(reports.map((r) => [r.operation, r.errorName, r.httpStatus, r.credits])).toEqual([
      ['das.getAssetBatch', 'RateLimitedError', 429, 0],
      ['compression.getCompressedBalanceByOwner', 'RateLimitedError', 429, 0],
    ])
  })

  it('refuses an answer that is not an array', async () => {
    const { client, reports } = clientAnswering((req) => ({
      json: { jsonrpc: '2.0', id: (req.json as RpcRequest[])[0]?.id, result: [s.asset] },
    }))
    const error = await assetsAndBalance(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect((error as InvalidResponseError).message).toMatch(/must be answered with an array/)
    expect(reports.map((r) => [r.operation, r.status, r.errorName])).toEqual([
      ['das.getAssetBatch', 'error', 'InvalidResponseError'],
      ['compression.getCompressedBalanceByOwner', 'error', 'InvalidResponseError'],
    ])
  })
})

describe('a JSON-RPC batch that fails entry by entry', () => {
  it('settles an entry with no answer and an off-schema entry alone', async () => {
    const { client, reports } = clientAnswering((req) => {
      const [first] = req.json as RpcRequest[]
      // Only the first entry is answered, and with a result that is not an asset list.
      return { json: [{ jsonrpc: '2.0', id: first?.id, result: { total: 'many' } }] }
    })
    const [assets, balance] = await assetsAndBalance(client)
    expect(assets.ok).toBe(false)
    if (!assets.ok) {
      expect(assets.error).toBeInstanceOf(InvalidResponseError)
      expect((assets.error as InvalidResponseError).fieldPath).toMatch(/^result/)
    }
    expect(balance.ok).toBe(false)
    if (!balance.ok) {
      expect(balance.error).toBeInstanceOf(InvalidResponseError)
      expect(balance.error.message).toMatch(/no entry for this request/)
    }
    expect(reports.map((r) => [r.operation, r.status, r.errorName])).toEqual([
      ['das.getAssetBatch', 'error', 'InvalidResponseError'],
      ['compression.getCompressedBalanceByOwner', 'error', 'InvalidResponseError'],
    ])
    // Answered with 200 but off-schema: the service did the work, so it is billed.
    expect(reports[0]?.credits).toBe(10)
  })

  it('sends nothing and reports nothing for an empty batch', async () => {
    const { client, reports } = clientAnswering(recordedHandler())
    const seen = server.requests.length
    expect(await client.batch([])).toEqual([])
    expect(server.requests.length).toBe(seen)
    expect(reports).toEqual([])
  })
})
