import type { HistoryEntry } from '@shared/api/wallet-rest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'

/** Half a lamport: a SOL change this close to zero after the fee is no movement at all. */
export const SOL_LEG_EPSILON = 5e-10

/**
 * Which ways the transaction moved the wallet's tokens, as the filters ask, written with
 * the transaction so a direction filter reads one column instead of its balance changes:
 * - `has_change_in` / `has_change_out`: a balance change above / below zero (History);
 * - `has_leg_in` / `has_leg_out`: a leg, the change of one mint with the fee the wallet
 *   paid left out of its SOL, above / below zero (the feed): a token sent with a fee is
 *   "out" only, a fee alone moves nothing.
 * The sums are the ones the queries compute (`amount + fee`, in doubles), so both agree.
 *
 * @example
 * transactionDirections({ fee: 0.000005, feePayer: me, balanceChanges: [
 *   { mint: SOL, amount: -0.000005, decimals: 9 }, { mint: USDC, amount: -20, decimals: 6 }] }, me)
 * // { has_change_in: 0, has_change_out: 1, has_leg_in: 0, has_leg_out: 1 }
 */
export function transactionDirections(
  entry: Pick<HistoryEntry, 'fee' | 'feePayer'> & {
    balanceChanges: readonly Pick<HistoryEntry['balanceChanges'][number], 'mint' | 'amount'>[]
  },
  walletAddress: string,
): { has_change_in: 0 | 1; has_change_out: 0 | 1; has_leg_in: 0 | 1; has_leg_out: 0 | 1 } {
  const paysFee = entry.feePayer === walletAddress
  let changeIn = false
  let changeOut = false
  let legIn = false
  let legOut = false
  for (const change of entry.balanceChanges) {
    if (change.amount > 0) changeIn = true
    if (change.amount < 0) changeOut = true
    const isSol = change.mint === NATIVE_SOL_MINT
    const net = isSol && paysFee ? change.amount + entry.fee : change.amount
    const epsilon = isSol ? SOL_LEG_EPSILON : 0
    if (net > epsilon) legIn = true
    if (net < -epsilon) legOut = true
  }
  const flag = (b: boolean) => (b ? 1 : 0)
  return {
    has_change_in: flag(changeIn),
    has_change_out: flag(changeOut),
    has_leg_in: flag(legIn),
    has_leg_out: flag(legOut),
  }
}
