import { countText, formatAmount, formatUsd } from './display-text'
import { MAX_ADDRESS_CHARS, MAX_NAME_CHARS, MAX_SYMBOL_CHARS, plainText } from './untrusted-text'
import { shortAddress } from './wallet-address'

// What a transaction did for its wallet, in words: the one text the feed's rows, the alerts
// and every alert channel say, so a transaction reads the same wherever it is shown.
//
// - Each side (sent, received) names its largest leg: by US dollars where a price is known
//   (a priced leg before an unpriced one), else by amount. What is not named is counted,
//   by side: "and 2 more sent, 1 more received".
// - The USD figure is the named legs' value: the larger of them, counted once for a swap
//   (its two sides are one trade). The largest priced leg is always named, so it is also
//   the largest leg's value anywhere.
// - An NFT bought or sold reads as such, with the NFT's name.
// - Names from the chain (symbols, token and NFT names, counterparties) are plain text.

/** One token a transaction moved for the wallet: its net change, the fee left out. */
export interface WordedLeg {
  mint: string
  symbol: string | null
  /** The token's (or NFT's) name where known. */
  name?: string | null
  /** Null where unknown (read as a fungible token). */
  decimals?: number | null
  /** Exact signed decimal text: positive came in. */
  amountText: string
  priceUsd: number | null
}

/** A transfer of the transaction, with the counterparty's name where the mirror knows one. */
export interface WordedTransfer {
  direction: 'in' | 'out'
  mint: string
  counterparty: string
  counterpartyName: string | null
}

/** What a transaction's words are made from. */
export interface WordedTransaction {
  kind: string | null
  isFailed: boolean
  legs: readonly WordedLeg[]
  transfers: readonly WordedTransfer[]
}

/** A transaction in words. */
export interface TransactionWords {
  /**
   * What it did, starting with a verb in lower case: "sent 1.5 SOL to sunny.sol"; for a
   * transaction that moved nothing but its fee, "paid only the fee".
   */
  action: string
  /** The named legs' value in US dollars; null when none of them has a price. */
  usd: number | null
  /** Whether it moved nothing but the fee. */
  isFeeOnly: boolean
}

interface Leg extends WordedLeg {
  amount: number
  /** Its value in US dollars, or null without a price. */
  value: number | null
  shown: string
}

/** A token's name in a sentence: its symbol, else its short mint address. */
export function tokenWord(leg: { mint: string; symbol: string | null }): string {
  const symbol = leg.symbol === null ? '' : plainText(leg.symbol, MAX_SYMBOL_CHARS)
  return symbol === '' ? shortAddress(plainText(leg.mint, MAX_ADDRESS_CHARS)) : symbol
}

/** A watched wallet in a sentence: its label as plain text, else its short address. */
export function walletWord(wallet: { address: string; label: string | null }): string {
  const label = wallet.label === null ? '' : plainText(wallet.label, MAX_NAME_CHARS)
  return label === '' ? shortAddress(plainText(wallet.address, MAX_ADDRESS_CHARS)) : label
}

/** A counterparty in a sentence: the name the mirror knows, else its short address. */
export function counterpartyWord(t: { counterparty: string; counterpartyName: string | null }) {
  const name = t.counterpartyName === null ? '' : plainText(t.counterpartyName, MAX_NAME_CHARS)
  return name === '' ? shortAddress(plainText(t.counterparty, MAX_ADDRESS_CHARS)) : name
}

const isNft = (l: WordedLeg): boolean =>
  l.decimals === 0 && /^-?1$/.test(l.amountText.replace(/\.0*$/, ''))

/** Priced legs first, by value; then by amount. */
function byWeight(a: Leg, b: Leg): number {
  if ((a.value === null) !== (b.value === null)) return a.value === null ? 1 : -1
  if (a.value !== null && b.value !== null) return b.value - a.value
  return Math.abs(b.amount) - Math.abs(a.amount)
}

function legOf(l: WordedLeg): Leg {
  const amount = Number(l.amountText)
  return {
    ...l,
    amount,
    value: l.priceUsd === null ? null : Math.abs(amount) * l.priceUsd,
    shown: `${formatAmount(l.amountText.replace(/^-/, ''))} ${tokenWord(l)}`,
  }
}

/** An NFT by its name ("Sunflower #12"), else as one of its symbol ("1 SUNF"). */
function nftWord(l: Leg): string {
  const name = l.name ? plainText(l.name, MAX_NAME_CHARS) : ''
  return name === '' ? l.shown : name
}

/**
 * What named legs leave out, by side: " and 2 more sent, 1 more received"; " and 2 more
 * tokens" when every leg went one way.
 */
export function remainder(moreOut: number, moreIn: number, isOneWay: boolean): string {
  if (isOneWay) {
    const more = moreOut + moreIn
    return more > 0 ? ` and ${countText(more, 'more token')}` : ''
  }
  const parts = [
    ...(moreOut > 0 ? [`${moreOut} more sent`] : []),
    ...(moreIn > 0 ? [`${moreIn} more received`] : []),
  ]
  return parts.length > 0 ? ` and ${parts.join(', ')}` : ''
}

function partyOn(tx: WordedTransaction, direction: 'in' | 'out', mint: string): string | null {
  const transfer =
    tx.transfers.find((t) => t.direction === direction && t.mint === mint) ??
    tx.transfers.find((t) => t.direction === direction)
  return transfer ? counterpartyWord(transfer) : null
}

/**
 * What a transaction did for its wallet, and the value of what the words name.
 *
 * @example
 * transactionWords({ kind: 'SWAP', isFailed: false, legs, transfers: [] })
 * // { action: 'swapped 5,033 LUMN for 14.96 SOL and 6 more sent, 2 more received', usd: 2217.4 }
 */
export function transactionWords(tx: WordedTransaction): TransactionWords {
  const legs = tx.legs.map(legOf).filter((l) => l.amount !== 0)
  const outs = legs.filter((l) => l.amount < 0).sort(byWeight)
  const ins = legs.filter((l) => l.amount > 0).sort(byWeight)
  const valueOf = (...named: Leg[]): number | null => {
    const values = named.flatMap((l) => (l.value === null ? [] : [l.value]))
    return values.length === 0 ? null : Math.max(...values)
  }
  const [out] = outs
  const [inflow] = ins
  if (out && inflow) {
    const more = remainder(outs.length - 1, ins.length - 1, false)
    const usd = valueOf(out, inflow)
    if (tx.kind === 'NFT_SALE') {
      const sold = outs.find(isNft)
      const paid = ins.find((l) => !isNft(l))
      if (sold && paid)
        return words(`sold ${nftWord(sold)} for ${paid.shown}${more}`, valueOf(sold, paid))
      const bought = ins.find(isNft)
      const spent = outs.find((l) => !isNft(l))
      if (bought && spent)
        return words(`bought ${nftWord(bought)} for ${spent.shown}${more}`, valueOf(bought, spent))
    }
    return words(`swapped ${out.shown} for ${inflow.shown}${more}`, usd)
  }
  const top = out ?? inflow
  if (top === undefined) return { action: 'paid only the fee', usd: null, isFeeOnly: true }
  const isOut = top === out
  const side = isOut ? outs : ins
  const party = partyOn(tx, isOut ? 'out' : 'in', top.mint)
  const named = isNft(top) ? nftWord(top) : top.shown
  const verb = isOut ? 'sent' : 'received'
  const way = party === null ? '' : isOut ? ` to ${party}` : ` from ${party}`
  return words(`${verb} ${named}${remainder(side.length - 1, 0, true)}${way}`, valueOf(top))
}

const words = (action: string, usd: number | null): TransactionWords => ({
  action,
  usd,
  isFeeOnly: false,
})

/**
 * A feed row's one line: "Received 240 USDC from sunny.sol", "Swapped 1.5 SOL for 210.3
 * USDC", "Failed: Sent 1 SOL", "No balance change (fee only)".
 */
export function transactionSummary(tx: WordedTransaction): string {
  const { action, isFeeOnly } = transactionWords(tx)
  if (isFeeOnly)
    return tx.isFailed ? 'Failed transaction (fee only)' : 'No balance change (fee only)'
  return `${tx.isFailed ? 'Failed: ' : ''}${action.charAt(0).toUpperCase()}${action.slice(1)}`
}

/**
 * An alert's line about a wallet's transaction: "Treasury sent 12,000 USDC to sunny.sol
 * (≈ $12,000.00)"; " · failed" when it failed; "Hot: a failed transaction (fee only)".
 */
export function walletTransactionLine(who: string, tx: WordedTransaction): string {
  const { action, usd, isFeeOnly } = transactionWords(tx)
  if (isFeeOnly)
    return `${who}: ${tx.isFailed ? 'a failed transaction (fee only)' : 'no balance change (fee only)'}`
  const value = usd === null || usd === 0 ? '' : ` (≈ ${formatUsd(usd)})`
  return `${who} ${action}${value}${tx.isFailed ? ' · failed' : ''}`
}
