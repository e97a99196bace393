import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'

// Finding of issue 12: the in-process demo simulator served /__sim control routes to
// anyone, with no Host or Origin check (/__sim/activity and /__sim/clock answered a
// foreign Origin). A web page the person visits must not move the demo's clock or add
// activity; tests and the CLI, which send no Origin, keep the control surface.

function call(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('simulator: the /__sim control routes answer no other web page', () => {
  let sim: RunningSimulator
  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
  })
  afterAll(() => sim.close())

  it('the in-process demo simulator no longer serves /__sim control routes to a foreign Origin or Host', async () => {
    const wallet = sim.chain.walletByProfile('casual').address
    const before = sim.chain.clock.nowSec()
    const count = sim.chain.txCount(sim.chain.walletByProfile('casual'))
    const evil = { origin: 'https://evil.example' }
    expect(await call(sim.port, 'POST', '/__sim/clock', evil, '{"advanceSec":60}')).toBe(403)
    expect(
      await call(sim.port, 'POST', '/__sim/activity', evil, JSON.stringify({ wallet, count: 1 })),
    ).toBe(403)
    const rebound = { host: `rebound.example:${sim.port}` }
    expect(await call(sim.port, 'POST', '/__sim/clock', rebound, '{"advanceSec":60}')).toBe(403)
    expect(await call(sim.port, 'GET', '/__sim/wallets', rebound)).toBe(403)
    expect(sim.chain.clock.nowSec()).toBe(before)
    expect(sim.chain.txCount(sim.chain.walletByProfile('casual'))).toBe(count)
  })

  it('still answers requests without an Origin, and the simulator’s own origin', async () => {
    expect(await call(sim.port, 'POST', '/__sim/clock', {}, '{"advanceSec":60}')).toBe(200)
    const own = { origin: `http://127.0.0.1:${sim.port}` }
    expect(await call(sim.port, 'GET', '/__sim/wallets', own)).toBe(200)
    expect(await call(sim.port, 'GET', '/__sim/wallets', { host: `localhost:${sim.port}` })).toBe(
      200,
    )
  })
})
