import { formatAmount } from '@shared/domain/display-text'
import { decimalText } from '@shared/domain/exact-amount'
import { tokenWord, walletTransactionLine, walletWord } from '@shared/domain/transaction-words'
import type { AlertAmount } from '@shared/ipc/alert-schemas'
import type { Holding, TxFacts, TxLeg } from '../db/stores/alert-facts-reader'

// The words of an alert: one line a person reads on a phone lock screen, e.g.
// "Treasury sent 12,000 USDC to sunny.sol (≈ $12,000.00)". A transaction is said in the
// feed's words (src-shared/domain/transaction-words.ts): one text wherever it is shown.

/** The US dollars these legs (one side of a transaction) are worth; null when none is priced. */
export function legsUsd(legs: readonly TxLeg[]): number | null {
  const priced = legs.filter((l) => l.priceUsd !== null)
  if (priced.length === 0) return null
  return priced.reduce((s, l) => s + Math.abs(l.amount) * (l.priceUsd ?? 0), 0)
}

/** The amounts an alert carries, signed, with their value where a price is known. */
export function alertAmounts(legs: readonly TxLeg[]): AlertAmount[] {
  return legs.map((l) => ({
    mint: l.mint,
    symbol: l.symbol,
    amount: l.amountText,
    usd: l.priceUsd === null ? null : Math.abs(l.amount) * l.priceUsd,
  }))
}

/** The wallet of a transaction or snapshot in a sentence: its label as plain text, else its short address. */
export function whoOf(facts: { walletAddress: string; walletLabel: string | null }): string {
  return walletWord({ address: facts.walletAddress, label: facts.walletLabel })
}

/**
 * What a transaction did for its wallet, in one line.
 *
 * @example
 * describeTransaction(tx) // 'Treasury sent 12,000 USDC to sunny.sol (≈ $12,000.00)'
 */
export function describeTransaction(tx: TxFacts): string {
  return walletTransactionLine(whoOf(tx), tx)
}

/** A holding's amount in words, e.g. "4,200 USDC". */
export function holdingText(h: Holding | undefined, token: string): string {
  const name = h === undefined ? token : tokenWord({ mint: h.mint, symbol: h.symbol })
  return `${formatAmount(decimalText(h?.balance ?? 0))} ${name}`
}
