import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { encodeEntity } from './entity-ids'
import { hash32 } from './prng'

// The simulated token universe: native SOL (mint So1…112), two stables and twenty
// fictional tokens covering decimals 0–9 and both token programs (spl-token | token-2022).

export type TokenProgram = 'spl-token' | 'token-2022'

export interface MintInfo {
  /** Position in the mint table; transactions refer to mints by it. */
  readonly index: number
  readonly address: string
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly priceUsd: number
  readonly logoUri: string
  readonly tokenProgram: TokenProgram
  readonly isNative: boolean
  /** Total supply in the smallest unit (DAS token_info.supply, token-metadata supply). */
  readonly supplyRaw: bigint
}

interface MintSeed {
  symbol: string
  name: string
  decimals: number
  priceUsd: number
  address?: string
  tokenProgram?: TokenProgram
  color: string
}

// Index 0 must stay SOL: the history generator charges fees in mint 0.
const MINT_SEEDS: readonly MintSeed[] = [
  {
    symbol: 'SOL',
    name: 'Solana',
    decimals: 9,
    priceUsd: 148.25,
    address: NATIVE_SOL_MINT,
    color: '#9945ff',
  },
  // Real stablecoin mint addresses so that clients recognise them; prices are simulated.
  {
    symbol: 'USDC',
    name: 'USD Coin',
    decimals: 6,
    priceUsd: 1,
    address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    color: '#2775ca',
  },
  {
    symbol: 'USDT',
    name: 'Tether USD',
    decimals: 6,
    priceUsd: 0.9998,
    address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
    color: '#26a17b',
  },
  { symbol: 'HELIO', name: 'Heliotrope', decimals: 9, priceUsd: 2.37, color: '#f4a300' },
  { symbol: 'LUMN', name: 'Lumen Finance', decimals: 6, priceUsd: 0.4182, color: '#ffd166' },
  { symbol: 'ORBT', name: 'Orbit Protocol', decimals: 8, priceUsd: 12.9, color: '#118ab2' },
  { symbol: 'PIX', name: 'Pixel Dust', decimals: 5, priceUsd: 0.00002143, color: '#ef476f' },
  { symbol: 'GRID', name: 'Gridline', decimals: 7, priceUsd: 0.0871, color: '#06d6a0' },
  { symbol: 'KELP', name: 'Kelp Forest', decimals: 4, priceUsd: 0.0129, color: '#2a9d8f' },
  {
    symbol: 'NOVA',
    name: 'Nova Shards',
    decimals: 9,
    priceUsd: 0.73,
    tokenProgram: 'token-2022',
    color: '#8338ec',
  },
  { symbol: 'TIDE', name: 'Tidewater', decimals: 6, priceUsd: 1.64, color: '#3a86ff' },
  { symbol: 'EMBR', name: 'Ember', decimals: 3, priceUsd: 0.052, color: '#e63946' },
  {
    symbol: 'MOSS',
    name: 'Moss Points',
    decimals: 0,
    priceUsd: 0.01,
    tokenProgram: 'token-2022',
    color: '#588157',
  },
  { symbol: 'QRTZ', name: 'Quartz', decimals: 2, priceUsd: 3.15, color: '#adb5bd' },
  { symbol: 'FERN', name: 'Fernway', decimals: 6, priceUsd: 0.0043, color: '#52b788' },
  { symbol: 'VOLT', name: 'Voltage', decimals: 9, priceUsd: 0.201, color: '#ffbe0b' },
  { symbol: 'DUNE', name: 'Dune Runner', decimals: 8, priceUsd: 0.00087, color: '#dda15e' },
  { symbol: 'CRWN', name: 'Crown Jewel', decimals: 6, priceUsd: 41.7, color: '#b5838d' },
  {
    symbol: 'ZEPH',
    name: 'Zephyr',
    decimals: 1,
    priceUsd: 0.95,
    tokenProgram: 'token-2022',
    color: '#90e0ef',
  },
  { symbol: 'BOLT', name: 'Bolt Cash', decimals: 6, priceUsd: 0.99, color: '#fb8500' },
  { symbol: 'MYTH', name: 'Mythos', decimals: 9, priceUsd: 0.0615, color: '#6d597a' },
  { symbol: 'ECHO', name: 'Echo Chamber', decimals: 6, priceUsd: 0.000412, color: '#4cc9f0' },
  { symbol: 'SAGE', name: 'Sage Index', decimals: 8, priceUsd: 7.8, color: '#606c38' },
]

export const SOL_MINT_INDEX = 0

/** A self-contained SVG logo, so the demo shows logos without network access. */
function logoDataUri(symbol: string, color: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="${color}"/>` +
    `<text x="32" y="38" font-family="sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">${symbol.slice(0, 4)}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/** The mint table for a seed: fixed symbols and decimals, seed-dependent addresses and prices. */
export function buildMints(seed: number): MintInfo[] {
  return MINT_SEEDS.map((m, index) => {
    // Prices move by up to ±10% with the seed (stables and SOL stay put for readability).
    const jitter = index < 3 ? 1 : 0.9 + (hash32(seed, 0x707, index) / 0xffffffff) * 0.2
    const priceUsd = Number((m.priceUsd * jitter).toPrecision(6))
    const supplyUnits = BigInt(1_000_000_000 + (hash32(seed, 0x5a, index) % 9_000_000_000))
    return {
      index,
      address: m.address ?? encodeEntity(seed, 'mint', index, 0),
      symbol: m.symbol,
      name: m.name,
      decimals: m.decimals,
      priceUsd,
      logoUri: logoDataUri(m.symbol, m.color),
      tokenProgram: m.tokenProgram ?? 'spl-token',
      isNative: index === SOL_MINT_INDEX,
      supplyRaw: supplyUnits * 10n ** BigInt(m.decimals),
    }
  })
}

/** How a mint issued during a run is made: six decimals, a dollar each. */
const ISSUED = { decimals: 6, priceUsd: 1, color: '#444444' } as const

/**
 * A mint issued during a run (POST /__sim/inject, a token airdrop with `symbol`), after
 * the table's: its symbol and name are whatever its issuer chose, as on the chain, where
 * anyone may call a token `<!channel>`.
 */
export function issuedMint(
  seed: number,
  index: number,
  naming: { symbol: string; name: string },
): MintInfo {
  return {
    index,
    address: encodeEntity(seed, 'mint', index, 0),
    symbol: naming.symbol,
    name: naming.name,
    decimals: ISSUED.decimals,
    priceUsd: ISSUED.priceUsd,
    logoUri: logoDataUri('?', ISSUED.color),
    tokenProgram: 'spl-token',
    isNative: false,
    supplyRaw: 1_000_000_000n * 10n ** BigInt(ISSUED.decimals),
  }
}

/** Decimal text of a raw integer amount, exact: 1234500n with 6 decimals → "1.2345". */
export function formatRawAmount(raw: bigint, decimals: number): string {
  const negative = raw < 0n
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`
}

/** The decimal-adjusted number of a raw amount: the nearest double to the exact value. */
export function rawToNumber(raw: bigint, decimals: number): number {
  return Number(formatRawAmount(raw, decimals))
}
