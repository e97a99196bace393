import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMirror } from '../../helpers/mirror-contents'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
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

describe('sync engine: a full sync of each profile wallet makes the mirror equal the truth', () => {
  let fx: SyncFixture
  beforeAll(async () => {
    fx = await startSyncFixture()
  })
  afterAll(() => fx.stop())

  it.each(PROFILES)('%s', async (profile) => {
    const address = await fx.watch(profile)
    const outcome = await fx.runtime.engine.syncWallet(address)
    expect(outcome.state, JSON.stringify(outcome)).toBe('ok')

    await expectMirrorEqualsTruth(fx.database.sqlite, fx.sim.url, address)

    // Every mint the history mentions is named in the mint cache (symbols for views and exports).
    const { walletId } = readMirror(fx.database.sqlite, address)
    const unnamed = fx.database.sqlite
      .prepare(
        'select distinct b.mint from balance_changes b left join mints m on m.mint = b.mint where b.wallet_id = ? and m.symbol is null',
      )
      .all(walletId)
    expect(unnamed).toEqual([])
  })
})
