import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { ConfirmedTransaction } from '@shared/api/rpc-transaction'
import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import type { HoldingsStore } from '../../db/stores/holdings-store'
import type { MintStore } from '../../db/stores/mint-store'
import type { SyncStateStore } from '../../db/stores/sync-state-store'
import { newItemsOf } from '@shared/ipc/sync-schemas'
import { holdingsFromLook, type LookedAccounts } from '../holdings-from-look'
import { InvalidResponseError } from '../../service/service-errors'
import { UnreadableAnswerError } from '../retry-policy'
import { walletView } from '../transaction-derivation'
import type { StreamContext, StreamResult } from './stream-context'

/** Where transactions the mirror lacks begin: the oldest one's slot and time. */
export interface MissingSince {
  slot: number
  timestampSec: number | null
}

/** The earlier of two starts of what is missing. */
export function earlierMissing(
  a: MissingSince | null | undefined,
  b: MissingSince | null | undefined,
): MissingSince | null {
  if (!a) return b ?? null
  if (!b) return a
  return a.slot <= b.slot ? a : b
}

/** An account whose look differed from the last: lamports or a token amount (0: closed or not yet open). */
export interface MovedAccount {
  address: string
  /** What the last look saw. */
  before: bigint
  /** What this round read. */
  value: bigint
}

/** What watching saw move. */
export interface ChangeEvidence {
  /** The wallet's own account when its lamports moved (first), and each token account that changed or appeared. */
  moved: readonly MovedAccount[]
  /** What the round read of all its accounts (null: not all were read), for the holdings. */
  looked: LookedAccounts | null
  /**
   * Signatures written from webhook deliveries that no read has confirmed: read again with
   * what is new, since one the service never delivered may sit among them.
   */
  delivered?: readonly string[]
}

/**
 * How old the last snapshot's prices may be for a change's holdings to carry them: a
 * wallet that keeps changing asks the balances endpoint again once a day, for prices.
 */
export const HOLDINGS_PRICES_FRESH_SEC = 86_400

/** Newest signatures read per moved account: a change is a few transactions, rarely more. */
export const CHANGE_SIGNATURE_LIMIT = 20

/** How a change sync ended: the streams it answered, or declined (the endpoints answer). */
export type ChangeSyncResult = (
  | {
      answered: true
      history: StreamResult
      transfers: StreamResult
      /** Set when the holdings were written too (else the balances stream runs). */
      balances: StreamResult | null
    }
  | {
      answered: false
      why: string
      calls: number
      /** The oldest transaction the lists it read show the mirror lacks (the streams read from there). */
      missingSince: MissingSince | null
    }
) & {
  /** The transactions it read (written when answered; the endpoints write them otherwise). */
  transactions: readonly ConfirmedTransaction[]
}

/**
 * Syncs a change watching found for a wallet whose history is complete, without the
 * history and transfers endpoints (100 credits each): the newest signatures of a moved
 * account (10 credits) name the transactions the mirror lacks, and each of those is read
 * whole (getTransaction, 10 credits) and turned into the history entry and transfers the
 * endpoints would list (transaction-derivation.ts, proved equal over every simulator
 * profile). The wallet's own list comes first (it signed whatever it paid or sent); a
 * token account is listed only when the transactions found do not leave it at the amount
 * the round read — one that only received is not on the wallet's list. Every moved
 * account must end as read, so nothing that moved it is missed.
 *
 * It declines — and the history and transfers streams run as before, from the newest
 * stored item — when:
 * - a listing shows no stored signature (more is new than it reads, or the mirror has none);
 * - the new transactions do not leave a moved account as the round read it;
 * - a new transaction failed, moved an NFT the mirror has named, names a mint it has no
 *   symbol for, or does not add up (see walletView).
 * Nothing is stored then, so the endpoints find every new item.
 *
 * What waits longer: a transaction that touched only an account the round did not read (an
 * NFT sent back into an account it left, with nothing else of the wallet moving) is found
 * when the next listing reads that account and lists its signatures — below the newest
 * stored item, where `after` paging would not look, but the account's own list shows it.
 *
 * Transfers are stored before history: the history row is what marks a transaction as
 * known, so a stop between the two writes derives it again next time.
 */
export async function syncChange(
  ctx: StreamContext,
  evidence: ChangeEvidence,
  stores: { mints: MintStore; holdings: HoldingsStore; syncState: SyncStateStore },
  withHoldings: boolean,
): Promise<ChangeSyncResult> {
  const { mints } = stores
  const { writer, walletId } = ctx
  let calls = 0
  const found = new Map<string, ConfirmedTransaction>()
  /** The oldest signature the lists showed the mirror lacks. */
  let missingSince: MissingSince | null = null
  const decline = (why: string): ChangeSyncResult => ({
    answered: false,
    why,
    calls,
    missingSince,
    transactions: [...found.values()],
  })
  const history = await writer.stream(walletId, 'history')
  if (history.newestKey === null || !history.isBackfillComplete)
    return decline('the history is not complete')

  const delivered = new Set(evidence.delivered ?? [])
  /**
   * An account's newest signatures down to the first one a read of the service confirmed
   * (stored, and not only delivered), and which of them are stored; null when all it
   * lists are newer than that.
   */
  const unconfirmed = async (address: string) => {
    const listed = await ctx.call('rpc.getSignaturesForAddress', [
      address,
      { limit: CHANGE_SIGNATURE_LIMIT },
    ])
    calls++
    const known = await writer.knownSignatures(
      walletId,
      listed.map((s) => s.signature),
    )
    for (const s of listed)
      if (!known.has(s.signature))
        missingSince = earlierMissing(missingSince, { slot: s.slot, timestampSec: s.blockTime })
    const confirmed = listed.findIndex((s) => known.has(s.signature) && !delivered.has(s.signature))
    if (confirmed === -1 && listed.length === CHANGE_SIGNATURE_LIMIT) return null
    return { window: confirmed === -1 ? listed : listed.slice(0, confirmed), known }
  }
  if (evidence.moved.length === 0) {
    // A compressed change: the history gains only what the wallet signed (a compressed
    // transfer to it names neither it nor its token accounts), which its own newest
    // signatures show. Nothing new there, and no page is read.
    const newest = await unconfirmed(ctx.address)
    if (newest === null) return decline('more is new than one listing shows')
    if (newest.window.some((s) => !newest.known.has(s.signature)))
      return decline('the wallet signed something new')
    return {
      answered: true,
      history: { stream: 'history', pages: calls, newItems: 0 },
      transfers: { stream: 'transfers', pages: 0, newItems: 0 },
      balances: null,
      transactions: [],
    }
  }
  for (const moved of evidence.moved) {
    // Often one transaction moved several accounts: read only what it leaves unexplained.
    if (explains(found, ctx.address, moved)) continue
    const newest = await unconfirmed(moved.address)
    if (newest === null) return decline('more is new than one listing shows')
    const fresh = newest.window.filter((s) => !found.has(s.signature))
    if (fresh.some((s) => s.err !== null)) return decline('a new transaction failed')
    calls += fresh.length
    let read: (ConfirmedTransaction | null)[]
    try {
      read = await Promise.all(fresh.map((s) => readTransaction(ctx, s.signature)))
    } catch (error) {
      // A transaction the schemas refuse is no reason to pause history: the endpoints answer.
      if (error instanceof InvalidResponseError || error instanceof UnreadableAnswerError)
        return decline(error.message)
      throw error
    }
    for (const tx of read) {
      if (tx === null) return decline('a listed transaction is not found')
      found.set(tx.transaction.signatures[0] as string, tx)
    }
    // Something else moved it too (or moves it since the round's look).
    if (!explains(found, ctx.address, moved))
      return decline('the new transactions do not explain what the round read')
  }
  if (found.size === 0) return decline('no new transaction on the accounts that moved')
  const transactions = [...found.values()]
  const symbols = await mints.symbolsOf([...mintsNamedBy(transactions)])
  const views = []
  for (const tx of transactions) {
    if (tx === null) return decline('a listed transaction is not found')
    const view = walletView(ctx.address, tx, symbols)
    if (!view.ok) return decline(view.why)
    views.push(view)
  }

  // History ascends like an `after` page; transfers come newest first, as the endpoint lists.
  views.sort((a, b) => a.entry.slot - b.entry.slot)
  const newest = views.at(-1)?.entry as HistoryEntry
  // The newest key only moves forward: an NFT sent back to an account the round had not
  // read, found at the next listing, is older than what other changes stored since.
  const topSlot = await stores.syncState.slotOf(walletId, history.newestKey)
  const isNewer = topSlot === null || newest.slot > topSlot
  const transfers: TransferEntry[] = views.flatMap((v) => v.transfers).reverse()
  const stamp = { succeededAtSec: ctx.nowSec() }
  const news = ctx.newsAtMs ? { forAlertsAtMs: ctx.newsAtMs() } : {}
  const newTransfers = await writer.applyTransfersPage(walletId, transfers, {
    ...(transfers[0] ? { newestKey: transfers[0].signature } : {}),
    ...stamp,
  })
  const newTransactions = await writer.applyHistoryPage(
    walletId,
    views.map((v) => v.entry),
    { ...(isNewer ? { newestKey: newest.signature } : {}), addPages: calls, ...news, ...stamp },
  )
  // The look read the accounts it watched: a mint moved in another (a token account the
  // transactions opened) is not among its amounts, so the balances endpoint answers.
  const read = new Set(evidence.looked?.tokens.map((t) => t.mint) ?? [])
  const movesUnreadHoldings = views.some(
    (v) =>
      v.movesAccountlessAssets ||
      v.entry.balanceChanges.some(
        (c) => c.decimals === 0 || (c.mint !== NATIVE_SOL_MINT && !read.has(c.mint)),
      ),
  )
  return {
    answered: true,
    transactions,
    history: { stream: 'history', pages: calls, newItems: newTransactions },
    transfers: { stream: 'transfers', pages: 0, newItems: newTransfers },
    balances:
      withHoldings && evidence.looked !== null && !movesUnreadHoldings
        ? await writeHoldings(ctx, evidence.looked, stores.holdings)
        : null,
  }
}

/**
 * Writes the holdings the round read as the next snapshot (holdings-from-look.ts), when
 * the last one's prices are fresh enough to carry; null when the balances stream must
 * answer. Not for a change that moved an NFT or an asset no token account holds (a
 * compressed NFT): the accounts a round reads every minute do not show those holdings.
 */
async function writeHoldings(
  ctx: StreamContext,
  looked: LookedAccounts,
  holdings: HoldingsStore,
): Promise<StreamResult | null> {
  const row = await ctx.writer.stream(ctx.walletId, 'balances')
  // newestKey is when the balances endpoint last answered: the prices' age.
  const pricedAtSec = row.newestKey === null ? null : Number(row.newestKey)
  if (pricedAtSec === null || ctx.nowSec() - pricedAtSec >= HOLDINGS_PRICES_FRESH_SEC) return null
  const previous = await holdings.latest(ctx.walletId)
  if (previous === null) return null
  const balances = holdingsFromLook(previous, looked)
  if (typeof balances === 'string') return null
  const items = balances.length + previous.nfts.length
  await ctx.writer.applyBalancesSnapshot(ctx.walletId, ctx.nowSec(), balances, previous.nfts, {
    items,
    isBackfillComplete: true,
    succeededAtSec: ctx.nowSec(),
    ...(ctx.newsAtMs ? { forAlertsAtMs: ctx.newsAtMs() } : {}),
  })
  return { stream: 'balances', pages: 0, newItems: newItemsOf(row.itemsStored, items) }
}

/**
 * Whether the transactions found take `moved` from what the last look saw to what this
 * round read, one after another (each starts where the one before left it): then no
 * transaction missing from them moved it. Lamports for the wallet, a token amount (0
 * while the account does not exist) for a token account.
 */
function explains(
  found: ReadonlyMap<string, ConfirmedTransaction>,
  wallet: string,
  moved: MovedAccount,
): boolean {
  const steps: { slot: number; pre: bigint; post: bigint }[] = []
  for (const tx of found.values()) {
    const index = tx.transaction.message.accountKeys.findIndex((k) => k.pubkey === moved.address)
    if (index === -1 || tx.meta === null) continue
    const { meta } = tx
    const tokenAmount = (list: typeof meta.postTokenBalances) =>
      BigInt(list?.find((b) => b.accountIndex === index)?.uiTokenAmount.amount ?? 0)
    steps.push(
      moved.address === wallet
        ? {
            slot: tx.slot,
            pre: BigInt(meta.preBalances[index] ?? 0),
            post: BigInt(meta.postBalances[index] ?? 0),
          }
        : {
            slot: tx.slot,
            pre: tokenAmount(meta.preTokenBalances),
            post: tokenAmount(meta.postTokenBalances),
          },
    )
  }
  steps.sort((a, b) => a.slot - b.slot)
  let value = moved.before
  for (const step of steps) {
    if (step.pre !== value) return false
    value = step.post
  }
  return steps.length > 0 && value === moved.value
}

function readTransaction(ctx: StreamContext, signature: string) {
  return ctx.call('rpc.getTransaction', [
    signature,
    { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
  ])
}

/** SOL and every mint the transactions' token balances name. */
function mintsNamedBy(transactions: readonly (ConfirmedTransaction | null)[]): Set<string> {
  const out = new Set<string>([NATIVE_SOL_MINT])
  for (const tx of transactions)
    for (const b of [...(tx?.meta?.preTokenBalances ?? []), ...(tx?.meta?.postTokenBalances ?? [])])
      out.add(b.mint)
  return out
}
