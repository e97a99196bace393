import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { CREDIT_PRICES } from '@shared/api/prices'
import { HistoryResponse } from '@shared/api/wallet-rest'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startSimulator } from '../../../src-main/simulator/simulator-server'
import { rawGet, rawRpc, startTestSimulator } from './sim-test-helpers'

// Service behaviour of the simulator: keys and plans, credits from the shared price table,
// rate limits with Retry-After, every fault kind, determinism, webhook deliveries.

const running: RunningSimulator[] = []
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close()
})

async function start(options: Parameters<typeof startTestSimulator>[0] = {}) {
  const t = await startTestSimulator(options)
  running.push(t.sim)
  return t
}

async function addFault(url: string, spec: Record<string, unknown>) {
  const res = await fetch(`${url}/__sim/faults`, { method: 'POST', body: JSON.stringify(spec) })
  expect(res.status).toBe(200)
}

describe('keys and plans', () => {
  it('answers 401 without a key or with an unknown one, 403 on identity for a free-plan key', async () => {
    const { sim, address } = await start({ keys: ['demo'], freePlanKeys: ['free'] })
    const path = `/v1/wallet/${address('casual')}/history`
    expect((await rawGet(sim.url, path, null)).status).toBe(401)
    expect((await rawGet(sim.url, path, 'nope')).status).toBe(401)
    expect(
      (await rawRpc(sim.url, 'getAssetsByOwner', { ownerAddress: address('casual') }, 'nope'))
        .status,
    ).toBe(401)
    expect((await rawGet(sim.url, `/v1/wallet/${address('casual')}/identity`, 'free')).status).toBe(
      403,
    )
    expect(
      (await rawGet(sim.url, `/v1/wallet/${address('casual')}/funded-by`, 'free')).status,
    ).toBe(403)
    expect((await rawGet(sim.url, `/v1/wallet/${address('casual')}/identity`, 'demo')).status).toBe(
      200,
    )
    expect((await rawGet(sim.url, `/v1/wallet/${address('idle')}/identity`, 'demo')).status).toBe(
      404,
    )
  })
})

describe('credits', () => {
  it('match the price table for a scripted sequence, and refusals cost nothing', async () => {
    const { sim, client, address } = await start()
    const w = address('compressed-holder')
    await client.wallet.history({ wallet: w })
    await client.wallet.balances({ wallet: w })
    await client.das.getAssetsByOwner({ ownerAddress: w })
    await client.compression.getCompressedBalanceByOwner({ owner: w })
    const hash = (await client.compression.getCompressedAccountsByOwner({ owner: w })).value
      .items[0]!.hash
    await client.compression.getValidityProof({ hashes: [hash] })
    await client.priorityFee.getPriorityFeeEstimate([{ accountKeys: [w] }])
    await client.rpc.getSignaturesForAddress([w, { limit: 1 }])
    await client.webhooks.list({})
    await rawGet(sim.url, `/v1/wallet/${w}/history?limit=0`)
    await rawGet(sim.url, `/v1/wallet/${w}/history`, null)
    const expected =
      2 * CREDIT_PRICES.wallet +
      CREDIT_PRICES.das +
      2 * CREDIT_PRICES.compression +
      CREDIT_PRICES.validityProof +
      CREDIT_PRICES.priorityFee +
      CREDIT_PRICES.rpcArchival +
      CREDIT_PRICES.webhookManagement
    const res = (await (await fetch(`${sim.url}/__sim/credits?key=demo`)).json()) as {
      total: number
      calls: number
    }
    expect(res.total).toBe(expected)
    expect(res.calls).toBe(9)
    // The control surface itself is free.
    await fetch(`${sim.url}/__sim/truth/${w}/history`)
    expect(sim.credits.forKey('demo').total).toBe(expected)
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After over the free plan limit of the wallet class', async () => {
    const { sim, address } = await start({ plan: 'free' })
    const path = `/v1/wallet/${address('casual')}/balances`
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let i = 0; i < 5; i++) {
      const res = await rawGet(sim.url, path)
      statuses.push(res.status)
      if (res.status === 429) retryAfter = res.headers.get('retry-after')
    }
    expect(statuses).toContain(429)
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    // RPC has its own, larger budget (10/s on free).
    const rpc = await rawRpc(sim.url, 'getSignaturesForAddress', [address('casual'), { limit: 1 }])
    expect(rpc.status).toBe(200)
  })
})

describe('faults', () => {
  it('adds latency', async () => {
    const { sim, address } = await start()
    await addFault(sim.url, { target: 'history', kind: 'latency', latencyMs: 150, count: 1 })
    const t0 = performance.now()
    await rawGet(sim.url, `/v1/wallet/${address('casual')}/history`)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
  })

  it('answers 5xx for a count of requests, then recovers', async () => {
    const { sim, address } = await start()
    await addFault(sim.url, { target: 'wallet.*', kind: 'error', status: 503, count: 2 })
    const path = `/v1/wallet/${address('casual')}/history`
    expect((await rawGet(sim.url, path)).status).toBe(503)
    expect((await rawGet(sim.url, path)).status).toBe(503)
    expect((await rawGet(sim.url, path)).status).toBe(200)
    expect(sim.credits.forKey('demo').total).toBe(CREDIT_PRICES.wallet)
  })

  it('applies an error rate to about that share of requests', async () => {
    const { sim, address } = await start()
    await addFault(sim.url, { target: '*', kind: 'error', rate: 0.5 })
    let errors = 0
    for (let i = 0; i < 60; i++)
      if ((await rawGet(sim.url, `/v1/wallet/${address('idle')}/history`)).status === 500) errors++
    expect(errors).toBeGreaterThan(15)
    expect(errors).toBeLessThan(45)
  })

  it('never answers on timeout', async () => {
    const { sim, address } = await start()
    await addFault(sim.url, { target: 'getAssetsByOwner', kind: 'timeout', count: 1 })
    await expect(
      fetch(`${sim.url}/?api-key=demo`, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: '1',
          method: 'getAssetsByOwner',
          params: { ownerAddress: address('casual') },
        }),
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow()
  })

  it('sends malformed JSON and truncated bodies', async () => {
    const { sim, address } = await start()
    const path = `${sim.url}/v1/wallet/${address('casual')}/history?api-key=demo`
    await addFault(sim.url, { target: 'history', kind: 'malformed', count: 1 })
    const malformed = await fetch(path)
    expect(malformed.status).toBe(200)
    await expect(malformed.json()).rejects.toThrow()
    await addFault(sim.url, { target: 'history', kind: 'truncated', count: 1 })
    await expect(fetch(path).then((r) => r.text())).rejects.toThrow()
    expect((await fetch(path)).status).toBe(200)
  })

  it('drifts the schema: a missing field, a wrong type, an extra field', async () => {
    const { sim, address } = await start()
    const path = `/v1/wallet/${address('casual')}/history?limit=2`
    await addFault(sim.url, { target: 'history', kind: 'drift', drift: 'missing', count: 1 })
    const missing = (await rawGet(sim.url, path)).body
    expect(missing.data[0].signature).toBeUndefined()
    // The edge keeps the drifted entry aside and reads the other.
    const readMissing = HistoryResponse.parse(missing)
    expect(readMissing.data).toHaveLength(1)
    expect(readMissing.keptAside).toMatchObject([{ index: 0, key: null }])
    expect(readMissing.keptAside[0]?.reason).toMatch(/^signature: /)
    await addFault(sim.url, {
      target: 'history',
      kind: 'drift',
      drift: 'wrongType',
      field: 'data.0.slot',
      count: 1,
    })
    const wrong = (await rawGet(sim.url, path)).body
    expect(typeof wrong.data[0].slot).toBe('string')
    expect(HistoryResponse.parse(wrong).keptAside).toMatchObject([
      { index: 0, key: wrong.data[0].signature, reason: expect.stringMatching(/^slot: /) },
    ])
    await addFault(sim.url, { target: 'history', kind: 'drift', drift: 'extra', count: 1 })
    const extra = (await rawGet(sim.url, path)).body
    expect(extra.data[0].__simulatorExtraField).toBe('unexpected')
    expect(HistoryResponse.safeParse(extra).success).toBe(true)
  })

  it('forces 429s with Retry-After, and DELETE clears faults', async () => {
    const { sim, address } = await start()
    await addFault(sim.url, {
      target: 'getSignaturesForAddress',
      kind: 'rateLimit',
      retryAfterSec: 7,
    })
    const limited = await rawRpc(sim.url, 'getSignaturesForAddress', [address('casual')])
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(limited.body.error.code).toBe(-32429)
    await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })
    expect((await rawRpc(sim.url, 'getSignaturesForAddress', [address('casual')])).status).toBe(200)
  })
})

describe('determinism', () => {
  it('is identical for the same seed and different for another', async () => {
    const a = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    const b = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    const c = await startSimulator({ seed: 12, clock: { mode: 'manual' } })
    running.push(a, b, c)
    const page = async (sim: RunningSimulator) => {
      const w = sim.chain.walletByProfile('active-trader').address
      return { w, body: (await rawGet(sim.url, `/v1/wallet/${w}/history?limit=20`)).body }
    }
    const [pa, pb, pc] = await Promise.all([page(a), page(b), page(c)])
    expect(pa).toEqual(pb)
    expect(pa.w).not.toBe(pc.w)
    expect(pa.body.data[0].signature).not.toBe(pc.body.data[0].signature)
  })
})

describe('webhooks', () => {
  it('deliver new activity with the auth header, retry a minute apart and disable on failures', async () => {
    const received: { headers: IncomingHttpHeaders; body: unknown }[] = []
    let failing = true
    const receiver = createServer((req, res) => {
      let text = ''
      req.on('data', (c: Buffer) => (text += c.toString()))
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(text) })
        res.statusCode = failing ? 500 : 200
        res.end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    try {
      const { sim, client, address } = await start()
      const hook = await client.webhooks.create({
        webhookURL: hookUrl,
        transactionTypes: ['ANY'],
        accountAddresses: [address('casual')],
        webhookType: 'raw',
        authHeader: 'Bearer sim',
      })
      const flush = () => fetch(`${sim.url}/__sim/webhooks/flush`, { method: 'POST' })
      await fetch(`${sim.url}/__sim/activity`, {
        method: 'POST',
        body: JSON.stringify({ wallet: 'casual', count: 2 }),
      })
      await flush()
      expect(received.length).toBe(1)
      expect(received[0]!.headers.authorization).toBe('Bearer sim')
      expect(Array.isArray(received[0]!.body) && (received[0]!.body as unknown[]).length).toBe(2)
      // Retries come only when the clock passes a minute.
      await flush()
      expect(received.length).toBe(1)
      for (let i = 0; i < 3; i++) {
        await fetch(`${sim.url}/__sim/clock`, {
          method: 'POST',
          body: JSON.stringify({ advanceSec: 60 }),
        })
        await flush()
      }
      expect(received.length).toBe(4)
      // Keep failing until the failure share disables it.
      for (let i = 0; i < 2; i++) {
        await fetch(`${sim.url}/__sim/activity`, {
          method: 'POST',
          body: JSON.stringify({ wallet: 'casual', count: 1 }),
        })
        await flush()
        for (let k = 0; k < 3; k++) {
          sim.chain.clock.advance(60)
          await flush()
        }
      }
      expect((await client.webhooks.get({ webhookID: hook.webhookID })).active).toBe(false)
      // Re-enabled, it delivers again and a success is charged 1 credit per event.
      failing = false
      await client.webhooks.toggle({ webhookID: hook.webhookID, active: true })
      const creditsBefore = sim.credits.forKey('demo').total
      await fetch(`${sim.url}/__sim/activity`, {
        method: 'POST',
        body: JSON.stringify({ wallet: 'casual', count: 1 }),
      })
      await flush()
      expect(sim.credits.forKey('demo').total).toBe(creditsBefore + 1)
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()))
    }
  })
})
