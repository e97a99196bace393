import { describe, expect, it } from 'vitest'
import {
  decodeTransactionSignature,
  transactionSignature,
} from '../../../src-main/simulator/chain/entity-ids'
import { formatRawAmount, rawToNumber } from '../../../src-main/simulator/chain/mints'
import { SimChain } from '../../../src-main/simulator/chain/sim-chain'
import { parseSimulatorArgs } from '../../../src-main/simulator/simulator-server'
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
