import type { HistoryEntry } from '@shared/api/wallet-rest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'

/** The transaction types the writer can tell from a wallet's balance changes alone. */
export type DerivedKind = 'SWAP' | 'TRANSFER' | 'NFT_SALE' | 'UNKNOWN'

/** Float sums of lamports: anything closer than this is the same amount. */
const SOL_EPSILON = 1e-12

/**
 * The transaction's type as the service names it, derived from what it did to the wallet:
 * the history endpoint filters by type but does not report it. Only what the balance
 * changes show can be told apart:
 * - an NFT (a 0-decimal token moving by exactly 1) against a fungible leg the other way
 *   is an NFT_SALE (the service uses one type for both buyer and seller);
 * - fungible legs both in and out are a SWAP;
 * - legs one way only (tokens or NFTs) are a TRANSFER;
 * - no leg beyond the fee (failed or program-only transactions) is UNKNOWN.
 * The SOL the wallet paid as fee is not a leg: a token sent reads as a TRANSFER.
 *
 * @example
 * transactionKind({ fee: 0.000005, balanceChanges: [
 *   { mint: SOL, amount: -1.000005, decimals: 9 }, { mint: USDC, amount: 150, decimals: 6 }] })
 * // 'SWAP'
 */
export function transactionKind(entry: Pick<HistoryEntry, 'fee' | 'balanceChanges'>): DerivedKind {
  let fungibleIn = false
  let fungibleOut = false
  let nftMoved = false
  for (const change of entry.balanceChanges) {
    const amount =
      change.mint === NATIVE_SOL_MINT && change.amount < 0
        ? change.amount + entry.fee
        : change.amount
    if (Math.abs(amount) < SOL_EPSILON) continue
    if (change.decimals === 0 && Math.abs(amount) === 1) nftMoved = true
    else if (amount > 0) fungibleIn = true
    else fungibleOut = true
  }
  if (nftMoved) return fungibleIn || fungibleOut ? 'NFT_SALE' : 'TRANSFER'
  if (fungibleIn && fungibleOut) return 'SWAP'
  return fungibleIn || fungibleOut ? 'TRANSFER' : 'UNKNOWN'
}
