import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServiceClient } from '../../../src-main/service/service-client'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { ProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import { PROFILE_IDS } from '../../../src-main/simulator/chain/wallet-profiles'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { startTestSimulator } from './sim-test-helpers'

// For each profile wallet (seed 7): walking history both ways visits every transaction once
// and in order; balances equal the sum of balance changes; transfers ⊆ history; DAS,
// balances' NFTs and compressed data agree.

let sim: RunningSimulator
let client: ServiceClient
let address: (p: ProfileId) => string

beforeAll(async () => {
  ;({ sim, client, address } = await startTestSimulator())
})
afterAll(async () => {
  await sim.close()
})

/** Raw integer of a decimal-adjusted amount (exact for amounts below 2^53 raw). */
const toRaw = (amount: number, decimals: number) => BigInt(Math.round(amount * 10 ** decimals))

async function walkBefore(wallet: string, maxPages = Infinity): Promise<HistoryEntry[]> {
  const all: HistoryEntry[] = []
  let before: string | undefined
  for (let page = 0; page < maxPages; page++) {
    const res = await client.wallet.history({ wallet, limit: 100, ...(before ? { before } : {}) })
    all.push(...res.data)
    if (!res.pagination.hasMore) break
    expect(res.pagination.nextCursor).toBe(res.data[res.data.length - 1]?.signature)
    before = res.pagination.nextCursor ?? undefined
  }
  return all
}

async function walkAfter(
  wallet: string,
  from: string,
  maxPages = Infinity,
): Promise<HistoryEntry[]> {
  const all: HistoryEntry[] = []
  let after = from
  for (let page = 0; page < maxPages; page++) {
    const res = await client.wallet.history({ wallet, limit: 100, after })
    all.push(...res.data)
    if (!res.pagination.hasMore) break
    after = res.pagination.nextCursor ?? ''
  }
  return all
}

const smallProfiles = PROFILE_IDS.filter((p) => p !== 'whale')

describe.each(smallProfiles)('profile %s', (profile) => {
  it('walks history with before (newest → oldest) and after (oldest → newest) over every transaction once, in order', async () => {
    const wallet = sim.chain.walletByProfile(profile)
    const count = sim.chain.txCount(wallet)
    const desc = await walkBefore(wallet.address)
    expect(desc.length).toBe(count)
    expect(new Set(desc.map((e) => e.signature)).size).toBe(count)
    for (let i = 1; i < desc.length; i++) expect(desc[i - 1]!.slot).toBeGreaterThan(desc[i]!.slot)
    if (count === 0) return
    const oldest = desc[desc.length - 1]!
    const asc = await walkAfter(wallet.address, oldest.signature)
    expect([oldest, ...asc].map((e) => e.signature)).toEqual(
      [...desc].reverse().map((e) => e.signature),
    )
  })

  it('has balances equal to the sum of its balance changes, and NFTs equal to the +1 NFT changes', async () => {
    const wallet = address(profile)
    const history = await walkBefore(wallet)
    const sums = new Map<string, bigint>()
    for (const entry of history) {
      for (const c of entry.balanceChanges)
        sums.set(c.mint, (sums.get(c.mint) ?? 0n) + toRaw(c.amount, c.decimals))
      if (entry.error !== null) expect(entry.balanceChanges.every((c) => c.amount < 0)).toBe(true)
    }
    const balances = await client.wallet.balances({ wallet, showZeroBalance: true, showNfts: true })
    expect(balances.balances[0]?.mint).toBe('So11111111111111111111111111111111111111112')
    const fungible = new Map(balances.balances.map((b) => [b.mint, toRaw(b.balance, b.decimals)]))
    for (const [mint, raw] of sums) {
      if (fungible.has(mint)) expect(fungible.get(mint), mint).toBe(raw)
      else expect(raw, `NFT ${mint}`).toBe(1n)
    }
    for (const [mint, raw] of fungible) expect(sums.get(mint) ?? 0n, mint).toBe(raw)
    const heldNfts = [...sums].filter(([m]) => !fungible.has(m)).map(([m]) => m)
    const balanceNfts = (balances.nfts ?? []).filter((n) => !n.compressed).map((n) => n.mint)
    expect(balanceNfts.every((m) => heldNfts.includes(m))).toBe(true)
    const usd = balances.balances.slice(1).map((b) => b.usdValue ?? 0)
    expect(usd).toEqual([...usd].sort((a, b) => b - a))
  })

  it('lists only transfers that appear in its history with matching changes', async () => {
    const wallet = address(profile)
    const history = new Map((await walkBefore(wallet)).map((e) => [e.signature, e]))
    let cursor: string | undefined
    let seen = 0
    do {
      const page = await client.wallet.transfers({
        wallet,
        limit: 100,
        ...(cursor ? { cursor } : {}),
      })
      for (const t of page.data) {
        const entry = history.get(t.signature)
        expect(entry, t.signature).toBeDefined()
        const change = entry!.balanceChanges.find((c) => c.mint === t.mint)
        expect(change, `${t.signature} ${t.mint}`).toBeDefined()
        expect(BigInt(t.amountRaw)).toBe(toRaw(t.amount, t.decimals))
        const isSol = t.mint === 'So11111111111111111111111111111111111111112'
        const net =
          toRaw(change!.amount, change!.decimals) +
          (isSol && entry!.feePayer === wallet ? toRaw(entry!.fee, 9) : 0n)
        expect(net, `${t.signature} ${t.mint}`).toBe(
          t.direction === 'in' ? BigInt(t.amountRaw) : -BigInt(t.amountRaw),
        )
        seen++
      }
      cursor = page.pagination.hasMore ? (page.pagination.nextCursor ?? undefined) : undefined
    } while (cursor)
    expect(seen > 0 || history.size === 0).toBe(true)
  })

  it('agrees between DAS, balances NFTs and compressed data', async () => {
    const wallet = address(profile)
    const das = await client.das.getAssetsByOwner({
      ownerAddress: wallet,
      limit: 1000,
      options: { showGrandTotal: true },
    })
    const balances = await client.wallet.balances({ wallet, showNfts: true })
    const ids = das.items.map((a) => a.id)
    expect(balances.nfts?.length).toBe(Math.min(100, ids.length))
    for (const nft of balances.nfts ?? []) {
      const asset = das.items.find((a) => a.id === nft.mint)
      expect(asset, nft.mint).toBeDefined()
      expect(asset!.compression?.compressed).toBe(nft.compressed)
      expect(asset!.ownership.owner).toBe(wallet)
    }
    const accounts = await client.compression.getCompressedAccountsByOwner({ owner: wallet })
    const balance = await client.compression.getCompressedBalanceByOwner({ owner: wallet })
    expect(balance.value).toBe(accounts.value.items.reduce((s, a) => s + a.lamports, 0))
    const sigs = await client.compression.getCompressionSignaturesForOwner({ owner: wallet })
    const tokenSigs = await client.compression.getCompressionSignaturesForTokenOwner({
      owner: wallet,
    })
    const tokenBalances = await client.compression.getCompressedTokenBalancesByOwnerV2({
      owner: wallet,
    })
    const opened = new Map<string, bigint>()
    const ownHashes = new Set<string>()
    for (const s of sigs.value.items) {
      const info = await client.compression.getTransactionWithCompressionInfo({
        signature: s.signature,
      })
      for (const o of info.compression_info.openedAccounts) {
        if (o.optionalTokenData)
          opened.set(
            o.optionalTokenData.mint,
            (opened.get(o.optionalTokenData.mint) ?? 0n) + BigInt(o.optionalTokenData.amount),
          )
        else ownHashes.add(o.account.hash)
      }
    }
    expect(new Set(accounts.value.items.map((a) => a.hash))).toEqual(ownHashes)
    expect(new Map(tokenBalances.value.items.map((b) => [b.mint, BigInt(b.balance)]))).toEqual(
      opened,
    )
    expect(
      tokenSigs.value.items.every((t) => sigs.value.items.some((s) => s.signature === t.signature)),
    ).toBe(true)
    for (let i = 1; i < sigs.value.items.length; i++)
      expect(sigs.value.items[i - 1]!.slot).toBeGreaterThan(sigs.value.items[i]!.slot)
    if (profile === 'compressed-holder') expect(accounts.value.items.length).toBeGreaterThan(0)
    if (profile === 'nft-collector') expect(ids.length).toBeGreaterThan(100)
  })
})

describe('whale (1,000,000 transactions)', () => {
  it('pages continuously at both ends', async () => {
    const wallet = sim.chain.walletByProfile('whale')
    expect(sim.chain.txCount(wallet)).toBe(1_000_000)
    const newest = await walkBefore(wallet.address, 5)
    expect(newest.length).toBe(500)
    expect(newest.map((e) => e.signature)).toEqual(
      Array.from({ length: 500 }, (_, k) => sim.chain.signatureOf(wallet, 999_999 - k)),
    )
    const oldestSig = sim.chain.signatureOf(wallet, 0)
    const oldest = await walkAfter(wallet.address, oldestSig, 5)
    expect(oldest.map((e) => e.signature)).toEqual(
      Array.from({ length: 500 }, (_, k) => sim.chain.signatureOf(wallet, k + 1)),
    )
    // A deep cursor resolves directly.
    const deep = await client.wallet.history({
      wallet: wallet.address,
      limit: 100,
      before: sim.chain.signatureOf(wallet, 500_000),
    })
    expect(deep.data[0]?.signature).toBe(sim.chain.signatureOf(wallet, 499_999))
    const end = await client.wallet.history({
      wallet: wallet.address,
      limit: 100,
      before: sim.chain.signatureOf(wallet, 50),
    })
    expect(end.data.length).toBe(50)
    expect(end.pagination.hasMore).toBe(false)
  })

  it('has closed-form balances that match the sum of a full block walk', () => {
    const wallet = sim.chain.walletByProfile('whale')
    const sums = sim.chain.mints.map(() => 0n)
    for (let i = 0; i < 4_003; i++)
      for (const c of sim.chain.tx(wallet, i).changes)
        if (c.mint >= 0) sums[c.mint] = (sums[c.mint] ?? 0n) + c.raw
    expect(sim.chain.balancesAfter(wallet, 4_003)).toEqual(sums)
  })
})

describe('live activity', () => {
  it('appends at the newest end, visible in history, transfers, balances and signatures', async () => {
    const wallet = sim.chain.walletByProfile('casual')
    const before = sim.chain.txCount(wallet)
    const newestBefore = (await client.wallet.history({ wallet: wallet.address, limit: 1 }))
      .data[0]!
    sim.chain.clock.advance(3_600)
    const res = await fetch(`${sim.url}/__sim/activity`, {
      method: 'POST',
      body: JSON.stringify({ wallet: 'casual', count: 3 }),
    })
    const added = (await res.json()) as { signatures: string[]; txCount: number }
    expect(added.txCount).toBe(before + 3)
    const newer = await client.wallet.history({
      wallet: wallet.address,
      after: newestBefore.signature,
    })
    expect(newer.data.map((e) => e.signature)).toEqual(added.signatures)
    expect(newer.data[0]!.timestamp ?? 0).toBeGreaterThan(newestBefore.timestamp ?? 0)
    const probe = await client.rpc.getSignaturesForAddress([wallet.address, { limit: 1 }])
    const tokenProbes = await Promise.all(
      wallet.profile.tradedMints
        .filter((m) => m !== 0)
        .map((m) =>
          client.rpc.getSignaturesForAddress([
            sim.chain.tokenAccountAddress(wallet, m),
            { limit: 1 },
          ]),
        ),
    )
    const seen = [probe, ...tokenProbes].flat().map((s) => s.signature)
    expect(seen).toContain(added.signatures[2])
  })
})
