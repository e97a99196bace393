import { NATIVE_SOL_MINT } from '@shared/api/base58'

/** A balance change's mint and the symbol the mirror knows for it. */
export interface TxMint {
  mint: string
  symbol: string | null
}

/** Whether `currency` can name `m`: SOL, its address, its symbol, or symbol-plus-address-start. */
function names(currency: string, m: TxMint): boolean {
  if (currency === 'SOL') return m.mint === NATIVE_SOL_MINT
  if (currency === m.mint) return true
  const symbol = m.symbol?.trim()
  if (!symbol) return false
  if (currency === symbol) return true
  return currency.startsWith(`${symbol}-`) && m.mint.startsWith(currency.slice(symbol.length + 1))
}

/**
 * Which mints each currency of a tax-layout file stands for: for every row, the mints of
 * its transaction (by TxHash) that the currency can name. A currency that stands for two
 * mints merges two tokens in the tax tool.
 */
export function mintsByCurrency(
  rows: readonly { txHash: string; currencies: readonly string[] }[],
  mintsOfTx: (txHash: string) => readonly TxMint[],
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const row of rows) {
    for (const currency of row.currencies) {
      if (currency === '') continue
      const set = found.get(currency) ?? new Set<string>()
      for (const m of mintsOfTx(row.txHash)) if (names(currency, m)) set.add(m.mint)
      found.set(currency, set)
    }
  }
  return found
}
