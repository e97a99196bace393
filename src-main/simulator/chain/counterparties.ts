import bs58 from 'bs58'
import { encodeEntity } from './entity-ids'
import { hash32 } from './prng'
import { COUNTERPARTY_RANGES } from './history'

// The other parties of the simulated chain: exchanges (which fund wallets), pools (swap
// counterparties), marketplaces and people. Exchanges, pools and marketplaces have identities.

export const COUNTERPARTY_COUNT = COUNTERPARTY_RANGES.person[1] + 1

const EXCHANGES = ['Meridian Exchange', 'Polaris Markets', 'Atlas Exchange', 'Halcyon Trading']
const POOLS = [
  'Lumen DEX',
  'Tidewater AMM',
  'Orbit Aggregator',
  'Kelp Swap',
  'Quartz Pools',
  'Gridline Router',
  'Nova AMM',
  'Echo Liquidity',
]
const MARKETS = ['Prism NFT Market', 'Gallery Row', 'Mintyard', 'Lantern Auctions']

interface CounterpartyIdentity {
  readonly type: string
  readonly name: string
  readonly category: string
  readonly tags: readonly string[]
}

/**
 * Counterparties from this number up are lookalikes: `LOOKALIKE_BASE + k` has an address
 * with the same first and last four characters as counterparty k's, and is not k (an
 * address-poisoning sender; see injections.ts).
 */
export const LOOKALIKE_BASE = 1_000_000

/** Address of counterparty `n`. */
export function counterpartyAddress(seed: number, n: number): string {
  if (n >= LOOKALIKE_BASE)
    return lookalikeOf(seed, n - LOOKALIKE_BASE, counterpartyAddress(seed, n - LOOKALIKE_BASE))
  return encodeEntity(seed, 'counterparty', n, 0)
}

/**
 * An address that looks like `address` at a glance: its first and last four characters
 * kept, the middle drawn from the seed, still 32 bytes (a vanity address a poisoner grinds
 * for; here made directly).
 */
function lookalikeOf(seed: number, imitated: number, address: string): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  for (let attempt = 0; ; attempt++) {
    const middle = Array.from(
      { length: address.length - 8 },
      (_, i) => alphabet[hash32(seed, 0x100c, imitated, attempt, i) % alphabet.length],
    ).join('')
    const text = `${address.slice(0, 4)}${middle}${address.slice(-4)}`
    if (text !== address && bs58.decode(text).length === 32) return text
  }
}

/** Identity of counterparty `n`, or null for private people. */
export function counterpartyIdentity(n: number): CounterpartyIdentity | null {
  const [e0, e1] = COUNTERPARTY_RANGES.exchange
  const [p0, p1] = COUNTERPARTY_RANGES.pool
  const [m0, m1] = COUNTERPARTY_RANGES.marketplace
  if (n >= e0 && n <= e1) {
    return {
      type: 'exchange',
      name: `${EXCHANGES[n - e0] ?? 'Exchange'} Hot Wallet`,
      category: 'Centralized Exchange',
      tags: ['exchange', 'hot-wallet'],
    }
  }
  if (n >= p0 && n <= p1) {
    return {
      type: 'protocol',
      name: `${POOLS[n - p0] ?? 'Pool'} Pool`,
      category: 'DeFi',
      tags: ['dex', 'liquidity-pool'],
    }
  }
  if (n >= m0 && n <= m1) {
    return {
      type: 'protocol',
      name: MARKETS[n - m0] ?? 'Marketplace',
      category: 'NFT Marketplace',
      tags: ['nft', 'marketplace'],
    }
  }
  return null
}
