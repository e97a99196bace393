import { formatAmount, formatUsd, countText } from '@shared/domain/display-text'
import { decimalText } from '@shared/domain/exact-amount'
import { shortAddress, walletName } from '@shared/domain/wallet-address'
import { sourceName } from '@shared/domain/service-said'
import type { AlertAmount } from '@shared/ipc/alert-schemas'
import type { Holding, TxFacts, TxLeg } from '../db/stores/alert-facts-reader'

// The words of an alert: one line a person reads on a phone lock screen, e.g.
// "Treasury sent 12,000 USDC to sunny.sol (≈ $12,000.00)".

const legText = (l: TxLeg): string =>
  `${formatAmount(l.amountText.replace(/^-/, ''))} ${l.symbol ?? shortAddress(l.mint)}`

/** The US dollars a transaction moved, counting each leg once (null when no price is known). */
export function movedUsd(legs: readonly TxLeg[]): number | null {
  const priced = legs.filter((l) => l.priceUsd !== null)
  if (priced.length === 0) return null
  const ins = priced.filter((l) => l.amount > 0)
  const outs = priced.filter((l) => l.amount < 0)
  const sum = (ls: readonly TxLeg[]) =>
    ls.reduce((s, l) => s + Math.abs(l.amount) * (l.priceUsd ?? 0), 0)
  // A swap moves its value once: the larger side, not both.
  return Math.max(sum(ins), sum(outs))
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

function counterpartyOf(tx: TxFacts, direction: 'in' | 'out'): string | null {
  const names = [
    ...new Set(
      tx.counterparties
        .filter((c) => c.direction === direction)
        .map((c) => c.name ?? shortAddress(c.address)),
    ),
  ]
  return names.length === 1 ? (names[0] ?? null) : null
}

/**
 * What a transaction did for its wallet, in one line.
 *
 * @example
 * describeTransaction(tx) // 'Treasury sent 12,000 USDC to sunny.sol (≈ $12,000.00)'
 */
export function describeTransaction(tx: TxFacts): string {
  const who = walletName({ address: tx.walletAddress, label: tx.walletLabel })
  const byWeight = (a: TxLeg, b: TxLeg) =>
    Math.abs(b.amount) * (b.priceUsd ?? 1) - Math.abs(a.amount) * (a.priceUsd ?? 1)
  const outs = tx.legs.filter((l) => l.amount < 0).sort(byWeight)
  const ins = tx.legs.filter((l) => l.amount > 0).sort(byWeight)
  const usd = movedUsd(tx.legs)
  const value = usd === null || usd === 0 ? '' : ` (≈ ${formatUsd(usd)})`
  const failed = tx.isFailed ? ' · failed' : ''
  const more = (legs: readonly TxLeg[]) =>
    legs.length > 1 ? ` and ${countText(legs.length - 1, 'more token')}` : ''
  const [out] = outs
  const [inflow] = ins
  const place = sourceName(tx.source)
  if (out && inflow)
    return `${who} swapped ${legText(out)} for ${legText(inflow)}${place ? ` on ${place}` : ''}${value}${failed}`
  if (out) {
    const to = counterpartyOf(tx, 'out')
    return `${who} sent ${legText(out)}${more(outs)}${to ? ` to ${to}` : ''}${value}${failed}`
  }
  if (inflow) {
    const from = counterpartyOf(tx, 'in')
    return `${who} received ${legText(inflow)}${more(ins)}${from ? ` from ${from}` : ''}${value}${failed}`
  }
  const kind = tx.kind && tx.kind !== 'UNKNOWN' ? ` (${tx.kind})` : ''
  return tx.isFailed
    ? `${who}: a failed transaction${kind}`
    : `${who}: a new transaction that moved no tokens${kind}`
}

/** A holding's amount in words, e.g. "4,200 USDC". */
export function holdingText(h: Holding | undefined, symbol: string): string {
  return `${formatAmount(decimalText(h?.balance ?? 0))} ${h?.symbol ?? symbol}`
}

/** The line of an alert that gathered several matches during its rule's cool-down. */
export function gatheredText(count: number, latestText: string, ruleName: string): string {
  return `${count} alerts from “${ruleName}” · latest: ${latestText}`
}
