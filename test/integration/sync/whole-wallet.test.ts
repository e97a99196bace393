import { afterEach, describe, expect, it } from 'vitest'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { DEMO_SEED } from '../../../src-main/app/demo-data'
import { startSyncFixture, type SyncFixture } from '../../helpers/sync-fixture'
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

function ledgerCalls(f: SyncFixture, operation: string): number {
  const row = f.database.sqlite
    .prepare('select count(*) as n from credit_ledger where operation = ?')
    .get(operation) as { n: number }
  return row.n
}

describe('the whole wallet in the mirror', () => {
  it('nft-collector: the snapshot holds every NFT getAssetsByOwner lists, not the 100 of the balances answer', async () => {
    fx = await startSyncFixture({ sim: { seed: DEMO_SEED } })
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
    const stored = fx.database.sqlite
      .prepare(
        `select n.mint from balance_snapshot_nfts n join balance_snapshots s on s.id = n.snapshot_id
         join wallets w on w.id = s.wallet_id where w.address = ?
         and s.id = (select max(id) from balance_snapshots where wallet_id = w.id)`,
      )
      .all(address) as { mint: string }[]
    expect(ids.length).toBe(173) // the demo's collector, as the service reports it
    expect(stored.map((r) => r.mint).sort()).toEqual([...ids].sort())
    // One DAS page (10 credits) beside the balances page, not a page per 100 NFTs.
    expect(ledgerCalls(fx, 'das.getAssetsByOwner')).toBe(1)
  })

  it('compressed-holder: compressed SOL and token balances equal what Photon reports', async () => {
    fx = await startSyncFixture()
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
    const snapshot = fx.database.sqlite
      .prepare(
        `select c.* from compressed_snapshots c join wallets w on w.id = c.wallet_id
         where w.address = ? order by c.id desc limit 1`,
      )
      .get(address) as { id: number; lamports_raw: string; account_count: number }
    expect(BigInt(balance.value) > 0n).toBe(true)
    expect(snapshot.lamports_raw).toBe(BigInt(balance.value).toString())
    const storedTokens = fx.database.sqlite
      .prepare('select mint, amount_raw from compressed_snapshot_tokens where snapshot_id = ?')
      .all(snapshot.id) as { mint: string; amount_raw: string }[]
    expect(storedTokens.map((t) => `${t.mint} ${t.amount_raw}`).sort()).toEqual(
      tokens.value.items.map((t) => `${t.mint} ${BigInt(t.balance).toString()}`).sort(),
    )
    expect(snapshot.account_count).toBe(accounts.value.items.length)
  })

  it('a wallet without compressed activity spends nothing on compressed state', async () => {
    fx = await startSyncFixture()
    const address = await fx.watch('casual')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    expect(ledgerCalls(fx, 'compression.getCompressedBalanceByOwner')).toBe(0)
    expect(ledgerCalls(fx, 'compression.getCompressedAccountsByOwner')).toBe(0)
  })

  it('names: the counterparties the service names, in ⌈unnamed / 100⌉ calls, never twice a period', async () => {
    fx = await startSyncFixture()
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
      fx.database.sqlite
        .prepare(
          `select distinct counterparty as a from transfers
           where counterparty not in (select address from wallets) order by 1`,
        )
        .all() as { a: string }[]
    ).map((r) => r.a)
    expect(counterparties.length).toBeGreaterThan(0)
    expect(ledgerCalls(fx, 'wallet.batchIdentity')).toBe(Math.ceil(counterparties.length / 100))

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
    const stored = fx.database.sqlite
      .prepare('select address, status, name from address_names')
      .all() as { address: string; status: string; name: string | null }[]
    const byAddress = new Map(stored.map((r) => [r.address, r]))
    for (const a of counterparties) {
      const row = byAddress.get(a)
      expect(row, a).toBeDefined()
      expect(row?.name ?? null, a).toBe(named.get(a) ?? null)
    }

    // Each watched wallet's own identity and funder were asked once.
    expect(ledgerCalls(fx, 'wallet.identity')).toBe(profiles.length)
    expect(ledgerCalls(fx, 'wallet.fundedBy')).toBe(profiles.length)

    // A second sync within the period asks nothing again.
    for (const a of addresses) expect((await fx.runtime.engine.syncWallet(a)).state).toBe('ok')
    expect(await fx.runtime.engine.nameCounterparties()).toBe(0)
    expect(ledgerCalls(fx, 'wallet.batchIdentity')).toBe(Math.ceil(counterparties.length / 100))
    expect(ledgerCalls(fx, 'wallet.identity')).toBe(profiles.length)
    expect(ledgerCalls(fx, 'wallet.fundedBy')).toBe(profiles.length)
  })

  it('names: counterparties are asked 100 a call; a wallet’s sync asks only full batches, the pass after the run the rest', async () => {
    fx = await startSyncFixture()
    const address = await fx.watch('casual')
    expect((await fx.runtime.engine.syncWallet(address)).state).toBe('ok')
    await fx.runtime.engine.nameCounterparties()
    const before = ledgerCalls(fx, 'wallet.batchIdentity')
    // 250 more counterparties in the stored transfers (addresses the service cannot name).
    const walletId = (await fx.mirror.writer.walletId(address)) as number
    const insert = fx.database.sqlite.prepare(
      `insert into transfers (wallet_id, signature, block_time_sec, direction, counterparty, mint, amount, amount_text, amount_raw, decimals, symbol)
       values (?, ?, 1700000000, 'in', ?, 'So11111111111111111111111111111111111111112', 1, '1', '1000000000', 9, 'SOL')`,
    )
    for (let i = 0; i < 250; i++) insert.run(walletId, `sig${i}`, testAddress(9_000 + i))

    const afterSync = await fx.runtime.engine.syncWallet(address)
    expect(afterSync.state).toBe('ok')
    expect(ledgerCalls(fx, 'wallet.batchIdentity') - before).toBe(2)
    expect(await fx.runtime.engine.nameCounterparties()).toBe(1)
    expect(ledgerCalls(fx, 'wallet.batchIdentity') - before).toBe(3)
    const unnamed = fx.database.sqlite
      .prepare(`select count(*) as n from address_names where status = 'none'`)
      .get() as { n: number }
    expect(unnamed.n).toBeGreaterThanOrEqual(250)
    expect(await fx.runtime.engine.nameCounterparties()).toBe(0)
  })
})
