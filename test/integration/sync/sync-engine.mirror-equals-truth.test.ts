import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMirror } from '../../helpers/mirror-contents'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import type { SimulatorOptions } from '../../../src-main/simulator/simulator-server'
import { expectMirrorEqualsTruth } from './mirror-truth-assertions'

const PROFILES = [
  'idle',
  'casual',
  'active-trader',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
  'empty',
]

/**
 * A full sync of each profile wallet makes the mirror equal the truth: on each engine, and
 * once (SQLite) on the real service's variety of shapes (`variance: 'real'`), where the
 * edge must read "SOL" mints, absent cursors, null prices and names back into one form.
 */
const RUNS: [string, SimulatorOptions][] = [
  ...ENGINES.map((engine): [string, SimulatorOptions] => [engine, {}]),
  ['sqlite, on the real service’s variety', { variance: 'real' }],
]

describe.each(RUNS)(
  'sync engine on %s: a full sync of each profile wallet makes the mirror equal the truth',
  (run, sim) => {
    let fx: SyncFixture
    beforeAll(async () => {
      fx = await startSyncFixture({
        engine: run.startsWith('postgres') ? 'postgres' : 'sqlite',
        sim,
      })
    })
    afterAll(() => fx.stop())

    it.each(PROFILES)('%s', async (profile) => {
      const address = await fx.watch(profile)
      const outcome = await fx.runtime.engine.syncWallet(address)
      expect(outcome.state, JSON.stringify(outcome)).toBe('ok')

      await expectMirrorEqualsTruth(fx.db, fx.sim.url, address)

      // Every mint the history mentions is named in the mint cache (symbols for views and
      // exports), and native SOL is stored under its mint, never "SOL".
      const { walletId } = await readMirror(fx.db, address)
      const unnamed = await fx.db
        .selectFrom('balance_changes as b')
        .leftJoin('mints as m', 'm.mint', 'b.mint')
        .select('b.mint')
        .distinct()
        .where('b.wallet_id', '=', walletId)
        .where('m.symbol', 'is', null)
        .execute()
      expect(unnamed).toEqual([])
      const named = await fx.db
        .selectFrom('balance_changes')
        .select('mint')
        .where('mint', '=', 'SOL')
        .execute()
      expect(named).toEqual([])
    })
  },
)
