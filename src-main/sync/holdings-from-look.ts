import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { balancesAnswerOrder, type WalletBalance } from '@shared/api/wallet-rest'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import type { StoredHoldings } from '../db/stores/holdings-store'

/** A wallet's accounts as one watch round read them. */
export interface LookedAccounts {
  /** The wallet's lamports (0 once the account is gone). */
  lamports: bigint
  /** Each fungible token account: its mint and raw amount (0 once closed). */
  tokens: readonly { mint: string; amount: bigint }[]
}

/**
 * The balances answer the service would give now, from what a round read: the amounts
 * are the accounts' (lamports, token amounts summed by mint), the rest of each entry —
 * decimals, program, names, price — is the last snapshot's, and the USD value that price
 * times the new balance, rounded to cents as the answer rounds it. SOL first, then by USD
 * value, as the answer sorts; tokens at 0 left out, as the answer leaves them.
 *
 * A string says why it cannot be done (the balances endpoint answers then): a token the
 * last snapshot does not describe (a new mint), or one it lists that the round did not read.
 *
 * @example
 * holdingsFromLook(previous, { lamports: 2_000_000_000n, tokens: [{ mint: USDC, amount: 5_000_000n }] })
 * // [{ mint: SOL, balance: 2, usdValue: 300, … }, { mint: USDC, balance: 5, … }]
 */
export function holdingsFromLook(
  previous: StoredHoldings,
  looked: LookedAccounts,
): WalletBalance[] | string {
  const described = new Map(previous.balances.map((b) => [b.mint, b]))
  const amounts = new Map<string, bigint>([[NATIVE_SOL_MINT, looked.lamports]])
  for (const t of looked.tokens) amounts.set(t.mint, (amounts.get(t.mint) ?? 0n) + t.amount)
  for (const b of previous.balances)
    if (!amounts.has(b.mint)) return `the round did not read ${b.mint}`
  const balances: WalletBalance[] = []
  for (const [mint, raw] of amounts) {
    const last = described.get(mint)
    if (last === undefined) {
      if (raw === 0n) continue
      return `the last snapshot does not describe ${mint}`
    }
    if (raw === 0n && mint !== NATIVE_SOL_MINT) continue
    balances.push(repriced(last, raw))
  }
  return balances.sort(balancesAnswerOrder)
}

/**
 * A balance entry at a new raw amount, its USD value the entry's price times the new
 * balance, rounded to cents as the balances answer rounds it (none for an unpriced token).
 */
export function repriced(last: WalletBalance, raw: bigint): WalletBalance {
  const balance = Number(decimalFromRaw(raw.toString(), last.decimals))
  const price = last.pricePerToken
  return {
    ...last,
    balance,
    usdValue: price === null ? null : Math.round(balance * price * 100) / 100,
  }
}

/** Whether the round read the amounts the holdings hold (every mint, SOL included). */
export function holdingsMatchLook(holdings: StoredHoldings, looked: LookedAccounts): boolean {
  const next = holdingsFromLook(holdings, looked)
  if (typeof next === 'string' || next.length !== holdings.balances.length) return false
  const held = new Map(holdings.balances.map((b) => [b.mint, b.balance]))
  return next.every((b) => held.get(b.mint) === b.balance)
}
