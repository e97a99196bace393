import type { Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { DEMO_SEED } from '../../../src-main/app/demo-data'
import type { Database } from '../../../src-main/db/schema'
import { ENGINES, startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
import { testAddress } from '../../helpers/wallets'

// The whole wallet (issue 14): every NFT DAS lists, the compressed state, names of the
// wallet, its funder and its counterparties, each asked no more often than it must be.

let fx: SyncFixture | undefined
afterEach(async () => {
  await fx?.stop()
  fx = undefined
})

/** A JSON-RPC or REST call straight to the simulator, as the truth to compare with. */
async function simCall<T>(url: string, method: string, params: unknown): Promise<T> {
  const res = await fetch(`${url}/?api-key=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
  })
  const body = (await res.json()) as { result: T }
  return body.result
}

/** Every ledger row of an operation, the free ones (a name the service has not) included. */
async function ledgerCalls(db: Kysely<Database>, operation: string): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('operation', '=', operation)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

describe.each(ENGINES)('the whole wallet in the mirror (on %s)', (engine) => {
  it('nft-collector: the snapshot holds every NFT getAssetsByOwner lists, not the 100 of the balances answer', async () => {
    fx = await startSyncFixture({ engine, sim: { seed: DEMO_SEED } })
    const address = await fx.watch('nft-collector')
    const outcome = await fx.runtime.engine.syncWallet(address)
    expect(outcome.state).toBe('ok')

    const ids: string[] = []
    for (let page = 1; ; page++) {
      const list = await simCall<{ items: { id: string }[] }>(fx.sim.url, 'getAssetsByOwner', {
        ownerAddress: address,
        page,
        limit: DAS_MAX_LIMIT,
      })
      ids.push(...list.items.map((a) => a.id))
      if (list.items.length < DAS_MAX_LIMIT) break
    }
    const walletId = (await fx.mirror.writer.walletId(address)) as number
    const stored = await fx.db
      .selectFrom('balance_snapshot_nfts')
      .select('mint')
      .where(
        'snapshot_id',
        '=',
        fx.db
          .selectFrom('balance_snapshots')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('wallet_id', '=', walletId),
      )
      .execute()
    expect(ids.length).toBe(173) // the demo's collector, as the service reports it
    expect(stored.map((r) => r.mint).sort()).toEqual([...ids].sort())
    // One DAS page (10 credits) beside the balances page, not a page per 100 NFTs.
    expect(await ledgerCalls(fx.db, 'das.getAssetsByOwner')).toBe(1)
  })

  it('compressed-holder: compressed SOL and token balances equal what Photon reports', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('compressed-holder')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    const balance = await simCall<{ value: number }>(fx.sim.url, 'getCompressedBalanceByOwner', {
      owner: address,
    })
    const tokens = await simCall<{ value: { items: { mint: string; balance: number }[] } }>(
      fx.sim.url,
      'getCompressedTokenBalancesByOwnerV2',
      { owner: address },
    )
    const accounts = await simCall<{ value: { items: { hash: string }[] } }>(
      fx.sim.url,
      'getCompressedAccountsByOwner',
      { owner: address },
    )
    const snapshot = await fx.db
      .selectFrom('compressed_snapshots as c')
      .innerJoin('wallets as w', 'w.id', 'c.wallet_id')
      .select(['c.id', 'c.lamports_raw', 'c.account_count'])
      .where('w.address', '=', address)
      .orderBy('c.id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow()
    expect(BigInt(balance.value) > 0n).toBe(true)
    expect(snapshot.lamports_raw).toBe(BigInt(balance.value).toString())
    const storedTokens = await fx.db
      .selectFrom('compressed_snapshot_tokens')
      .select(['mint', 'amount_raw'])
      .where('snapshot_id', '=', snapshot.id)
      .execute()
    expect(storedTokens.map((t) => `${t.mint} ${t.amount_raw}`).sort()).toEqual(
      tokens.value.items.map((t) => `${t.mint} ${BigInt(t.balance).toString()}`).sort(),
    )
    expect(snapshot.account_count).toBe(accounts.value.items.length)
  })

  it('a wallet without compressed activity spends nothing on compressed state', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('casual')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    expect(await ledgerCalls(fx.db, 'compression.getCompressedBalanceByOwner')).toBe(0)
    expect(await ledgerCalls(fx.db, 'compression.getCompressedAccountsByOwner')).toBe(0)
  })

  it('names: the counterparties the service names, in ⌈unnamed / 100⌉ calls, never twice a period', async () => {
    fx = await startSyncFixture({ engine })
    const profiles = [
      'casual',
      'nft-collector',
      'compressed-holder',
      'failed-transactions',
      'active-trader',
    ]
    const addresses = []
    for (const p of profiles) addresses.push(await fx.watch(p))
    for (const a of addresses) expect((await fx.runtime.engine.syncWallet(a)).state).toBe('ok')
    await fx.runtime.engine.nameCounterparties()

    const counterparties = (
      await fx.db
        .selectFrom('transfers')
        .select('counterparty')
        .distinct()
        .where('counterparty', 'not in', fx.db.selectFrom('wallets').select('address'))
        .orderBy('counterparty')
        .execute()
    ).map((r) => r.counterparty)
    expect(counterparties.length).toBeGreaterThan(0)
    expect(await ledgerCalls(fx.db, 'wallet.batchIdentity')).toBe(
      Math.ceil(counterparties.length / 100),
    )

    // Every counterparty the simulator names carries that name; the rest are kept as unnamed.
    const named = new Map<string, string>()
    for (let i = 0; i < counterparties.length; i += 100) {
      const res = await fetch(`${fx.sim.url}/v1/wallet/batch-identity?api-key=demo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ addresses: counterparties.slice(i, i + 100) }),
      })
      for (const id of (await res.json()) as { address: string; name: string }[])
        named.set(id.address, id.name)
    }
    expect(named.size).toBeGreaterThan(0)
    const stored = await fx.db
      .selectFrom('address_names')
      .select(['address', 'status', 'name'])
      .execute()
    const byAddress = new Map(stored.map((r) => [r.address, r]))
    for (const a of counterparties) {
      const row = byAddress.get(a)
      expect(row, a).toBeDefined()
      expect(row?.name ?? null, a).toBe(named.get(a) ?? null)
    }

    // Each watched wallet's own identity and funder were asked once.
    expect(await ledgerCalls(fx.db, 'wallet.identity')).toBe(profiles.length)
    expect(await ledgerCalls(fx.db, 'wallet.fundedBy')).toBe(profiles.length)

    // A second sync within the period asks nothing again.
    for (const a of addresses) expect((await fx.runtime.engine.syncWallet(a)).state).toBe('ok')
    expect(await fx.runtime.engine.nameCounterparties()).toBe(0)
    expect(await ledgerCalls(fx.db, 'wallet.batchIdentity')).toBe(
      Math.ceil(counterparties.length / 100),
    )
    expect(await ledgerCalls(fx.db, 'wallet.identity')).toBe(profiles.length)
    expect(await ledgerCalls(fx.db, 'wallet.fundedBy')).toBe(profiles.length)
  })

  it('names: counterparties are asked 100 a call; a wallet’s sync asks only full batches, the pass after the run the rest', async () => {
    fx = await startSyncFixture({ engine })
    const address = await fx.watch('casual')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    await fx.runtime.engine.nameCounterparties()
    const before = await ledgerCalls(fx.db, 'wallet.batchIdentity')
    // 250 more counterparties in the stored transfers (addresses the service cannot name).
    const walletId = (await fx.mirror.writer.walletId(address)) as number
    await fx.db
      .insertInto('transfers')
      .values(
        Array.from({ length: 250 }, (_, i) => ({
          wallet_id: walletId,
          signature: `sig${i}`,
          block_time_sec: 1_700_000_000,
          direction: 'in',
          counterparty: testAddress(9_000 + i),
          mint: 'So11111111111111111111111111111111111111112',
          amount: 1,
          amount_text: '1',
          amount_raw: '1000000000',
          decimals: 9,
          symbol: 'SOL',
        })),
      )
      .execute()

    const afterSync = await fx.runtime.engine.syncWallet(address)
    expect(afterSync.state).toBe('ok')
    expect((await ledgerCalls(fx.db, 'wallet.batchIdentity')) - before).toBe(2)
    expect(await fx.runtime.engine.nameCounterparties()).toBe(1)
    expect((await ledgerCalls(fx.db, 'wallet.batchIdentity')) - before).toBe(3)
    const unnamed = await fx.db
      .selectFrom('address_names')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'none')
      .executeTakeFirstOrThrow()
    expect(Number(unnamed.n)).toBeGreaterThanOrEqual(250)
    expect(await fx.runtime.engine.nameCounterparties()).toBe(0)
  })
})
