import type { ChangeReason } from '@shared/ipc/sync-schemas'
import { decimalText } from '@shared/domain/exact-amount'
import { shortAddress } from '@shared/domain/wallet-address'
import type { MintMovement } from '../db/stores/activity-store'

/**
 * One line for a notification about new transactions, e.g. "+12.5 USDC to Trading
 * wallet" or "3 new transactions · −0.2 SOL from Trading wallet": the mint that moved
 * the most (by USD where prices are known, else by amount) over the new transactions.
 */
export function summarizeNewActivity(
  movements: readonly MintMovement[],
  walletName: string,
  count: number,
): string {
  const weight = (m: MintMovement): number => Math.abs(m.amount) * (m.priceUsd ?? 1)
  const top = movements.filter((m) => m.amount !== 0).sort((a, b) => weight(b) - weight(a))[0]
  const prefix = count > 1 ? `${count} new transactions · ` : ''
  if (!top) return `${prefix || 'New transaction · '}on ${walletName}`.replace(' · on', ' on')
  const amount = decimalText(Number(top.amount.toPrecision(12)))
  const symbol = top.symbol ?? shortAddress(top.mint)
  return top.amount > 0
    ? `${prefix}+${amount} ${symbol} to ${walletName}`
    : `${prefix}−${amount.replace(/^-/, '')} ${symbol} from ${walletName}`
}

const REASON_TEXT: Record<ChangeReason, string> = {
  balance: 'balance moved',
  'new-token-account': 'new token account',
  compressed: 'compressed balance moved',
  'backstop-signature': 'new signature found by the full check',
  'backstop-history': 'new history found by the full check',
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
  const name = change.label ?? shortAddress(change.address)
  const what = change.reasons.map((r) => REASON_TEXT[r]).join(', ')
  const found =
    change.state !== 'ok'
      ? `sync ${change.state}`
      : change.newTransactions === 1
        ? '1 new transaction'
        : `${change.newTransactions} new transactions`
  return `${name}: ${what}; ${found} (${change.syncCredits} credits, ${Math.round(change.latencySec)} s)`
}
