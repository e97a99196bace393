import { encodeEntity } from './entity-ids'
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

/** Address of counterparty `n`. */
export function counterpartyAddress(seed: number, n: number): string {
  return encodeEntity(seed, 'counterparty', n, 0)
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
