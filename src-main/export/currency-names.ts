import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'

/** The name a tax layout gives a mint's currency. */
export type CurrencyNames = (mint: string, symbol: string | null) => string

/** A mint and the symbol the mirror knows for it. */
export interface MintSymbol {
  mint: string
  symbol: string | null
}

/** How names are compared: trimmed, in any case (SOL and sol are one name to a person). */
const keyOf = (name: string): string => name.trim().toUpperCase()

const isNativeSol = (mint: string): boolean =>
  mint === NATIVE_SOL_MINT || mint === BALANCE_AT_NATIVE_SOL_MINT

/**
 * Currency names that are unique across every mint of the mirror, so that tokens sharing
 * a symbol never merge in a tax tool.
 *
 * Koinly's and CoinTracker's CSV layouts carry only a currency name per amount: Koinly
 * reads it as the token symbol
 * (https://support.koinly.io/en/articles/9489976-how-to-create-a-custom-csv-file-with-your-data)
 * and tells tokens that share a symbol apart only by contract address, when a person maps
 * one by hand (https://support.koinly.io/en/articles/9490042-change-currency-token-remapping);
 * CoinTracker's "Received/Sent Currency" is likewise the type of crypto
 * (https://support.cointracker.io/hc/en-us/articles/4413071299729-Convert-your-transaction-history-to-CoinTracker-CSV).
 * So a symbol that names one mint stays as it is (the tools recognise and price it);
 * where several mints share a symbol (a token and an NFT collection, say), each becomes
 * `SYMBOL-` plus the shortest start of its mint address that no other of them shares, which the
 * person can map to that contract in the tool. Native SOL is always `SOL` (the fee
 * currency). A mint without a symbol is named by its address. The names depend on the
 * whole mirror, not one file, so a token has the same name in every export.
 *
 * @example
 * const names = currencyNames([{ mint: 'Moss1…', symbol: 'MOSS' }, { mint: 'Mz9…', symbol: 'MOSS' }])
 * names('Moss1…', 'MOSS') // 'MOSS-Moss'
 */
export function currencyNames(mints: readonly MintSymbol[]): CurrencyNames {
  const bySymbol = new Map<string, string[]>()
  const symbolOf = new Map<string, string>()
  for (const { mint, symbol } of mints) {
    const text = symbol?.trim() ?? ''
    if (text === '' || isNativeSol(mint) || symbolOf.has(mint)) continue
    // Compared trimmed and in any case; written as the mirror has it.
    symbolOf.set(mint, symbol as string)
    const key = keyOf(text)
    bySymbol.set(key, [...(bySymbol.get(key) ?? []), mint])
  }
  const names = new Map<string, string>()
  const taken = new Set<string>(['SOL'])
  const claim = (mint: string, name: string): string => {
    names.set(mint, name)
    taken.add(keyOf(name))
    return name
  }
  // The shortest start of the address (4 characters at least) that no other mint of the
  // same symbol shares, so the name points at one contract.
  const suffixed = (mint: string, symbol: string, group: readonly string[]): string => {
    let length = 4
    const isShared = (n: number): boolean =>
      group.some((other) => other !== mint && other.startsWith(mint.slice(0, n)))
    while (
      length < mint.length &&
      (isShared(length) || taken.has(keyOf(`${symbol}-${mint.slice(0, length)}`)))
    )
      length += 1
    return claim(mint, `${symbol}-${mint.slice(0, length)}`)
  }
  // Symbols that name one mint first: they keep their plain name.
  const groups = [...bySymbol.values()].sort((a, b) => a.length - b.length)
  for (const group of groups) {
    const [only] = group
    const symbol = symbolOf.get(group[0] as string) as string
    if (group.length === 1 && only !== undefined && !taken.has(keyOf(symbol))) {
      claim(only, symbol)
      continue
    }
    for (const mint of [...group].sort()) suffixed(mint, symbolOf.get(mint) as string, group)
  }
  return (mint, symbol) => {
    if (isNativeSol(mint)) return 'SOL'
    const known = names.get(mint)
    if (known !== undefined) return known
    // A mint the table did not list: named as it comes, still never sharing a name.
    const text = symbol?.trim() ?? ''
    if (symbol === null || text === '') return mint
    const sameSymbol = bySymbol.get(keyOf(text)) ?? []
    return taken.has(keyOf(text)) ? suffixed(mint, symbol, sameSymbol) : claim(mint, symbol)
  }
}
