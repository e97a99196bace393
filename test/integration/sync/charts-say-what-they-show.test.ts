import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw, rawFromDecimalText } from '@shared/domain/exact-amount'
import { rebuildBalancesAt } from '../../../src-main/db/queries/balance-at-queries'
import {
  listWalletValuePoints,
  VALUE_SERIES_MIN_SPAN_SEC,
} from '../../../src-main/db/queries/value-series-queries'
import { readWalletTruth } from '../../helpers/sim-truth'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'

// Charts say what they show (issue 14): token amounts over time come from the stored
// balance changes and equal the balances rebuilt at a date (and the simulator's truth now);
// USD value over time comes from snapshots only, compressed holdings included, and only
// once the snapshots span more than a day.

const INSTANTS = 12

/** A USD figure to the cent: sums of floats in another order differ in the last bits. */
function cents(usd: number): number {
  return Math.round(usd * 100)
}

/** Up to `n` points of a series, spread evenly, the first and last included. */
function spread<T>(points: readonly T[], n: number): T[] {
  if (points.length <= n) return [...points]
  return Array.from(
    { length: n },
    (_, i) => points[Math.round((i * (points.length - 1)) / (n - 1))] as T,
  )
}

describe.each(ENGINES)('charts say what they show (on %s)', (engine) => {
  let fx: SyncFixture
  const addresses = new Map<string, string>()

  beforeAll(async () => {
    fx = await startSyncFixture({
      engine,
      sim: { seed: 42, live: true, clock: { mode: 'manual' } },
      isOnSimulatorClock: true,
    })
    for (const profile of ['casual', 'active-trader', 'compressed-holder'])
      addresses.set(profile, await fx.watch(profile))
  })
  afterAll(() => fx?.stop())

  const syncAll = async (): Promise<Map<string, number>> => {
    const values = new Map<string, number>()
    for (const [profile, address] of addresses) {
      expect((await fx.runtime.engine.syncWallet(address)).state, profile).toBe('ok')
      values.set(profile, (await fx.mirror.review.wholeWallet(address)).valueUsd)
    }
    return values
  }

  it('value over time: nothing drawn within a day, then every snapshot with compressed holdings', async () => {
    const seen: Map<string, number>[] = [await syncAll()]
    const first = await fx.mirror.review.valueSeries(addresses.get('casual') as string)
    expect(first).toMatchObject({ source: 'snapshots', snapshotCount: 1, isDrawn: false })
    expect(first.points).toEqual([])

    // Two more syncs within the day (the compressed holder compresses meanwhile): still
    // not drawn, however far the value moved.
    for (const stepSec of [1_200, 3_600]) {
      fx.sim.chain.clock.advance(stepSec)
      seen.push(await syncAll())
    }
    const sameDay = await fx.mirror.review.watchlistValueSeries()
    expect(sameDay.isDrawn).toBe(false)
    expect(sameDay.points).toEqual([])
    expect((sameDay.lastSnapshotSec as number) - (sameDay.firstSnapshotSec as number)).toBe(4_800)

    fx.sim.chain.clock.advance(VALUE_SERIES_MIN_SPAN_SEC)
    seen.push(await syncAll())
    for (const [profile, address] of addresses) {
      const series = await fx.mirror.review.valueSeries(address)
      expect(series.isDrawn, profile).toBe(true)
      // Each point is the wallet's value as that sync left it: its tokens plus the
      // compressed state of the same sync, never a stale or missing compressed part.
      expect(
        series.points.map((p) => cents(p.valueUsd)),
        profile,
      ).toEqual(seen.map((s) => cents(s.get(profile) as number)))
      const walletId = (await fx.mirror.writer.walletId(address)) as number
      expect(await listWalletValuePoints(fx.db, walletId)).toEqual(series.points)
    }
    // The watchlist's total: a round's snapshots share the manual clock's second, so each
    // point is the sum of the wallets' values as that round left them.
    const total = await fx.mirror.review.watchlistValueSeries()
    expect(total.isDrawn).toBe(true)
    expect(total.points.map((p) => cents(p.valueUsd))).toEqual(
      seen.map((s) => cents([...s.values()].reduce((a, b) => a + b, 0))),
    )
    // The compressed holder's value includes its compressed SOL and tokens.
    const holder = await fx.mirror.review.wholeWallet(addresses.get('compressed-holder') as string)
    expect(holder.holdings.compressed.lamports).not.toBeNull()
  })

  it('token amounts over time equal the balances rebuilt from the mirror, and the truth now', async () => {
    for (const [profile, address] of addresses) {
      const walletId = (await fx.mirror.writer.walletId(address)) as number
      const truth = await readWalletTruth(fx.sim.url, address)
      const first = await fx.mirror.review.amountSeries(address, undefined)
      // SOL by default; every token the wallet held is a choice.
      expect(first.mint, profile).toBe(NATIVE_SOL_MINT)
      expect(first.source).toBe('balance-changes')
      expect(first.choices.length).toBeGreaterThan(1)
      let compared = 0
      for (const choice of first.choices.slice(0, 4)) {
        const series = await fx.mirror.review.amountSeries(address, choice.mint)
        expect(series.covered, `${profile} ${choice.mint}: ${series.reason}`).toBe(true)
        expect(series.points.length).toBeGreaterThan(0)
        for (const point of spread(series.points, INSTANTS)) {
          const local = await rebuildBalancesAt(fx.db, walletId, point.atSec)
          const held = local.balances.find((b) => b.mint === choice.mint)
          const expected = held ? decimalFromRaw(held.raw, held.decimals) : '0'
          expect(point.amount, `${profile} ${choice.mint} at ${point.atSec}`).toBe(expected)
          compared++
        }
        const now = truth.balances.find((b) => b.mint === choice.mint)?.text ?? '0'
        expect(
          rawFromDecimalText(series.points.at(-1)?.amount ?? '0', series.decimals),
          `${profile} ${choice.mint} now`,
        ).toBe(rawFromDecimalText(now, series.decimals))
      }
      expect(compared).toBeGreaterThan(INSTANTS)
    }
  })

  it('the watchlist’s amount of a token is the sum of the wallets’ at every point', async () => {
    const series = await fx.mirror.review.watchlistAmountSeries(NATIVE_SOL_MINT)
    expect(series).toMatchObject({ covered: true, wallets: addresses.size, reason: null })
    const ids = await Promise.all(
      [...addresses.values()].map(async (a) => (await fx.mirror.writer.walletId(a)) as number),
    )
    for (const point of spread(series.points, INSTANTS)) {
      let sum = 0n
      for (const id of ids) {
        const at = await rebuildBalancesAt(fx.db, id, point.atSec)
        sum += BigInt(at.balances.find((b) => b.mint === NATIVE_SOL_MINT)?.raw ?? '0')
      }
      expect(point.amount, `at ${point.atSec}`).toBe(decimalFromRaw(sum.toString(), 9))
    }
  })
})
