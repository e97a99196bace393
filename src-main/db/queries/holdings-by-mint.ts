import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { rawFromDecimalText } from '@shared/domain/exact-amount'
import type { CurrentBalances } from '@shared/ipc/review-schemas'
import { SOL_DECIMALS, type CompressedHoldings } from './compressed-holdings'

/** What a wallet holds of one mint: on-chain and compressed, in raw units, and its value. */
export interface MintHolding {
  mint: string
  symbol: string | null
  decimals: number
  /** Everything held, compressed part included, in raw units. */
  raw: bigint
  /** The compressed part of `raw`. */
  compressedRaw: bigint
  /** Value of everything held (the compressed part included); null when unpriced. */
  valueUsd: number | null
  compressedValueUsd: number
}

/**
 * The one rule for what a wallet holds, mint by mint: its latest balances snapshot plus its
 * latest compressed state, compressed SOL counted as SOL and each compressed token under
 * its mint. Their values add up to the wallet's value; per-token totals add them up.
 *
 * @example
 * holdingsByMint(current.rows, compressed) // [{ mint: 'So1…112', raw: 4_533_000_000n, compressedRaw: 361_000_000n, … }]
 */
export function holdingsByMint(
  tokens: CurrentBalances['rows'],
  compressed: CompressedHoldings | null,
): MintHolding[] {
  const byMint = new Map<string, MintHolding>()
  for (const t of tokens) {
    byMint.set(t.mint, {
      mint: t.mint,
      symbol: t.symbol,
      decimals: t.decimals,
      raw: BigInt(rawFromDecimalText(t.amountText, t.decimals) ?? '0'),
      compressedRaw: 0n,
      valueUsd: t.usdValue,
      compressedValueUsd: 0,
    })
  }
  const addCompressed = (
    part: { mint: string; symbol: string | null; decimals: number | null; raw: string },
    valueUsd: number,
  ): void => {
    const raw = BigInt(part.raw)
    if (raw === 0n) return
    const entry = byMint.get(part.mint) ?? {
      mint: part.mint,
      symbol: part.symbol,
      // A mint of unknown decimals is counted in raw units, as its compressed amount is shown.
      decimals: part.decimals ?? 0,
      raw: 0n,
      compressedRaw: 0n,
      valueUsd: 0,
      compressedValueUsd: 0,
    }
    entry.raw += raw
    entry.compressedRaw += raw
    entry.valueUsd = entry.valueUsd === null ? null : entry.valueUsd + valueUsd
    entry.compressedValueUsd += valueUsd
    byMint.set(part.mint, entry)
  }
  if (compressed) {
    addCompressed(
      { mint: NATIVE_SOL_MINT, symbol: 'SOL', decimals: SOL_DECIMALS, raw: compressed.lamportsRaw },
      compressed.solValueUsd,
    )
    for (const t of compressed.tokens) addCompressed(t, t.valueUsd)
  }
  return [...byMint.values()]
}
