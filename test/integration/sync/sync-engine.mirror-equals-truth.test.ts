import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decimalText } from '../../../src-shared/domain/exact-amount'
import { readMirror, transferKey } from '../../helpers/mirror-contents'
import { readWalletTruth, simulatorCredits } from '../../helpers/sim-truth'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'

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

    const truth = await readWalletTruth(fx.sim.url, address)
    const mirror = readMirror(fx.database.sqlite, address)

    // Every transaction exactly once, with its fields.
    expect(mirror.transactions.length).toBe(truth.history.length)
    const bySignature = new Map(mirror.transactions.map((t) => [t.signature, t]))
    expect(bySignature.size).toBe(truth.history.length)
    for (const entry of truth.history) {
      const row = bySignature.get(entry.signature)
      expect(row, entry.signature).toBeDefined()
      expect(row).toMatchObject({
        slot: entry.slot,
        block_time_sec: entry.timestamp,
        fee_text: decimalText(entry.fee),
        fee_payer: entry.feePayer,
        error: entry.error,
      })
    }

    // Every balance change, exactly, in order.
    const truthChanges = truth.history
      .flatMap((e) =>
        e.balanceChanges.map((c, ordinal) => ({
          signature: e.signature,
          ordinal,
          mint: c.mint,
          amount_text: decimalText(c.amount),
          decimals: c.decimals,
        })),
      )
      .sort((a, b) =>
        a.signature === b.signature ? a.ordinal - b.ordinal : a.signature < b.signature ? -1 : 1,
      )
    expect(mirror.changes).toEqual(truthChanges)

    // Transfers and compression signatures as sets.
    expect(new Set(mirror.transfers.map(transferKey))).toEqual(
      new Set(truth.transfers.map(transferKey)),
    )
    expect(mirror.transfers.length).toBe(truth.transfers.length)
    expect(
      new Set(mirror.compressed.filter((c) => c.kind === 'owner').map((c) => c.signature)),
    ).toEqual(new Set(truth.compressedOwner))
    expect(
      new Set(mirror.compressed.filter((c) => c.kind === 'token-owner').map((c) => c.signature)),
    ).toEqual(new Set(truth.compressedTokenOwner))

    // Every mint the history mentions is named in the mint cache (symbols for views and exports).
    const unnamed = fx.database.sqlite
      .prepare(
        'select distinct b.mint from balance_changes b left join mints m on m.mint = b.mint where b.wallet_id = ? and m.symbol is null',
      )
      .all(mirror.walletId)
    expect(unnamed).toEqual([])

    // The ledger saw every credit the service charged.
    expect(mirror.ledgerCredits).toBe(await simulatorCredits(fx.sim.url))
  })
})
