import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATIONS, OPERATION_NAMES, fillPath } from '@shared/api/operations'
import type { Operation, OperationName } from '@shared/api/operations'
import { CREDIT_PRICES } from '@shared/api/prices'
import { createServiceClient } from '../../../src-main/service/service-client'
import type { CallReport } from '../../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { startRecordedServer } from '../../helpers/recorded-server'
import type { RecordedServer } from '../../helpers/recorded-server'
import * as s from '../../unit/api/interface-samples'
import { RECORDED, VALID_INPUTS, recordedHandler } from './recorded-answers'

const KEY = 'test-key-7d1e'
let server: RecordedServer

beforeAll(async () => {
  server = await startRecordedServer(recordedHandler())
})
afterAll(async () => {
  await server.close()
})

function lastRequest() {
  const request = server.requests.at(-1)
  if (!request) throw new Error('the server saw no request')
  return request
}

describe('every operation against recorded answers', () => {
  it.each(OPERATION_NAMES)(
    '%s: sends the interface request and returns the validated answer',
    async (name) => {
      const reports: CallReport[] = []
      const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
        onCall: (r) => reports.push(r),
      })
      const op: Operation = OPERATIONS[name]
      const input = VALID_INPUTS[name] as Record<string, unknown>
      const value = await client.call(name, VALID_INPUTS[name] as never)
      // The answer as the edge reads it: the recorded body in the mirror's one form.
      expect(value).toEqual(op.response.parse(RECORDED[name]))

      const request = lastRequest()
      if (op.transport === 'json-rpc') {
        expect(request.method).toBe('POST')
        expect(request.path).toBe('/')
        expect(request.headers['content-type']).toBe('application/json')
        const envelope = request.json as Record<string, unknown>
        expect(envelope.jsonrpc).toBe('2.0')
        expect(typeof envelope.id).toBe('string')
        expect(envelope.method).toBe(op.rpcMethod)
        expect(envelope.params).toEqual(input)
      } else {
        expect(request.method).toBe(op.httpMethod)
        expect(request.path).toBe(fillPath(op.path, input))
        const rest = Object.fromEntries(
          Object.entries(input).filter(([k]) => !op.path.includes(`{${k}}`)),
        )
        if (op.httpMethod === 'GET' || op.httpMethod === 'DELETE') {
          const query = Object.fromEntries([...request.query].filter(([k]) => k !== 'api-key'))
          expect(query).toEqual(
            Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)])),
          )
        } else {
          expect(request.json).toEqual(rest)
        }
      }
      expect(reports).toHaveLength(1)
      expect(reports[0]).toMatchObject({
        operation: name,
        status: 'ok',
        httpStatus: 200,
        credits: CREDIT_PRICES[op.priceKey],
      })
      expect(reports[0]!.durationMs).toBeGreaterThanOrEqual(0)
    },
  )

  it('the grouped methods reach the same operations', async () => {
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
    const page = await client.wallet.history({ wallet: s.WALLET, limit: 2 })
    expect(page.data[0]?.balanceChanges[0]?.amount).toBe(-0.100005)
    expect(lastRequest().path).toBe(`/v1/wallet/${s.WALLET}/history`)
    const toggled = await client.webhooks.toggle({ webhookID: s.WEBHOOK_ID, active: false })
    expect(toggled.active).toBe(false)
    expect(lastRequest()).toMatchObject({ method: 'PATCH', json: { active: false } })
    const fee = await client.priorityFee.getPriorityFeeEstimate([{ accountKeys: [s.WALLET] }])
    expect(fee.priorityFeeEstimate).toBe(12_000)
  })

  it('accepts extra unknown fields in an answer', async () => {
    server.setHandler(
      recordedHandler((name) =>
        name === 'wallet.transfers'
          ? { name, payload: { ...s.transfersBody, addedLater: { x: 1 } } }
          : undefined,
      ),
    )
    try {
      const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
      const page = await client.wallet.transfers({ wallet: s.WALLET })
      expect(page.data).toHaveLength(2)
    } finally {
      server.setHandler(recordedHandler())
    }
  })
})

describe('authentication styles', () => {
  const walletOps = OPERATION_NAMES.filter((n) => OPERATIONS[n].transport === 'wallet-rest')
  const queryOps = OPERATION_NAMES.filter((n) => OPERATIONS[n].transport !== 'wallet-rest')

  it.each(walletOps)('%s sends the key as the X-Api-Key header, not in the URL', async (name) => {
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
    await client.call(name, VALID_INPUTS[name] as never)
    const request = lastRequest()
    expect(request.headers['x-api-key']).toBe(KEY)
    expect(request.query.has('api-key')).toBe(false)
  })

  it.each(queryOps)('%s sends the key as ?api-key=, not as a header', async (name) => {
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY))
    await client.call(name, VALID_INPUTS[name] as never)
    const request = lastRequest()
    expect(request.query.get('api-key')).toBe(KEY)
    expect(request.headers['x-api-key']).toBeUndefined()
  })

  it('uses the three base URLs separately', async () => {
    const other = await startRecordedServer(recordedHandler())
    try {
      const settings = {
        ...singleOriginServiceSettings(server.url, KEY),
        jsonRpcUrl: other.url,
      }
      const client = createServiceClient(settings)
      const before = { main: server.requests.length, other: other.requests.length }
      await client.das.getAssetBatch({ ids: [s.ASSET_ID] })
      await client.wallet.fundedBy({ wallet: s.WALLET })
      expect(other.requests.length - before.other).toBe(1)
      expect(server.requests.length - before.main).toBe(1)
    } finally {
      await other.close()
    }
  })
})

describe('credits reported through onCall (one price table)', () => {
  it.each([
    ['wallet.history', 100],
    ['das.getAssetsByOwner', 10],
    ['compression.getCompressedAccount', 10],
    ['compression.getValidityProof', 100],
    ['priorityFee.getPriorityFeeEstimate', 1],
    ['webhooks.toggle', 100],
    ['rpc.getSignaturesForAddress', 10],
    ['rpc.getMultipleAccounts', 1],
    ['rpc.getTokenAccountsByOwner', 1],
    ['rpc.getBalance', 1],
  ] as [OperationName, number][])('%s costs %i credits', async (name, credits) => {
    const reports: CallReport[] = []
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
      onCall: (r) => reports.push(r),
    })
    await client.call(name, VALID_INPUTS[name] as never)
    expect(reports.map((r) => r.credits)).toEqual([credits])
  })

  it('the token-metadata price is a setting', async () => {
    const reports: CallReport[] = []
    const settings = singleOriginServiceSettings(server.url, KEY, {
      creditOverrides: { tokenMetadata: 37 },
    })
    const client = createServiceClient(settings, { onCall: (r) => reports.push(r) })
    await client.tokenMetadata.getTokenMetadata({ mintAccounts: [s.USDC_MINT] })
    expect(reports[0]?.credits).toBe(37)
  })

  it('a request rejected locally costs nothing and never reaches the service', async () => {
    const reports: CallReport[] = []
    const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
      onCall: (r) => reports.push(r),
    })
    const seen = server.requests.length
    await expect(client.wallet.history({ wallet: s.WALLET, limit: 101 })).rejects.toMatchObject({
      name: 'InvalidRequestError',
      details: { parameter: 'limit' },
    })
    expect(server.requests.length).toBe(seen)
    expect(reports).toEqual([
      expect.objectContaining({
        operation: 'wallet.history',
        credits: 0,
        status: 'error',
        errorName: 'InvalidRequestError',
      }),
    ])
  })
})

describe('JSON-RPC batch', () => {
  it('sends one HTTP request and settles each entry on its own', async () => {
    server.setHandler((request) => {
      const batch = request.json as { id: string; method: string }[]
      return {
        json: batch
          .map((entry) =>
            entry.method === 'getCompressedBalanceByOwner'
              ? {
                  jsonrpc: '2.0',
                  id: entry.id,
                  error: { code: -32004, message: 'owner not found' },
                }
              : { jsonrpc: '2.0', id: entry.id, result: [s.asset] },
          )
          .reverse(),
      }
    })
    try {
      const reports: CallReport[] = []
      const client = createServiceClient(singleOriginServiceSettings(server.url, KEY), {
        onCall: (r) => reports.push(r),
      })
      const seen = server.requests.length
      const [assets, balance] = await client.batch([
        { operation: 'das.getAssetBatch', input: { ids: [s.ASSET_ID] } },
        { operation: 'compression.getCompressedBalanceByOwner', input: { owner: s.WALLET } },
      ])
      expect(server.requests.length).toBe(seen + 1)
      const ids = (lastRequest().json as { id: unknown }[]).map((e) => e.id)
      expect(new Set(ids).size).toBe(2)
      expect(ids.every((id) => typeof id === 'string')).toBe(true)
      expect(assets.ok && assets.value[0]?.id).toBe(s.ASSET_ID)
      expect(balance.ok).toBe(false)
      if (!balance.ok) expect(balance.error.name).toBe('NotFoundError')
      expect(reports.map((r) => [r.operation, r.status, r.credits])).toEqual([
        ['das.getAssetBatch', 'ok', 10],
        // A JSON-RPC error object is a refusal: not billed.
        ['compression.getCompressedBalanceByOwner', 'error', 0],
      ])
    } finally {
      server.setHandler(recordedHandler())
    }
  })
})
