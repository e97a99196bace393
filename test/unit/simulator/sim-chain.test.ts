import { describe, expect, it } from 'vitest'
import {
  decodeTransactionSignature,
  transactionSignature,
} from '../../../src-main/simulator/chain/entity-ids'
import { formatRawAmount, rawToNumber } from '../../../src-main/simulator/chain/mints'
import { SimChain } from '../../../src-main/simulator/chain/sim-chain'
import type { SimWallet } from '../../../src-main/simulator/chain/sim-chain'
import { parseSimulatorArgs } from '../../../src-main/simulator/simulator-args'
import { applyDrift, faultTargetMatches } from '../../../src-main/simulator/fault-injector'
import { Signature } from '@shared/api/base58'

describe('synthetic chain', () => {
  it('encodes signatures as 64-byte base58 that decode back to wallet and index', () => {
    for (const [w, i] of [
      [0, 0],
      [6, 999_999],
      [3, 123],
    ] as const) {
      const sig = transactionSignature(5, w, i)
      expect(Signature.safeParse(sig).success).toBe(true)
      expect(sig.length).toBeGreaterThanOrEqual(87)
      expect(decodeTransactionSignature(5, sig)).toEqual({ walletId: w, index: i })
      expect(decodeTransactionSignature(6, sig)).toBeNull()
    }
  })

  it('derives the same transaction from (seed, wallet, index) whatever was derived before', () => {
    const a = new SimChain({ seed: 3, clock: { mode: 'manual' } })
    const b = new SimChain({ seed: 3, clock: { mode: 'manual' } })
    const wa = a.walletByProfile('whale')
    const wb = b.walletByProfile('whale')
    for (let i = 0; i < 50; i++) a.tx(wa, i)
    expect(a.tx(wa, 777_777)).toEqual(b.tx(wb, 777_777))
  })

  it('keeps timestamps and slots strictly increasing with the index', () => {
    const chain = new SimChain({ seed: 3, clock: { mode: 'manual' } })
    const w = chain.walletByProfile('active-trader')
    for (let i = 1; i < 2_000; i++) {
      expect(chain.timestampOf(w, i)).toBeGreaterThan(chain.timestampOf(w, i - 1))
      expect(chain.tx(w, i).slot).toBeGreaterThan(chain.tx(w, i - 1).slot)
    }
  })

  it('has balances after n transactions equal to the prefix sum, never negative', () => {
    const chain = new SimChain({ seed: 9, clock: { mode: 'manual' } })
    for (const w of chain.wallets) {
      const n = Math.min(chain.txCount(w), 700)
      const sums = chain.mints.map(() => 0n)
      for (let i = 0; i < n; i++) {
        for (const c of chain.tx(w, i).changes)
          if (c.mint >= 0) sums[c.mint] = (sums[c.mint] ?? 0n) + c.raw
        expect(
          sums.every((s) => s >= 0n),
          `${w.profile.id} at ${i}`,
        ).toBe(true)
        if (i % 37 === 0) expect(chain.balancesAfter(w, i + 1)).toEqual(sums)
      }
    }
  })

  it('charges only the fee for failed transactions', () => {
    const chain = new SimChain({ seed: 9, clock: { mode: 'manual' } })
    const w = chain.walletByProfile('failed-transactions')
    let failed = 0
    for (let i = 0; i < chain.txCount(w); i++) {
      const tx = chain.tx(w, i)
      if (!tx.error) continue
      failed++
      expect(tx.changes).toEqual([{ mint: 0, raw: -tx.feeLamports }])
    }
    expect(failed).toBeGreaterThan(20)
  })

  it('formats raw amounts exactly', () => {
    expect(formatRawAmount(1_234_500n, 6)).toBe('1.2345')
    expect(formatRawAmount(-5n, 9)).toBe('-0.000000005')
    expect(formatRawAmount(42n, 0)).toBe('42')
    expect(rawToNumber(123_456_789n, 6)).toBe(123.456789)
  })
})

/** Prefix sums of every transaction's balance changes (overrides included), per mint. */
function expectPrefixSums(chain: SimChain, w: SimWallet): void {
  const sums = chain.mints.map(() => 0n)
  expect(chain.balancesAfter(w, 0)).toEqual(sums)
  for (let i = 0; i < chain.txCount(w); i++) {
    for (const c of chain.tx(w, i).changes)
      if (c.mint >= 0) sums[c.mint] = (sums[c.mint] ?? 0n) + c.raw
    expect(
      sums.every((x) => x >= 0n),
      `${w.profile.id} at ${i}`,
    ).toBe(true)
    expect(chain.balancesAfter(w, i + 1), `${w.profile.id} after ${i + 1}`).toEqual(sums)
  }
}

describe('injected activity', () => {
  it('keeps balances equal to the prefix sums with injections at every block position', () => {
    const chain = new SimChain({ seed: 4, clock: { mode: 'manual' } })
    const w = chain.walletByProfile('casual')
    const start = chain.txCount(w)
    const mix = (c: SimChain, wallet: typeof w, k: number): void => {
      if (k % 4 === 0) c.injectTokenAirdrop(wallet)
      else if (k % 8 === 1) c.injectTokenPurchase(wallet, { amountRaw: 1_000n })
      else if (k % 8 === 3) c.injectTokenReceipt(wallet, { mint: c.mintsOf(wallet).at(-1)! })
      else if (k % 8 === 5) {
        const open = c.mintsOf(wallet).filter((m) => m > 0 && (c.balancesNow(wallet)[m] ?? 0n) > 0n)
        c.injectCloseAccount(wallet, { mint: open.at(-1)! })
      } else if (k % 8 === 7) c.injectActivity(wallet, { kind: 'failed-swap' })
      else c.injectSilent(wallet, k % 2 === 0 ? 'failed' : 'memo')
    }
    for (let k = 0; k < 20; k++) {
      chain.clock.advance(60)
      mix(chain, w, k)
      // Reading between injections caches blocks the next injection must not leave stale.
      chain.balancesNow(w)
      chain.appendActivity(w, k % 3)
    }
    const injected = [...w.overrides.keys()]
    expect(new Set(injected.map((i) => i % 8)).size).toBe(8)
    expectPrefixSums(chain, w)
    // A fresh chain given the same injections in the same order derives the same history.
    const again = new SimChain({ seed: 4, clock: { mode: 'manual' } })
    const w2 = again.walletByProfile('casual')
    for (let k = 0; k < 20; k++) {
      again.clock.advance(60)
      mix(again, w2, k)
      again.appendActivity(w2, k % 3)
    }
    for (let i = start; i < chain.txCount(w); i++) expect(again.tx(w2, i)).toEqual(chain.tx(w, i))
  })

  it('airdrops a mint the wallet never held, paid by the sender, and refuses a held one', () => {
    const chain = new SimChain({ seed: 4, clock: { mode: 'manual' } })
    const w = chain.walletByProfile('idle')
    const before = chain.balancesNow(w)
    const tx = chain.injectTokenAirdrop(w)
    const [change] = tx.changes
    expect(tx.feePayer).toBeGreaterThanOrEqual(0)
    expect(w.profile.tradedMints).not.toContain(change?.mint)
    const after = chain.balancesNow(w)
    expect(after[0]).toBe(before[0])
    expect(after[change!.mint]).toBe(change!.raw)
    expect(() => chain.injectTokenAirdrop(w, { mint: change!.mint })).toThrow(/held/)
    expect(() => chain.injectTokenAirdrop(w, { mint: 0 })).toThrow(/held|SOL/)
  })
})

describe('populations', () => {
  it('builds the watch-day wallets deterministically, with ids apart from the default ones', () => {
    const a = new SimChain({ seed: 5, clock: { mode: 'manual' }, population: 'watch-day' })
    const b = new SimChain({ seed: 5, clock: { mode: 'manual' }, population: 'watch-day' })
    expect(a.wallets.map((w) => w.address)).toEqual(b.wallets.map((w) => w.address))
    expect(a.wallets.map((w) => w.profile.tradedMints)).toEqual(
      b.wallets.map((w) => w.profile.tradedMints),
    )
    expect(Math.min(...a.wallets.map((w) => w.id))).toBeGreaterThanOrEqual(
      new SimChain({ seed: 5 }).wallets.length,
    )
    for (const w of a.wallets) expectPrefixSums(a, w)
    expect(a.population.live.map((p) => a.walletById(p.walletId)?.profile.id)).toEqual([
      'watch-active',
      'watch-active',
      'watch-active',
      'watch-nft-compressed',
    ])
  })

  it('builds the backfill population: 20 wallets of the default profiles, ids apart from the others', () => {
    const chain = new SimChain({ seed: 5, clock: { mode: 'manual' }, population: 'backfill' })
    expect(chain.wallets).toHaveLength(20)
    const perProfile = new Map<string, number>()
    for (const w of chain.wallets)
      perProfile.set(w.profile.id, (perProfile.get(w.profile.id) ?? 0) + 1)
    expect(Object.fromEntries(perProfile)).toEqual({
      whale: 3,
      'active-trader': 4,
      'compressed-holder': 4,
      'nft-collector': 3,
      casual: 2,
      'failed-transactions': 2,
      idle: 1,
      empty: 1,
    })
    const others = [
      ...new SimChain({ seed: 5, clock: { mode: 'manual' } }).wallets,
      ...new SimChain({ seed: 5, clock: { mode: 'manual' }, population: 'watch-day' }).wallets,
    ].map((w) => w.address)
    expect(chain.wallets.filter((w) => others.includes(w.address))).toEqual([])
    expect(new Set(chain.wallets.map((w) => w.address)).size).toBe(20)
  })

  it('switches kind weights by phase: NFT buys first, then compressions', () => {
    const chain = new SimChain({ seed: 5, clock: { mode: 'manual' }, population: 'watch-day' })
    const w = chain.walletByProfile('watch-nft-compressed')
    const kinds = (from: number, to: number) => {
      const out = new Set<string>()
      for (let i = from; i < to; i++) out.add(chain.tx(w, i).kind)
      return out
    }
    expect(kinds(1, 201)).toEqual(new Set(['nftBuy', 'balancing']))
    expect(kinds(201, chain.txCount(w))).toEqual(new Set(['compress', 'balancing']))
  })
})

describe('simulator arguments and faults', () => {
  it('parses the CLI flags and refuses bad ones', () => {
    expect(
      parseSimulatorArgs([
        '--port',
        '8899',
        '--seed=5',
        '--plan',
        'free',
        '--live',
        '--keys',
        'a,b',
      ]),
    ).toMatchObject({
      port: 8899,
      seed: 5,
      plan: 'free',
      live: true,
      keys: ['a', 'b'],
    })
    expect(parseSimulatorArgs([]).population).toBe('default')
    expect(parseSimulatorArgs([]).variance).toBe('none')
    expect(parseSimulatorArgs(['--variance', 'real']).variance).toBe('real')
    expect(() => parseSimulatorArgs(['--variance', 'wild'])).toThrow(
      '--variance must be one of none, real',
    )
    expect(parseSimulatorArgs(['--population', 'watch-day']).population).toBe('watch-day')
    expect(() => parseSimulatorArgs(['--population', 'crowd'])).toThrow(/--population/)
    expect(() => parseSimulatorArgs(['--plan', 'gold'])).toThrow(/--plan/)
    expect(() => parseSimulatorArgs(['--port', 'x'])).toThrow(/--port/)
    expect(() => parseSimulatorArgs(['--what'])).toThrow(/unknown option/)
  })

  it('matches fault targets by name, short name, family and wildcard', () => {
    expect(faultTargetMatches('*', 'wallet.history')).toBe(true)
    expect(faultTargetMatches('history', 'wallet.history')).toBe(true)
    expect(faultTargetMatches('wallet.*', 'wallet.history')).toBe(true)
    expect(faultTargetMatches('das.*', 'wallet.history')).toBe(false)
  })

  it('drifts the first field of the first item without touching the original', () => {
    const body = { data: [{ signature: 's', slot: 1 }], pagination: { hasMore: false } }
    expect(applyDrift(body, 'missing')).toEqual({
      data: [{ slot: 1 }],
      pagination: { hasMore: false },
    })
    expect(body.data[0]?.signature).toBe('s')
  })
})
