import { z } from 'zod'
import { DAS_MAX_LIMIT } from '../api/das'
import { CREDIT_PRICES } from '../api/prices'
import { countText, formatCount } from './display-text'

// What loading a wallet's history costs before a credit is spent: its first sync (newest
// transactions, holdings, names) and each later load of older history. One model for the
// app, the CLI and the ask-first rule, so every place says the same figure.

/** Items a page of history, transfers or balances holds at most, at 100 credits (interface 4.1). */
export const WALLET_PAGE_ITEMS = 100

/** Signatures one getSignaturesForAddress page lists at most (10 credits): the look at a wallet's size. */
export const SIGNATURES_PAGE_ITEMS = 1_000

/** Addresses one batch-identity call names (100 credits). */
const NAMES_PER_CALL = 100

/**
 * Transfers per transaction before a wallet's own are known: one for a plain payment, two
 * for a swap, more for the odd complex one. A wallet's stored history gives its own ratio.
 */
export const TRANSFERS_PER_TRANSACTION = { low: 1, high: 3 } as const

/**
 * New counterparties per transfer, for the names a first sync asks: most transfers go to
 * addresses the wallet met before (a whale of the simulator: 44 in 2,200).
 */
const NEW_COUNTERPARTIES_PER_TRANSFER = { low: 0.02, high: 0.1 } as const

const Count = z.number().int().min(0)

/** A figure known within bounds: equal bounds when it is known outright. */
export const CreditRange = z.object({ low: Count, high: Count })
export type CreditRange = z.infer<typeof CreditRange>

/**
 * What the cheap look before a first sync found (sync/wallet-size-probe.ts, about 22
 * credits): the newest signatures page (10), token accounts of both programs (1 each) and
 * the DAS grand total (10).
 */
export const WalletSizeFacts = z.object({
  /** Signatures in the newest getSignaturesForAddress page (at most 1,000). */
  signatures: Count,
  /** Whether that page was full: the wallet has more. */
  hasMoreSignatures: z.boolean(),
  /** Block time of the oldest signature in that page, when known. */
  oldestSignatureSec: z.number().int().nullable(),
  /** Block time of the newest signature in that page: the page's pace is measured between the two. */
  newestSignatureSec: z.number().int().nullable(),
  /** Token accounts holding a fungible balance (not NFTs), or null when not read. */
  fungibleTokens: Count.nullable(),
  /** NFTs and compressed NFTs the wallet owns (DAS grand total), or null when not read. */
  nfts: Count.nullable(),
  /**
   * When the wallet was first funded (funded-by, asked only of a wallet with more than a
   * page of signatures: it dates the history's start), or null when not known.
   */
  fundedAtSec: z.number().int().nullable(),
  /** When the look was made. */
  probedAtSec: z.number().int(),
  /** What the look cost. */
  credits: Count,
})
export type WalletSizeFacts = z.infer<typeof WalletSizeFacts>

/** What the mirror already holds of a wallet's history. */
export const HeldHistory = z.object({
  transactions: Count,
  transfers: Count,
  /** Block time of the oldest stored transaction, when known. */
  oldestSec: z.number().int().nullable(),
  /** Block time of the newest stored transaction, when known: the stored pace ends there. */
  newestSec: z.number().int().nullable(),
  /** Whether the history is held back to its start. */
  isWhole: z.boolean(),
})
export type HeldHistory = z.infer<typeof HeldHistory>

/** Nothing held yet: a wallet before its first sync. */
export const NOTHING_HELD: HeldHistory = {
  transactions: 0,
  transfers: 0,
  oldestSec: null,
  newestSec: null,
  isWhole: false,
}

/** How deep a load goes: the newest N transactions, back to a date, both, or all (both null). */
export interface LoadDepth {
  maxTransactions: number | null
  sinceSec: number | null
}

/**
 * A wallet's whole history as far as the facts tell: about `transactions`, or more
 * (`isAtLeast`); `isCarried` when carried back to the wallet's start at its pace, else a
 * size known only from below (more than what was seen, by how much is not known).
 */
export const HistorySize = z.object({
  transactions: Count,
  isAtLeast: z.boolean(),
  isCarried: z.boolean(),
})
export type HistorySize = z.infer<typeof HistorySize>

/** One part of a load's cost, with what it is in words ("1,000 transactions, 100 a page"). */
export const CostLine = z.object({
  part: z.enum(['history', 'transfers', 'holdings', 'compressed', 'names']),
  credits: CreditRange,
  note: z.string(),
})
export type CostLine = z.infer<typeof CostLine>

/** What a load will store and cost. */
export const HistoryLoadCost = z.object({
  /** Transactions the load stores. */
  transactions: CreditRange,
  /** Whether the load may store more than `transactions.high` (a size known only from below). */
  isOpenEnded: z.boolean(),
  /** Whether, once done, older history than it holds is left to load on request. */
  leavesOlder: z.boolean(),
  size: HistorySize,
  lines: z.array(CostLine),
  credits: CreditRange,
})
export type HistoryLoadCost = z.infer<typeof HistoryLoadCost>

/** What a first sync asks besides the history: the wallet's holdings and names. */
export interface FirstSyncExtras {
  /** The wallet's own name is known and fresh (identity is not asked). */
  isIdentityKnown: boolean
  /** Its funder was asked before (funded-by is asked once). */
  isFunderKnown: boolean
}

/** Everything a price needs: what the load is, the facts, what is held, and when it is. */
export interface LoadInput {
  depth: LoadDepth
  facts: WalletSizeFacts | null
  held: HeldHistory
  /** When the wallet was first funded (its funder's transfer), which dates its history's start. */
  fundedAtSec: number | null
  nowSec: number
  /** A first sync (holdings and names too); absent for a load of older history. */
  firstSync?: FirstSyncExtras
}

/**
 * How many transactions a wallet's history holds, from what is known: exactly, once held
 * whole; else the newest sample (the look's signatures, or the stored history when it is
 * larger) carried back to the wallet's first funding at its own pace. The signatures of
 * the wallet's address miss transactions only its token accounts took part in, so a
 * figure from them is "or more".
 *
 * @example
 * estimateHistorySize({ facts, held: NOTHING_HELD, fundedAtSec, nowSec }).transactions // ≈ 1,000,000
 */
export function estimateHistorySize(
  input: Pick<LoadInput, 'facts' | 'held' | 'fundedAtSec' | 'nowSec'>,
): HistorySize {
  const { facts, held } = input
  if (held.isWhole) return { transactions: held.transactions, isAtLeast: false, isCarried: false }
  if (facts !== null && !facts.hasMoreSignatures)
    return {
      transactions: Math.max(facts.signatures, held.transactions),
      isAtLeast: false,
      isCarried: false,
    }
  const pace = sampleOf(input)
  const known = Math.max(held.transactions, facts?.signatures ?? 0)
  const fundedAtSec = input.fundedAtSec ?? facts?.fundedAtSec ?? null
  if (pace === null || fundedAtSec === null || fundedAtSec >= pace.oldestSec)
    return { transactions: known, isAtLeast: true, isCarried: false }
  const carried = (pace.count * (pace.asOfSec - fundedAtSec)) / (pace.asOfSec - pace.oldestSec)
  return { transactions: Math.max(known, roughly(carried)), isAtLeast: true, isCarried: true }
}

/**
 * What a load of `input.depth` will store and cost: history pages of 100 at 100 credits,
 * their transfers (the wallet's own ratio once it has some stored), and for a first sync
 * the holdings snapshot, compressed signatures and the names.
 *
 * @example
 * priceHistoryLoad({ depth: FIRST_SYNC_DEPTH, facts, held: NOTHING_HELD, fundedAtSec: null,
 *   nowSec, firstSync: { isIdentityKnown: false, isFunderKnown: false } }).credits
 * // { low: 2440, high: 4640 }
 */
export function priceHistoryLoad(input: LoadInput): HistoryLoadCost {
  const size = estimateHistorySize(input)
  const { transactions, isOpenEnded } = transactionsOf(input, size)
  const perTransaction =
    input.held.transactions >= WALLET_PAGE_ITEMS
      ? {
          low: input.held.transfers / input.held.transactions,
          high: input.held.transfers / input.held.transactions,
        }
      : TRANSFERS_PER_TRANSACTION
  const transfers = {
    low: Math.ceil(transactions.low * perTransaction.low),
    high: Math.ceil(transactions.high * perTransaction.high),
  }
  const first = input.firstSync
  // A first sync reads the top page of each stream whatever the wallet holds.
  const minPages = first ? 1 : 0
  const lines: CostLine[] = [
    {
      part: 'history',
      credits: pagesCredits(transactions, WALLET_PAGE_ITEMS, CREDIT_PRICES.wallet, minPages),
      note: `${rangeText(transactions)} transactions, ${WALLET_PAGE_ITEMS} a page`,
    },
    {
      part: 'transfers',
      credits: pagesCredits(transfers, WALLET_PAGE_ITEMS, CREDIT_PRICES.wallet, minPages),
      note:
        perTransaction === TRANSFERS_PER_TRANSACTION
          ? `their transfers, ${TRANSFERS_PER_TRANSACTION.low}–${TRANSFERS_PER_TRANSACTION.high} a transaction`
          : `their transfers, ${perTransaction.low.toFixed(1)} a transaction as stored so far`,
    },
    ...(first ? [holdingsLine(input.facts)] : []),
    {
      part: 'compressed',
      // One page of 1,000 compression signatures each, owner and token owner; a first sync
      // also reads the compressed state of a wallet that has some (three calls).
      credits: first
        ? { low: 2 * CREDIT_PRICES.compression, high: 5 * CREDIT_PRICES.compression }
        : { low: 0, high: 2 * CREDIT_PRICES.compression },
      note: 'compression signatures, 1,000 a page',
    },
    namesLine(transfers, first),
  ]
  const credits = lines.reduce(
    (sum, line) => ({ low: sum.low + line.credits.low, high: sum.high + line.credits.high }),
    { low: 0, high: 0 },
  )
  const storedAfter = input.held.transactions + transactions.high
  const leavesOlder = size.isAtLeast || storedAfter < size.transactions
  return { transactions, isOpenEnded, leavesOlder, size, lines, credits }
}

/**
 * The one figure a person reads for a range: its middle, to the nearest 10 credits.
 *
 * @example
 * creditsEstimateText({ low: 2440, high: 4640 }) // '≈ 3,540 credits'
 */
export function creditsEstimateText(range: CreditRange, isOpenEnded = false): string {
  const middle = Math.round((range.low + range.high) / 20) * 10
  return `≈ ${formatCount(middle)}${isOpenEnded ? '+' : ''} credits`
}

/** "1,000" for an exact figure, "1,000–3,000" for a range. */
export function rangeText(range: CreditRange): string {
  return range.low === range.high
    ? formatCount(range.low)
    : `${formatCount(range.low)}–${formatCount(range.high)}`
}

/**
 * A history's size as a person reads it: "64", "≈ 1,000,000+" (carried back to its
 * start), "more than 1,000" (known only from below).
 *
 * @example
 * historySizeText({ transactions: 1_000_000, isAtLeast: true, isCarried: true }) // '≈ 1,000,000+'
 */
export function historySizeText(size: HistorySize): string {
  if (!size.isAtLeast) return formatCount(size.transactions)
  return `${size.isCarried ? '≈ ' : 'more than '}${formatCount(size.transactions)}${size.isCarried ? '+' : ''}`
}

/**
 * The parts of a cost in one line: "history 1,000 · transfers 1,000–3,000 · holdings 120 ·
 * compressed 20–50 · names 300–400".
 */
export function costLinesText(lines: readonly CostLine[]): string {
  return lines
    .filter((l) => l.credits.high > 0)
    .map((l) => `${l.part} ${rangeText(l.credits)}`)
    .join(' · ')
}

/**
 * What a first sync of `depth` stores, in words: "newest 1,000 transactions", "all 64
 * transactions", "transactions since 2026-10-01 (≈ 2,300)", "all ≈ 1,000,000+ transactions".
 */
export function depthText(depth: LoadDepth, cost: HistoryLoadCost): string {
  const { maxTransactions: count, sinceSec } = depth
  if (!cost.leavesOlder && (count === null || cost.size.transactions <= count))
    return `all ${countText(cost.size.transactions, 'transaction')}`
  if (count !== null && sinceSec === null) return `newest ${countText(count, 'transaction')}`
  if (sinceSec !== null) {
    const date = new Date(sinceSec * 1000).toISOString().slice(0, 10)
    return `transactions since ${date} (≈ ${rangeText(cost.transactions)}${count !== null ? `, at most ${formatCount(count)}` : ''})`
  }
  return cost.size.isAtLeast && !cost.size.isCarried
    ? `all transactions, ${historySizeText(cost.size)}`
    : `all ${historySizeText(cost.size)} transactions`
}

/**
 * The sentence `watch add` prints and the add dialog shows: "First sync ≈ 3,540 credits
 * (newest 1,000 transactions, 6 holdings, names); older history on request".
 */
export function firstSyncText(
  depth: LoadDepth,
  cost: HistoryLoadCost,
  facts: WalletSizeFacts | null,
): string {
  const holdings = holdingsOf(facts)
  const parts = [
    depthText(depth, cost),
    holdings === null ? 'holdings' : countText(holdings, 'holding'),
    'names',
  ]
  const older = cost.leavesOlder ? '; older history on request' : ''
  return `First sync ${creditsEstimateText(cost.credits, cost.isOpenEnded)} (${parts.join(', ')})${older}`
}

/** SOL, the fungible tokens and the NFTs: what the holdings snapshot lists, when known. */
export function holdingsOf(facts: WalletSizeFacts | null): number | null {
  if (facts === null || facts.fungibleTokens === null) return null
  return 1 + facts.fungibleTokens + (facts.nfts ?? 0)
}

/** The newest sample of the wallet's pace: a count of transactions back to a time, as of a time. */
function sampleOf(
  input: Pick<LoadInput, 'facts' | 'held' | 'nowSec'>,
): { count: number; oldestSec: number; asOfSec: number } | null {
  const { facts, held } = input
  // The stored history counts token-account transactions too: the better sample once larger.
  if (held.oldestSec !== null && held.transactions >= (facts?.signatures ?? 0)) {
    const asOfSec = held.newestSec ?? input.nowSec
    return held.oldestSec < asOfSec
      ? { count: held.transactions, oldestSec: held.oldestSec, asOfSec }
      : null
  }
  // The page's own span: a wallet quiet since its newest signature keeps the pace it had.
  const newestSec = facts?.newestSignatureSec ?? facts?.probedAtSec
  if (facts?.oldestSignatureSec == null || newestSec === undefined) return null
  if (facts.oldestSignatureSec >= newestSec) return null
  return { count: facts.signatures, oldestSec: facts.oldestSignatureSec, asOfSec: newestSec }
}

/** The transactions a load stores beyond what is held: by count, by date, or to the start. */
function transactionsOf(
  input: LoadInput,
  size: HistorySize,
): { transactions: CreditRange; isOpenEnded: boolean } {
  const { depth, held } = input
  const beyond = (n: number): number => Math.max(0, n - held.transactions)
  const toStart = beyond(size.transactions)
  let low = toStart
  let high = toStart
  let isOpenEnded = size.isAtLeast
  if (depth.sinceSec !== null) {
    const pace = sampleOf(input)
    const sinceDate =
      pace === null
        ? size.transactions
        : roughly((pace.count * (pace.asOfSec - depth.sinceSec)) / (pace.asOfSec - pace.oldestSec))
    low = high = beyond(size.isAtLeast ? sinceDate : Math.min(sinceDate, size.transactions))
    isOpenEnded = pace === null && size.isAtLeast
  }
  if (depth.maxTransactions !== null) {
    const cap = beyond(depth.maxTransactions)
    // A size known only from below may still reach the count.
    high = Math.min(isOpenEnded ? cap : high, cap)
    low = Math.min(low, cap)
    isOpenEnded = false
  }
  return { transactions: { low, high: Math.max(low, high) }, isOpenEnded }
}

/** Credits of pages of `perPage` items at `price`, for a range of items. */
function pagesCredits(
  items: CreditRange,
  perPage: number,
  price: number,
  minPages: number,
): CreditRange {
  const pages = (n: number): number => Math.max(minPages, Math.ceil(n / perPage))
  return { low: pages(items.low) * price, high: pages(items.high) * price }
}

/** The holdings snapshot: balances pages of 100 tokens, DAS pages of 1,000 NFTs, naming new mints. */
function holdingsLine(facts: WalletSizeFacts | null): CostLine {
  const tokens = facts?.fungibleTokens ?? null
  const nfts = facts?.nfts ?? null
  // SOL is the first balance; the stream stops at the first DAS page short of 1,000.
  const balancePages = tokens === null ? 1 : Math.ceil((tokens + 1) / WALLET_PAGE_ITEMS)
  const assetPages = nfts === null ? 1 : Math.floor(nfts / DAS_MAX_LIMIT) + 1
  const credits =
    balancePages * CREDIT_PRICES.wallet + assetPages * CREDIT_PRICES.das + CREDIT_PRICES.das
  return {
    part: 'holdings',
    credits: { low: credits, high: credits },
    note:
      tokens === null
        ? 'a holdings snapshot: more for over 100 tokens or 1,000 NFTs'
        : `${countText(tokens + 1, 'token')} and ${countText(nfts ?? 0, 'NFT')}`,
  }
}

/** The wallet's name and funder (first sync), and names of new counterparties in batches of 100. */
function namesLine(transfers: CreditRange, first: FirstSyncExtras | undefined): CostLine {
  const own = first
    ? ((first.isIdentityKnown ? 0 : 1) + (first.isFunderKnown ? 0 : 1)) * CREDIT_PRICES.wallet
    : 0
  const calls = (n: number, share: number): number => Math.ceil((n * share) / NAMES_PER_CALL)
  const low = calls(transfers.low, NEW_COUNTERPARTIES_PER_TRANSFER.low)
  const high = calls(transfers.high, NEW_COUNTERPARTIES_PER_TRANSFER.high)
  return {
    part: 'names',
    credits: {
      low: own + low * CREDIT_PRICES.wallet,
      high: own + Math.max(low, high) * CREDIT_PRICES.wallet,
    },
    note: first
      ? 'the wallet’s name and funder, its new counterparties’ names'
      : 'names of new counterparties',
  }
}

/** A carried-back count rounded to two significant digits: it is a guess, not a count. */
function roughly(n: number): number {
  if (!Number.isFinite(n) || n <= 0) return 0
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1)
  return Math.round(n / magnitude) * magnitude
}
