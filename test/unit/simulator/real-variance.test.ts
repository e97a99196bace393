import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { EnhancedTransaction } from '@shared/api/webhook-delivery'
import { enhancedTransaction } from '../../../src-main/simulator/chain/enhanced-transactions'
import { parsedTransaction } from '../../../src-main/simulator/chain/parsed-transactions'
import { SimChain } from '../../../src-main/simulator/chain/sim-chain'
import { RealVariance, UNLISTED_TYPE } from '../../../src-main/simulator/real-variance'
import { deliveredView } from '../../../src-main/sync/transaction-derivation'

// The real service's variety on enhanced deliveries: a share of them without
// `transactionError`, with `events: []`, an unlisted type for the ones the simulator calls
// UNKNOWN, and a field the interface text does not show. Each, read by the app's edge,
// makes the view the plain delivery makes.

describe('enhanced deliveries in the real service’s variety', () => {
  const chain = new SimChain({ seed: 7, clock: { mode: 'manual' } })
  const variance = new RealVariance(
    chain.seed,
    chain.mints.map((m) => m.address),
  )

  it('vary on a seeded share, and read back to the same wallet view', () => {
    const seen = { noErrorKey: 0, eventsArray: 0, unlisted: 0, extra: 0, total: 0 }
    const symbols = new Map(chain.mints.map((m) => [m.address, m.symbol]))
    for (const profile of ['casual', 'active-trader', 'nft-collector'] as const) {
      const wallet = chain.walletByProfile(profile)
      for (let i = 0; i < Math.min(chain.txCount(wallet), 300); i++) {
        const tx = chain.tx(wallet, i)
        if (tx.error) continue
        const plain = enhancedTransaction(parsedTransaction(chain, wallet, tx), tx.type)
        const varied = variance.delivery(structuredClone(plain))
        seen.total += 1
        if (!('transactionError' in varied)) seen.noErrorKey += 1
        if (Array.isArray(varied.events)) seen.eventsArray += 1
        if (varied.type === UNLISTED_TYPE) seen.unlisted += 1
        if ('addedByService' in varied) seen.extra += 1
        const read = EnhancedTransaction.parse(varied)
        const readPlain = EnhancedTransaction.parse(plain)
        expect(read.transactionError).toBeNull()
        expect({ ...read, type: null }).toEqual({ ...readPlain, type: null })
        expect(deliveredView(wallet.address, read, symbols)).toEqual(
          deliveredView(wallet.address, readPlain, symbols),
        )
      }
    }
    expect(seen.total).toBeGreaterThan(100)
    for (const [what, count] of Object.entries(seen)) {
      expect(count, what).toBeGreaterThan(0)
      expect(count, what).toBeLessThanOrEqual(seen.total)
    }
    expect(seen.noErrorKey).toBeLessThan(seen.total)
  })

  it('prices and names: half the smaller tokens unpriced, never the majors; DAS unpriced and unnamed among them', () => {
    const mints = chain.mints.map((m) => m.address)
    const unpriced = mints.filter((m) => variance.isUnpriced(m))
    expect(unpriced.length).toBe(Math.ceil((mints.length - 3) / 2))
    expect(chain.mints.slice(0, 3).map((m) => m.symbol)).toEqual(['SOL', 'USDC', 'USDT'])
    for (const major of mints.slice(0, 3)) expect(unpriced).not.toContain(major)
    expect(unpriced).not.toContain(NATIVE_SOL_MINT)
    const byDas = mints.filter((m) => variance.isUnpricedByDas(m))
    const unnamed = mints.filter((m) => variance.isUnnamed(m))
    expect(byDas.length).toBeGreaterThan(0)
    expect(byDas.length).toBeLessThan(unpriced.length)
    expect(unnamed.length).toBeGreaterThan(0)
    for (const m of [...byDas, ...unnamed]) expect(unpriced).toContain(m)
    // Seeded: the same seed chooses the same mints.
    const again = new RealVariance(chain.seed, mints)
    expect(mints.filter((m) => again.isUnpriced(m))).toEqual(unpriced)
  })
})
