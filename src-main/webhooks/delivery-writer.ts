import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { serviceDescriptionOf, type EnhancedTransaction } from '@shared/api/webhook-delivery'
import { balancesAnswerOrder, type WalletBalance } from '@shared/api/wallet-rest'
import { decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { MirrorWriter } from '../db/mirror-writer'
import type { HoldingsStore, StoredHoldings } from '../db/stores/holdings-store'
import type { MintStore } from '../db/stores/mint-store'
import { repriced } from '../sync/holdings-from-look'
import { accountsDeliveredTo } from '../sync/account-learning'
import type { WatchStateStore } from '../db/stores/watch-state-store'
import { deliveredView, type Delta } from '../sync/transaction-derivation'

export interface DeliveryWriterDeps {
  writer: MirrorWriter
  mints: MintStore
  holdings: HoldingsStore
  /** Watching's accounts: a new token account a delivery names is watched from its write. */
  watchState?: WatchStateStore
  nowSec: () => number
  nowMs: () => number
}

/** What writing a wallet's delivered transactions did. */
export interface DeliveredWrite {
  newTransactions: number
  newTransfers: number
  /** Whether the holdings were written too (else the balances stream must run). */
  wroteHoldings: boolean
}

/**
 * Writes a wallet's delivered transactions into the mirror as the streams would have
 * stored them, without a call: each enhanced event becomes the history entry and transfers
 * the endpoints list (deliveredView, proved equal over every simulator profile), and the
 * holdings move by what the events changed. Null when a delivery cannot be written so —
 * its history is not complete, an event failed or does not add up, names a mint the mirror
 * has no symbol for, or moves an NFT — and a sync must read the service instead.
 *
 * The history's newest key stays where the last sync left it: a delivery the service did
 * not send sits below the delivered ones, and the next sync's `after` reads from there.
 */
export async function writeDelivered(
  deps: DeliveryWriterDeps,
  walletId: number,
  address: string,
  events: readonly EnhancedTransaction[],
): Promise<DeliveredWrite | null> {
  const { writer } = deps
  const history = await writer.stream(walletId, 'history')
  if (history.newestKey === null || !history.isBackfillComplete || events.length === 0) return null
  const mints = new Set<string>([NATIVE_SOL_MINT])
  for (const e of events) for (const t of e.tokenTransfers) mints.add(t.mint)
  const symbols = await deps.mints.symbolsOf([...mints])
  const views = []
  for (const event of events) {
    const view = deliveredView(address, event, symbols)
    if (!view.ok) return null
    // What the service said of it (its type, marketplace, sentence, NFT sale) is kept.
    const described = serviceDescriptionOf(event)
    views.push({ ...view, entry: described ? { ...view.entry, described } : view.entry })
  }
  views.sort((a, b) => a.entry.slot - b.entry.slot)
  const stamp = { succeededAtSec: deps.nowSec() }
  const transfers = views.flatMap((v) => v.transfers).reverse()
  const newTransfers = await writer.applyTransfersPage(walletId, transfers, stamp)
  const newTransactions = await writer.applyHistoryPage(
    walletId,
    views.map((v) => v.entry),
    { ...stamp, forAlertsAtMs: deps.nowMs() },
  )
  const movesUnread = views.some(
    (v) => v.movesAccountlessAssets || v.entry.balanceChanges.some((c) => c.decimals === 0),
  )
  const previous = movesUnread ? null : await deps.holdings.latest(walletId)
  const balances = previous
    ? movedHoldings(
        previous,
        views.map((v) => v.deltas),
      )
    : null
  if (previous && balances) {
    const items = balances.length + previous.nfts.length
    await writer.applyBalancesSnapshot(walletId, deps.nowSec(), balances, previous.nfts, {
      items,
      ...stamp,
      forAlertsAtMs: deps.nowMs(),
    })
    // Unwritten holdings are read from the balances endpoint, whose answer watches its mints.
    if (deps.watchState)
      await learnDelivered(deps.watchState, walletId, address, events, { ...previous, balances })
  }
  return { newTransactions, newTransfers, wroteHoldings: balances !== null }
}

/** Watches the token accounts the events name as the wallet's that watching does not know. */
async function learnDelivered(
  store: WatchStateStore,
  walletId: number,
  address: string,
  events: readonly EnhancedTransaction[],
  holdings: StoredHoldings,
): Promise<void> {
  const tokens = (await store.accounts([walletId])).filter((a) => a.kind === 'token')
  const learned = accountsDeliveredTo(
    address,
    events,
    new Set(tokens.map((a) => a.address)),
    new Set(tokens.flatMap((a) => (a.mint === null ? [] : [a.mint]))),
    holdings,
  )
  await store.learnTokenAccounts(walletId, learned, false)
}

/**
 * The last snapshot moved by the delivered changes: each balance plus what the events
 * changed of it, priced at the snapshot's price as the balances answer prices it. Null
 * when an event changed a mint the snapshot does not describe.
 */
function movedHoldings(
  previous: StoredHoldings,
  deltas: readonly ReadonlyMap<string, Delta>[],
): WalletBalance[] | null {
  const raw = new Map<string, bigint>()
  for (const b of previous.balances)
    raw.set(b.mint, BigInt(rawFromDecimalText(decimalText(b.balance), b.decimals) ?? 0))
  for (const changes of deltas)
    for (const [mint, d] of changes) {
      if (!raw.has(mint)) return null
      raw.set(mint, (raw.get(mint) ?? 0n) + d.raw)
    }
  const out: WalletBalance[] = []
  for (const b of previous.balances) {
    const amount = raw.get(b.mint) ?? 0n
    if (amount === 0n && b.mint !== NATIVE_SOL_MINT) continue
    out.push(repriced(b, amount))
  }
  return out.sort(balancesAnswerOrder)
}
