import type { ChangeReason } from '@shared/ipc/sync-schemas'
import { formatAmount } from '@shared/domain/display-text'
import { remainder } from '@shared/domain/transaction-words'
import { decimalText } from '@shared/domain/exact-amount'
import { shortAddress, walletName } from '@shared/domain/wallet-address'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { NewActivity } from '../db/stores/activity-store'

interface Leg {
  /** Exact decimal text of the net movement (float sums cut to 12 significant digits). */
  text: string
  symbol: string
  weight: number
}

/**
 * One line for a notification about new transactions, e.g. "Swapped 1.5 SOL for 210.3
 * USDC on Trading wallet", "+12.5 USDC to Trading wallet" or "3 new transactions · −0.2 SOL
 * from Trading wallet". A swap names both legs; otherwise the mint that moved the most (by
 * USD where prices are known, else by amount) over the new transactions. The SOL leg
 * leaves out the fees the wallet paid, so a swap reads as the trade itself.
 */
export function summarizeNewActivity(
  activity: NewActivity,
  walletLabel: string,
  count: number,
): string {
  const legs = activity.movements
    .map((m): Leg & { amount: number } => {
      const amount = m.mint === NATIVE_SOL_MINT ? m.amount + activity.feesPaidSol : m.amount
      return {
        amount,
        text: decimalText(Number(amount.toPrecision(12))),
        symbol: m.symbol ?? shortAddress(m.mint),
        weight: Math.abs(amount) * (m.priceUsd ?? 1),
      }
    })
    .filter((l) => Number(l.text) !== 0)
    .sort((a, b) => b.weight - a.weight)
  const outs = legs.filter((l) => l.amount < 0)
  const ins = legs.filter((l) => l.amount > 0)
  const prefix = count > 1 ? `${count} new transactions · ` : ''
  const show = (l: Leg): string => `${formatAmount(l.text.replace(/^-/, ''))} ${l.symbol}`
  const [out] = outs
  const [inflow] = ins
  if (out && inflow) {
    const swapped = `${prefix ? 'swapped' : 'Swapped'} ${show(out)} for ${show(inflow)}`
    const others = remainder(outs.length - 1, ins.length - 1, false)
    return `${prefix}${swapped}${others} on ${walletLabel}`
  }
  const top = out ?? inflow
  if (!top)
    return count > 1
      ? `${count} new transactions on ${walletLabel}`
      : `New transaction on ${walletLabel}`
  return top === inflow
    ? `${prefix}+${show(top)} to ${walletLabel}`
    : `${prefix}−${show(top)} from ${walletLabel}`
}

const REASON_TEXT: Record<ChangeReason, string> = {
  balance: 'balance moved',
  'new-token-account': 'new token account',
  compressed: 'compressed balance moved',
  'backstop-signature': 'new signature found by the full check',
  'backstop-history': 'new history found by the full check',
  delivery: 'webhook delivery',
}

/**
 * One line for a change watching detected, e.g. "Trading wallet: balance moved; 2 new
 * transactions (300 credits, 41 s)".
 */
export function describeWatchChange(change: {
  address: string
  label: string | null
  reasons: readonly ChangeReason[]
  newTransactions: number
  syncCredits: number
  latencySec: number
  state: string
}): string {
  const name = walletName(change)
  const what = change.reasons.map((r) => REASON_TEXT[r]).join(', ')
  const found =
    change.state !== 'ok'
      ? `sync ${change.state}`
      : change.newTransactions === 1
        ? '1 new transaction'
        : `${change.newTransactions} new transactions`
  return `${name}: ${what}; ${found} (${change.syncCredits.toLocaleString('en-US')} ${change.syncCredits === 1 ? 'credit' : 'credits'}, ${Math.round(change.latencySec)} s)`
}
