import type { z } from 'zod'
import { BALANCE_AT_NATIVE_SOL_MINT, NATIVE_SOL_MINT } from '@shared/api/base58'
import type {
  BalanceAtQuery,
  BalanceAtResponse,
  BalancesQuery,
  BalancesAnswer,
  BatchIdentityRequest,
  FundedByQuery,
  FundedByResponse,
  HistoryEntry,
  HistoryQuery,
  HistoryAnswer,
  Identity,
  IdentityQuery,
  TransferEntry,
  TransfersQuery,
  TransfersAnswer,
} from '@shared/api/wallet-rest'
import {
  counterpartyAddress,
  counterpartyIdentity,
  COUNTERPARTY_COUNT,
} from '../chain/counterparties'
import { decodeEntity } from '../chain/entity-ids'
import type { MintInfo } from '../chain/mints'
import { formatRawAmount, rawToNumber, SOL_MINT_INDEX } from '../chain/mints'
import type { SimChain, SimWallet, TxView } from '../chain/sim-chain'
import {
  historyEntry,
  nftEntry,
  ownedCollectibles,
  sortedHoldings,
  transferEntries,
} from '../chain/views'
import type { HandlerContext } from './handler-context'
import { SCAN_BUDGET } from './handler-context'
import { invalidParams, notFound, SimRequestError } from './http-io'

// Wallet REST (docs/service.md, Wallet REST). Addresses that are not profile wallets
// answer as wallets that never transacted.

/** Largest number of NFTs balances returns, first page only. */
const MAX_BALANCE_NFTS = 100

function requirePaidPlan(ctx: HandlerContext): void {
  // identity and funded-by need a paid plan: 403 on the free plan.
  if (ctx.keys.isFreePlan(ctx.key))
    throw new SimRequestError(
      403,
      -32003,
      'this endpoint needs a paid plan; the key is on the free plan',
    )
}

export function getBalances(
  q: z.output<typeof BalancesQuery>,
  ctx: HandlerContext,
): BalancesAnswer {
  const page = q.page ?? 1
  const limit = q.limit ?? 100
  const wallet = ctx.chain.walletByAddress(q.wallet)
  const showNative = q.showNative ?? true
  const all = wallet
    ? sortedHoldings(ctx.chain, wallet, { showNative, showZeroBalance: q.showZeroBalance ?? false })
    : showNative
      ? [zeroSolBalance(ctx.chain)]
      : []
  const balances = all.slice((page - 1) * limit, page * limit)
  // totalUsdValue is the total of the current page only.
  const totalUsdValue =
    Math.round(balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0) * 100) / 100
  const response: BalancesAnswer = {
    balances,
    totalUsdValue,
    pagination: { page, limit, hasMore: page * limit < all.length },
  }
  if (q.showNfts) {
    // NFTs: at most 100, first page only.
    response.nfts =
      wallet && page === 1
        ? ownedCollectibles(ctx.chain, wallet)
            .slice(0, MAX_BALANCE_NFTS)
            .map((tx) => nftEntry(ctx.chain, tx))
        : []
  }
  return response
}

function zeroSolBalance(chain: SimChain) {
  const sol = chain.mints[SOL_MINT_INDEX] as MintInfo
  return {
    mint: sol.address,
    balance: 0,
    decimals: sol.decimals,
    tokenProgram: sol.tokenProgram,
    symbol: sol.symbol,
    name: sol.name,
    pricePerToken: sol.priceUsd,
    usdValue: 0,
    logoUri: sol.logoUri,
  }
}

/** Walks indices from `start` by `step`, collecting up to `limit` matches plus one look-ahead. */
function scan<T>(
  start: number,
  step: 1 | -1,
  end: number,
  limit: number,
  produce: (index: number) => T[],
): { items: T[]; lastIndex: number; exhausted: boolean; hasMore: boolean; lastScanned: number } {
  const items: T[] = []
  let lastIndex = -1
  let lastScanned = start - step
  let scanned = 0
  let i = start
  for (; step < 0 ? i >= end : i <= end; i += step) {
    if (items.length >= limit || scanned >= SCAN_BUDGET) break
    const found = produce(i)
    scanned++
    lastScanned = i
    for (const item of found) items.push(item)
    if (found.length > 0) lastIndex = i
  }
  const atEnd = step < 0 ? i < end : i > end
  if (atEnd) return { items, lastIndex, exhausted: true, hasMore: false, lastScanned }
  // Look ahead (bounded) so that hasMore=false is exact whenever it can be.
  let more = false
  let peeked = 0
  for (let j = i; (step < 0 ? j >= end : j <= end) && peeked < SCAN_BUDGET; j += step, peeked++) {
    if (produce(j).length > 0) {
      more = true
      break
    }
  }
  const budgetLeft = peeked < SCAN_BUDGET
  return { items, lastIndex, exhausted: false, hasMore: more || !budgetLeft, lastScanned }
}

function cursorIndex(
  chain: SimChain,
  wallet: SimWallet | undefined,
  signature: string,
  name: string,
): number {
  const index = wallet ? chain.indexOfSignature(wallet, signature) : null
  if (index === null) throw invalidParams(`${name}: not a signature of this wallet's history`)
  return index
}

export function getHistory(q: z.output<typeof HistoryQuery>, ctx: HandlerContext): HistoryAnswer {
  const { chain } = ctx
  const limit = q.limit ?? 100
  const wallet = chain.walletByAddress(q.wallet)
  if (q.before !== undefined && q.after !== undefined)
    throw invalidParams('before, after: give one of them, not both')
  if (!wallet) {
    if (q.before !== undefined) cursorIndex(chain, wallet, q.before, 'before')
    if (q.after !== undefined) cursorIndex(chain, wallet, q.after, 'after')
    return { data: [], pagination: { hasMore: false, nextCursor: null } }
  }
  const count = chain.txCount(wallet)
  const tokenAccounts = q.tokenAccounts ?? 'balanceChanged'
  const matches = (tx: TxView): boolean =>
    (q.type === undefined || tx.type === q.type) && (tokenAccounts !== 'none' || tx.directRef)
  const produce = (i: number): HistoryEntry[] => {
    const tx = chain.tx(wallet, i)
    return matches(tx) ? [historyEntry(chain, wallet, tx)] : []
  }
  // `before` pages newest → oldest; `after` pages ascending.
  const result =
    q.after !== undefined
      ? scan(cursorIndex(chain, wallet, q.after, 'after') + 1, 1, count - 1, limit, produce)
      : scan(
          q.before !== undefined ? cursorIndex(chain, wallet, q.before, 'before') - 1 : count - 1,
          -1,
          0,
          limit,
          produce,
        )
  const cursorAt = result.items.length >= limit ? result.lastIndex : result.lastScanned
  return {
    data: result.items,
    pagination: {
      hasMore: result.hasMore,
      nextCursor: result.hasMore && cursorAt >= 0 ? chain.signatureOf(wallet, cursorAt) : null,
    },
  }
}

/** Opaque transfers cursor: the wallet, transaction and leg of the next item. */
function encodeTransferCursor(walletId: number, index: number, leg: number): string {
  return Buffer.from(`t1:${walletId}:${index}:${leg}`).toString('base64url')
}

function decodeTransferCursor(
  cursor: string,
): { walletId: number; index: number; leg: number } | null {
  const match = /^t1:(\d+):(\d+):(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match) return null
  return { walletId: Number(match[1]), index: Number(match[2]), leg: Number(match[3]) }
}

export function getTransfers(
  q: z.output<typeof TransfersQuery>,
  ctx: HandlerContext,
): TransfersAnswer {
  const { chain } = ctx
  const limit = q.limit ?? 50
  const wallet = chain.walletByAddress(q.wallet)
  let start = wallet ? chain.txCount(wallet) - 1 : -1
  let skipLegs = 0
  if (q.cursor !== undefined) {
    const c = decodeTransferCursor(q.cursor)
    if (!wallet || c === null || c.walletId !== wallet.id || c.index >= chain.txCount(wallet)) {
      throw invalidParams("cursor: not a cursor of this wallet's transfers")
    }
    start = c.index
    skipLegs = c.leg
  }
  if (!wallet || start < 0) return { data: [], pagination: { hasMore: false, nextCursor: null } }
  const data: TransferEntry[] = []
  let next: { index: number; leg: number } | null = null
  let scanned = 0
  // Newest first; within a transaction, legs in order.
  for (let i = start; i >= 0; i--) {
    const entries = transferEntries(chain, chain.tx(wallet, i))
    const from = i === start ? skipLegs : 0
    for (let leg = from; leg < entries.length; leg++) {
      if (data.length === limit) {
        next = { index: i, leg }
        break
      }
      data.push(entries[leg] as TransferEntry)
    }
    if (next !== null) break
    if (++scanned >= SCAN_BUDGET && i > 0) {
      next = { index: i - 1, leg: 0 }
      break
    }
  }
  return {
    data,
    pagination: {
      hasMore: next !== null,
      nextCursor: next === null ? null : encodeTransferCursor(wallet.id, next.index, next.leg),
    },
  }
}

function walletIdentity(wallet: SimWallet): Identity | null {
  if (wallet.profile.domain === undefined) return null
  return {
    address: wallet.address,
    type: wallet.profile.id === 'whale' ? 'whale' : 'user',
    name: wallet.profile.domain,
    category: wallet.profile.id === 'whale' ? 'Whale' : 'Individual',
    tags: [wallet.profile.id],
    domainNames: [wallet.profile.domain],
  }
}

function counterpartyIdentityByAddress(chain: SimChain, address: string): Identity | null {
  const c = decodeEntity(chain.seed, 'counterparty', address)
  if (c === null || c.a >= COUNTERPARTY_COUNT) return null
  const id = counterpartyIdentity(c.a)
  return id
    ? { address, type: id.type, name: id.name, category: id.category, tags: [...id.tags] }
    : null
}

/** Identity of an address or domain, or null. */
function resolveIdentity(chain: SimChain, addressOrDomain: string): Identity | null {
  if (addressOrDomain.includes('.')) {
    const wallet = chain.wallets.find(
      (w) => w.profile.domain?.toLowerCase() === addressOrDomain.toLowerCase(),
    )
    return wallet ? walletIdentity(wallet) : null
  }
  const wallet = chain.walletByAddress(addressOrDomain)
  if (wallet) return walletIdentity(wallet)
  return counterpartyIdentityByAddress(chain, addressOrDomain)
}

export function getIdentity(q: z.output<typeof IdentityQuery>, ctx: HandlerContext): Identity {
  requirePaidPlan(ctx)
  const identity = resolveIdentity(ctx.chain, q.wallet)
  if (!identity) throw notFound(`no identity found for ${q.wallet}`)
  return identity
}

export function postBatchIdentity(
  q: z.output<typeof BatchIdentityRequest>,
  ctx: HandlerContext,
): Identity[] {
  requirePaidPlan(ctx)
  // Unknown addresses are left out (how the service shows them is undocumented).
  return q.addresses
    .map((a) => resolveIdentity(ctx.chain, a))
    .filter((i): i is Identity => i !== null)
}

export function getFundedBy(
  q: z.output<typeof FundedByQuery>,
  ctx: HandlerContext,
): FundedByResponse {
  requirePaidPlan(ctx)
  const { chain } = ctx
  const wallet = chain.walletByAddress(q.wallet)
  if (!wallet || chain.txCount(wallet) === 0)
    throw notFound(`no funding transaction found for ${q.wallet}`)
  // Based on the first incoming SOL transfer, which is transaction 0 here.
  const tx = chain.tx(wallet, 0)
  const leg = tx.legs[0]
  if (!leg) throw notFound(`no funding transaction found for ${q.wallet}`)
  const sol = chain.mints[SOL_MINT_INDEX] as MintInfo
  const identity = counterpartyIdentity(leg.counterparty)
  return {
    funder: counterpartyAddress(chain.seed, leg.counterparty),
    funderName: identity?.name ?? null,
    funderType: identity?.type ?? null,
    mint: sol.address,
    symbol: sol.symbol,
    amount: rawToNumber(leg.raw, sol.decimals),
    amountRaw: leg.raw.toString(),
    decimals: sol.decimals,
    signature: tx.signature,
    timestamp: tx.timestamp,
    date: new Date(tx.timestamp * 1000).toISOString(),
    slot: tx.slot,
    explorerUrl: `https://explorer.solana.com/tx/${tx.signature}`,
  }
}

export function getBalanceAt(
  q: z.output<typeof BalanceAtQuery>,
  ctx: HandlerContext,
): BalanceAtResponse {
  const { chain } = ctx
  // balance-at's native pseudo-mint is So1…111; the balances mint So1…112 is accepted too.
  const isNative = q.mint === BALANCE_AT_NATIVE_SOL_MINT || q.mint === NATIVE_SOL_MINT
  const mint = isNative
    ? (chain.mints[SOL_MINT_INDEX] as MintInfo)
    : chain.mintByAddressOrNull(q.mint)
  // An NFT is a mint too (0 decimals, a supply of 1): held from the transaction that
  // brought it; collectibles are never sold in the simulator.
  const nft = mint ? null : chain.assetOrigin(q.mint)
  if (!mint && !nft) throw invalidParams(`mint: ${q.mint} is not a known token mint`)
  let limit: { sec?: number; slot?: number }
  if (q.slot !== undefined) limit = { slot: q.slot }
  else if (q.time !== undefined) limit = { sec: q.time }
  else {
    const ms = Date.parse(q.datetime ?? '')
    if (Number.isNaN(ms)) throw invalidParams('datetime: expected an ISO 8601 date and time')
    limit = { sec: Math.floor(ms / 1000) }
  }
  const wallet = chain.walletByAddress(q.wallet)
  const index = wallet ? chain.lastIndexAtOrBefore(wallet, limit) : -1
  const decimals = mint?.decimals ?? 0
  const raw =
    wallet && index >= 0
      ? mint
        ? (chain.balancesAfter(wallet, index + 1)[mint.index] ?? 0n)
        : nft?.wallet === wallet && nft.tx.collectible?.kind === 'nft' && nft.tx.index <= index
          ? 1n
          : 0n
      : 0n
  const tx = wallet && index >= 0 ? chain.tx(wallet, index) : null
  return {
    wallet: q.wallet,
    mint: q.mint,
    isNative,
    balance: formatRawAmount(raw, decimals),
    balanceRaw: raw.toString(),
    decimals,
    requested: { time: q.time ?? null, slot: q.slot ?? null, datetime: q.datetime ?? null },
    asOf: tx ? { slot: tx.slot, blockTime: tx.timestamp, signature: tx.signature } : null,
  }
}
