import { afterEach, describe, expect, it } from 'vitest'
import type { FaultSpec } from '../../../src-main/simulator/fault-injector'
import type { StreamName } from '../../../src-main/db/mirror-writer'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { expectMirrorEqualsTruth, ledgerCalls, simulatorCalls } from './mirror-truth-assertions'

// Issue 5, "Done means": faults injected by the simulator leave no bad row, and the final
// mirror is correct once they stop; drift pauses only the affected stream with a clear error.

async function injectFault(simUrl: string, spec: FaultSpec): Promise<void> {
  const response = await fetch(`${simUrl}/__sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  })
  expect(response.status).toBe(200)
}

/** Stops every fault. */
async function clearFaults(simUrl: string): Promise<void> {
  await fetch(`${simUrl}/__sim/faults`, { method: 'DELETE' })
}

/** Ledger rows of calls that failed with this error. */
async function failedCalls(fx: SyncFixture, errorName: string): Promise<number> {
  const { n } = await fx.db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('error_name', '=', errorName)
    .executeTakeFirstOrThrow()
  return Number(n)
}

const ALL_STREAMS: StreamName[] = [
  'history',
  'transfers',
  'balances',
  'compressed-owner',
  'compressed-token-owner',
]

describe.each(ENGINES)('sync engine under injected faults (on %s)', (engine) => {
  let fx: SyncFixture
  afterEach(() => fx.stop())

  /** Syncs through the fault, then again with faults cleared: nothing is left to fetch. */
  async function syncThroughFault(address: string): Promise<void> {
    const outcome = await fx.runtime.engine.syncWallet(address)
    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    await clearFaults(fx.sim.url)
    const again = await fx.runtime.engine.syncWallet(address)
    expect(again.state).toBe('ok')
    expect(again.streams.filter((s) => s.stream !== 'balances').map((s) => s.newItems)).toEqual([
      0, 0, 0, 0,
    ])
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  }

  it('a 429 storm: the class rate is halved, Retry-After is waited out, and the sync completes', async () => {
    const rps = { rpc: 40, 'das-enhanced': 40, photon: 40, 'validity-proof': 40 }
    fx = await startSyncFixture({ engine, rate: { custom: rps } })
    const address = await fx.watch('casual')
    await injectFault(fx.sim.url, {
      target: 'wallet.*',
      kind: 'rateLimit',
      retryAfterSec: 1,
      count: 2,
    })

    const startedMs = performance.now()
    const outcome = await fx.runtime.engine.syncWallet(address)

    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    expect(performance.now() - startedMs).toBeGreaterThanOrEqual(1_000)
    expect(await failedCalls(fx, 'RateLimitedError')).toBe(2)
    // Two halvings (40 → 10), then the successes' additive recovery: still below the plan.
    expect(fx.runtime.shaper.currentRps('das-enhanced')).toBeLessThan(rps['das-enhanced'])
    expect(fx.runtime.shaper.currentRps('photon')).toBe(rps.photon)
    await syncThroughFault(address)
  })

  it('20% of calls answer 5xx: retried with backoff, nothing lost or doubled', async () => {
    // 8 tries: a 20% storm defeats a call with p = 0.2^8 ≈ 3·10⁻⁶, so the story does not flake.
    fx = await startSyncFixture({ engine, retry: { transientAttempts: 8 } })
    const address = await fx.watch('compressed-holder')
    await injectFault(fx.sim.url, { target: '*', kind: 'error', status: 503, rate: 0.2 })

    await syncThroughFault(address)
    expect(await failedCalls(fx, 'ServerError')).toBeGreaterThan(0)
  })

  it('timeouts: the client gives up after its timeout and the call is retried', async () => {
    fx = await startSyncFixture({ engine, timeoutMs: 250 })
    const address = await fx.watch('casual')
    await injectFault(fx.sim.url, { target: '*', kind: 'timeout', count: 3 })

    await syncThroughFault(address)
    expect(await failedCalls(fx, 'TimeoutError')).toBe(3)
  })

  it.each([
    ['malformed JSON', 'malformed'],
    ['truncated bodies', 'truncated'],
  ] as const)(
    '%s: the page is refetched, never half-stored; the paid call is in the ledger',
    async (_label, kind) => {
      fx = await startSyncFixture({ engine })
      const address = await fx.watch('failed-transactions')
      await injectFault(fx.sim.url, { target: '*', kind, count: 4 })

      await syncThroughFault(address)
      // The service charged for the garbled answers; the ledger says so (equality is checked above).
      expect(await failedCalls(fx, 'InvalidResponseError')).toBe(4)
    },
  )

  it('schema drift on wallet.history pauses only history, stores nothing of that page, and a retry completes it', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('casual')
    const syncEngine = fx.runtime.engine
    const walletId = (await syncEngine.writer.walletId(address)) as number
    // Item 40 of the first page gets a fee that is not a number; items 0–39 are fine.
    await injectFault(fx.sim.url, {
      target: 'wallet.history',
      kind: 'drift',
      drift: 'wrongType',
      field: 'data.40.fee',
    })

    const outcome = await syncEngine.syncWallet(address)

    expect(outcome.state).toBe('paused')
    const byStream = Object.fromEntries(outcome.streams.map((s) => [s.stream, s]))
    expect(byStream.history?.state).toBe('paused')
    for (const stream of ALL_STREAMS.filter((s) => s !== 'history'))
      expect(byStream[stream]?.state, stream).toBe('ok')
    const history = await syncEngine.writer.stream(walletId, 'history')
    expect(history.isPaused).toBe(true)
    expect(history.lastError).toContain('wallet.history')
    expect(history.lastError).toContain(address)
    expect(history.lastError).toMatch(/data\W+40\W+fee/)
    // Nothing of the page is stored — not even the 40 valid items before the bad one.
    const mirror = await readMirror(fx.db, address)
    expect(mirror.transactions).toHaveLength(0)
    expect(mirror.changes).toHaveLength(0)
    expect(history.itemsStored).toBe(0)
    // The other streams are complete.
    const truth = await readWalletTruth(fx.sim.url, address)
    expect(mirror.transfers).toHaveLength(truth.transfers.length)

    // While paused, a sync leaves history alone: no history call is made.
    const historyCalls = await simulatorCalls(fx.sim.url, 'wallet.history')
    expect((await syncEngine.syncWallet(address)).streams.map((s) => s.stream)).not.toContain(
      'history',
    )
    expect(await simulatorCalls(fx.sim.url, 'wallet.history')).toBe(historyCalls)
    expect((await syncEngine.writer.stream(walletId, 'history')).isPaused).toBe(true)

    // The service is fixed; the user retries.
    await clearFaults(fx.sim.url)
    await syncEngine.retryStream(address, 'history')
    const retried = await syncEngine.syncWallet(address)
    expect(retried.state, JSON.stringify(retried)).toBe('ok')
    expect(retried.newTransactions).toBe(truth.txCount)
    expect(await syncEngine.writer.stream(walletId, 'history')).toMatchObject({
      isPaused: false,
      lastError: null,
    })
    // The drifted call (billed: the service answered 200), none while paused, one to backfill 64.
    expect(await ledgerCalls(fx.db, 'wallet.history', address)).toBe(2)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })
})
