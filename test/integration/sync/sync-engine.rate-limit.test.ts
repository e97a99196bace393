import { afterEach, describe, expect, it } from 'vitest'
import { FaultSpec } from '../../../src-main/simulator/fault-injector'
import { classWindow, requestsBeforeRetryAfter } from '../../helpers/rate-log'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'

// Issue 16, item 2: with the simulator enforcing the Free plan per endpoint class, the
// plan's rate is the only limit. Many wallets backfilled at once meet no 429 once warmed
// up, every Retry-After is waited out, and one class's backlog never holds up another.
// What the service saw is read from the simulator's log of every rated request.

/** Seconds at the start of a run in which the pacers and the service's windows settle. */
const WARM_UP_MS = 2_000
/** A request this soon after a 429 was already on its way before the client could read it. */
const IN_FLIGHT_MS = 50

let fx: SyncFixture

afterEach(async () => {
  await fx?.stop()
})

/** A plan on both sides (Free by default), over the 20 wallets of the backfill population. */
async function startPlan(plan: 'free' | 'developer' = 'free'): Promise<{ addresses: string[] }> {
  fx = await startSyncFixture({ sim: { plan, population: 'backfill' }, rate: plan })
  const addresses = fx.sim.chain.wallets.map((w) => w.address)
  for (const address of addresses) await fx.mirror.watchlist.add({ address }, 1_700_000_000)
  return { addresses }
}

describe('the plan rate as the only limit', () => {
  it('a backfill of 20 wallets at once on the Free plan meets no 429 after warm-up', async () => {
    const { addresses } = await startPlan()
    const startedMs = Date.now()
    const runs = addresses.map((a) => fx.runtime.engine.syncWallet(a).catch(() => null))
    // Long enough that both classes settle into their rates even on a loaded machine (a
    // 9 s run on a busy CI machine saw the photon class start late).
    await new Promise((resolve) => setTimeout(resolve, 15_000))
    fx.runtime.engine.cancel()
    await Promise.all(runs)

    const { decisions } = fx.sim.limiter.decisions()
    const wallet = classWindow(decisions, 'das-enhanced', startedMs + WARM_UP_MS, Date.now())
    const photon = classWindow(decisions, 'photon', startedMs + WARM_UP_MS, Date.now())
    // Both classes had work through the whole run (20 wallets outlast 15 s at 2 requests/s)…
    expect(wallet.passedRps * wallet.seconds).toBeGreaterThanOrEqual(10)
    expect(photon.passedRps * photon.seconds).toBeGreaterThanOrEqual(10)
    // …and the service refused none of it once the run had settled.
    expect({ wallet: wallet.limited, photon: photon.limited }).toEqual({ wallet: 0, photon: 0 })
  })

  it('every Retry-After is waited out: after a 429 the class sends nothing until it has passed', async () => {
    // Developer: the halved rate after each 429 still finishes the wallet quickly.
    const { addresses } = await startPlan('developer')
    // A Retry-After of 2 s: longer than the plan's own one-second windows ever ask for.
    fx.sim.faults.add(
      FaultSpec.parse({ target: 'wallet.*', kind: 'rateLimit', retryAfterSec: 2, count: 2 }),
    )
    const casual = addresses[fx.sim.chain.wallets.findIndex((w) => w.profile.id === 'casual')]
    const outcome = await fx.runtime.engine.syncWallet(casual as string)
    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')

    const { decisions } = fx.sim.limiter.decisions()
    const refusals = decisions.filter((d) => d.retryAfterSec === 2)
    expect(refusals).toHaveLength(2)
    // Each 429 was followed by more requests of its class (the sync went on)…
    for (const refusal of refusals)
      expect(
        decisions.some((d) => d.endpointClass === 'das-enhanced' && d.atMs > refusal.atMs),
      ).toBe(true)
    // …none of them before its Retry-After had passed.
    expect(requestsBeforeRetryAfter(decisions, IN_FLIGHT_MS)).toEqual([])
  })

  it('classes do not block each other: RPC calls go out while wallet calls wait for their rate', async () => {
    const { addresses } = await startPlan()
    const runs = addresses.map((a) =>
      fx.runtime.engine.syncWallet(a, { streams: ['history'] }).catch(() => null),
    )
    // The wallet class (2 requests/s) now has far more calls than it can start.
    await expect.poll(() => fx.runtime.shaper.waitingCalls('das-enhanced')).toBeGreaterThan(5)
    const walletCallsWaiting = fx.runtime.shaper.waitingCalls('das-enhanced')
    const issuedMs = Date.now()

    const balances = await Promise.all(
      addresses.slice(0, 10).map((a) => fx.runtime.engine.callFor(null, 'rpc.getBalance', [a])),
    )
    fx.runtime.engine.cancel()
    await Promise.all(runs)

    expect(balances.every((b) => typeof b.value === 'number')).toBe(true)
    const { decisions } = fx.sim.limiter.decisions()
    const rpc = decisions.filter((d) => d.endpointClass === 'rpc' && d.retryAfterSec === null)
    expect(rpc).toHaveLength(10)
    const lastRpcMs = rpc.at(-1)?.atMs ?? 0
    // Had the RPC calls queued behind the wallet calls, every wallet call waiting when they
    // were made would have gone out first; instead they went out beside a few.
    const walletCallsMeanwhile = decisions.filter(
      (d) => d.endpointClass === 'das-enhanced' && d.atMs >= issuedMs && d.atMs <= lastRpcMs,
    ).length
    expect(walletCallsMeanwhile).toBeLessThan(walletCallsWaiting)
  })
})
