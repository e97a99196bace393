import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import { endOfDaySec } from '../../../src-main/app/balances-at'
import { setDepthLimit } from '../../../src-main/db/queries/sync-status'
import { PROFILE_IDS } from '../../../src-main/simulator/chain/wallet-profiles'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'

// Balance at a date (issue 14): rebuilt from the mirror's balance changes (free, offline)
// must equal what the service's balance-at answers, on every simulator profile at 20 dates.

const DATES_PER_PROFILE = 20

describe.each(ENGINES)('balance at a date: the mirror and the service agree (on %s)', (engine) => {
  let fx: SyncFixture
  beforeAll(async () => {
    fx = await startSyncFixture({ engine })
  })
  afterAll(() => fx?.stop())

  for (const profile of PROFILE_IDS) {
    it(`${profile}: local equals balance-at at ${DATES_PER_PROFILE} dates`, async () => {
      const address = await fx.watch(profile)
      const walletId = (await fx.mirror.writer.walletId(address)) as number
      // The whale's million transactions are kept to the newest 1,000: there the mirror
      // walks the latest snapshot back instead of summing from the start.
      const isDeep = profile === 'whale'
      if (isDeep) await setDepthLimit(fx.db, walletId, { maxTransactions: 1_000, sinceSec: null })
      expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
      const times = await fx.db
        .selectFrom('transactions')
        .select((eb) => [
          eb.fn.min('block_time_sec').as('first'),
          eb.fn.max('block_time_sec').as('last'),
        ])
        .where('wallet_id', '=', walletId)
        .executeTakeFirstOrThrow()
      const nowSec = fx.sim.chain.clock.nowSec()
      // A whole history is covered from before its first transaction; a partial one from
      // the first day it holds completely.
      const first = isDeep
        ? (times.first as number)
        : Math.min(times.first ?? nowSec, nowSec - 40 * 86_400) - 2 * 86_400
      if (isDeep) {
        const before = await fx.mirror.review.balancesAt(address, (times.first as number) - 86_400)
        expect(before.covered).toBe(false)
        expect(before.reason).toMatch(/does not reach back/)
      }
      // Twenty days' ends; the whale's 1,000 transactions span hours, so twenty instants.
      const points = new Map<string, number>()
      for (let i = 0; i < DATES_PER_PROFILE; i++) {
        const t = Math.floor(first + ((nowSec - first) * i) / (DATES_PER_PROFILE - 1))
        const date = new Date(t * 1000).toISOString().slice(0, 10)
        if (isDeep) points.set(new Date(t * 1000).toISOString(), t)
        else points.set(date, endOfDaySec(date))
      }
      let compared = 0
      for (const [date, atSec] of points) {
        const local = await fx.mirror.review.balancesAt(address, atSec)
        expect(local.covered, `${profile} ${date}: ${local.reason}`).toBe(true)
        const localText = new Map(
          local.balances.map((b) => [b.mint, decimalFromRaw(b.raw, b.decimals)]),
        )
        const mints = new Set([NATIVE_SOL_MINT, ...local.mints.map((m) => m.mint)])
        for (const mint of mints) {
          const answer = await fx.runtime.engine.callFor(address, 'wallet.balanceAt', {
            wallet: address,
            mint: mint === NATIVE_SOL_MINT ? BALANCE_AT_NATIVE_SOL_MINT : mint,
            time: atSec,
          })
          const service = decimalFromRaw(answer.balanceRaw, answer.decimals)
          expect(localText.get(mint) ?? '0', `${profile} ${date} ${mint}`).toBe(service)
          compared++
        }
      }
      expect(points.size).toBe(DATES_PER_PROFILE)
      expect(compared).toBeGreaterThan(0)
    }, 120_000)
  }
})
