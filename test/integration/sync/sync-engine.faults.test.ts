import { afterEach, describe, expect, it } from 'vitest'
import type { FaultSpec } from '../../../src-main/simulator/fault-injector'
import type { StreamName } from '../../../src-main/db/mirror-writer'
import { readMirror } from '../../helpers/mirror-contents'
import { readWalletTruth } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { expectMirrorEqualsTruth, simulatorCalls } from './mirror-truth-assertions'

// Issue 5, "Done means": faults injected by the simulator leave no bad row, and the final
// mirror is correct once they stop. Issue 46: drift on one item keeps that item aside and
// writes the rest; an answer unreadable as a whole is asked again, and never stops a wallet.

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

  it('one history entry the edge cannot read is kept aside with its reason; the rest of the page is written and the cursor moves on', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('casual')
    const syncEngine = fx.runtime.engine
    const walletId = (await syncEngine.writer.walletId(address)) as number
    const truth = await readWalletTruth(fx.sim.url, address)
    // Item 40 of the first page (newest first) gets a fee that is not a number, once.
    await injectFault(fx.sim.url, {
      target: 'wallet.history',
      kind: 'drift',
      drift: 'wrongType',
      field: 'data.40.fee',
      count: 1,
    })
    const odd = truth.history[truth.txCount - 1 - 40] as { signature: string }

    const outcome = await syncEngine.syncWallet(address)

    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    for (const stream of ALL_STREAMS)
      expect(outcome.streams.find((s) => s.stream === stream)?.state, stream).toBe('ok')
    const history = await syncEngine.writer.stream(walletId, 'history')
    expect(history).toMatchObject({ isPaused: false, lastError: null, isBackfillComplete: true })
    // Every other entry is stored, and their balance changes; the odd one is not.
    const mirror = await readMirror(fx.db, address)
    expect(mirror.transactions).toHaveLength(truth.txCount - 1)
    expect(mirror.transactions.some((t) => t.signature === odd.signature)).toBe(false)
    expect(history.itemsStored).toBe(truth.txCount - 1)
    // It is kept aside, whole, with what was wrong.
    const kept = await fx.mirror.keptAside.list()
    expect(kept).toHaveLength(1)
    expect(kept[0]).toMatchObject({
      walletAddress: address,
      stream: 'history',
      operation: 'wallet.history',
      key: odd.signature,
      seenCount: 1,
      writtenAtSec: null,
    })
    expect(kept[0]?.reason).toMatch(/^fee: .*expected number/)
    expect(JSON.parse(kept[0]?.rawJson ?? '{}')).toMatchObject({ signature: odd.signature })
    expect(await fx.mirror.keptAside.counts()).toMatchObject([
      { walletAddress: address, stream: 'history', count: 1 },
    ])

    // The next sync asks only for what is new, and reads the kept item again: still unreadable.
    await clearFaults(fx.sim.url)
    const calls = await simulatorCalls(fx.sim.url, 'wallet.history')
    const again = await syncEngine.syncWallet(address)
    expect(again.state).toBe('ok')
    expect(again.newTransactions).toBe(0)
    expect(await simulatorCalls(fx.sim.url, 'wallet.history')).toBe(calls + 1)
    expect(await fx.mirror.keptAside.list()).toHaveLength(1)
  })

  it('an answer the edge cannot read as a whole is asked again with backoff; when it keeps coming, the stream says so and the next sync asks again', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('casual')
    const syncEngine = fx.runtime.engine
    const walletId = (await syncEngine.writer.walletId(address)) as number
    // Twice an answer without its pagination: the third answer is read.
    await injectFault(fx.sim.url, {
      target: 'wallet.history',
      kind: 'drift',
      drift: 'missing',
      field: 'pagination',
      count: 2,
    })
    const outcome = await syncEngine.syncWallet(address)
    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')
    expect(await failedCalls(fx, 'InvalidResponseError')).toBe(2)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)

    // Every answer unreadable: three tries, then the stream says what and why, unpaused.
    await fx.sim.addActivity(fx.sim.chain.walletByAddress(address)!, 3)
    await injectFault(fx.sim.url, {
      target: 'wallet.history',
      kind: 'drift',
      drift: 'missing',
      field: 'pagination',
    })
    const failed = await syncEngine.syncWallet(address)
    const history = failed.streams.find((s) => s.stream === 'history')
    expect(history?.state).toBe('error')
    expect(history?.error).toContain('wallet.history answered 3 times, with backoff')
    expect(history?.error).toContain('field pagination')
    expect(history?.error).toContain(address)
    expect((await syncEngine.writer.stream(walletId, 'history')).isPaused).toBe(false)
    expect(
      failed.streams.filter((s) => s.stream !== 'history').every((s) => s.state === 'ok'),
    ).toBe(true)

    // The service is fixed: the next sync, nothing asked of the person, completes it.
    await clearFaults(fx.sim.url)
    const retried = await syncEngine.syncWallet(address)
    expect(retried.state, JSON.stringify(retried)).toBe('ok')
    expect(retried.newTransactions).toBe(3)
    await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)
  })
})
