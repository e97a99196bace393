import {
  costLinesText,
  creditsEstimateText,
  firstSyncText,
  NOTHING_HELD,
  priceHistoryLoad,
  type HeldHistory,
  type HistoryLoadCost,
  type LoadDepth,
  type LoadInput,
  type WalletSizeFacts,
} from '@shared/domain/history-load-cost'
import { formatCount } from '@shared/domain/display-text'
import {
  ApprovalNeededError,
  type ApprovalNeeded,
  type FirstSyncEstimate,
  type OlderHistoryPlan,
  type OlderHistoryTarget,
  type SpendAsk,
} from '@shared/ipc/history-load-schemas'
import { FIRST_SYNC_DEPTH } from '@shared/ipc/sync-schemas'
import type { MirrorWriter, StreamRow } from '../db/mirror-writer'
import type { HistoryLoadStore } from '../db/stores/history-load-store'
import type { NamesStore } from '../db/stores/names-store'

/** How many more transactions "Load older history" loads when the person names no target. */
export const OLDER_HISTORY_STEP = 1_000

/** A look at a wallet's size younger than this is reused rather than bought again. */
export const PROBE_FRESH_SEC = 60 * 60

/** A single load above this share of what is left of the month's credits asks first. */
export const ASK_SHARE_OF_MONTH_LEFT = 0.1

export interface HistoryLoadsOptions {
  loads: HistoryLoadStore
  names: NamesStore
  writer: MirrorWriter
  /** The month's credits (the monthly budget, else the plan's) and what is spent of them. */
  month: () => Promise<{ allowance: number | null; spent: number }>
  /** How long an asked name stays fresh: a first sync asks the wallet's own again after it. */
  namesRefreshSec: () => Promise<number>
  nowSec: () => number
}

/** What a load of a wallet is priced from, besides its depth. */
export type LoadBasis = Omit<LoadInput, 'depth'> & {
  firstSync: NonNullable<LoadInput['firstSync']>
}

/**
 * What loading a wallet's history will cost, and whether it may start: a first sync or a
 * load of older history that would take more than a tenth of what is left of this
 * month's credits asks first (ApprovalNeededError) unless the person agreed to it. Watching
 * is not asked: it fits the month by itself (alerts/cadence-fitter.ts).
 */
export class HistoryLoads {
  readonly #o: HistoryLoadsOptions

  constructor(options: HistoryLoadsOptions) {
    this.#o = options
  }

  /** What a wallet's load is priced from: the look at its size, what is held, its funder, its names. */
  async basis(address: string, walletId: number | null): Promise<LoadBasis> {
    const { loads, names } = this.#o
    const nowSec = this.#o.nowSec()
    const own = await names.name(address)
    const funding = walletId === null ? null : await names.funding(walletId)
    const refreshSec = await this.#o.namesRefreshSec()
    return {
      facts: await loads.probe(address),
      held: walletId === null ? NOTHING_HELD : await loads.held(walletId),
      fundedAtSec: funding?.fundedAtSec ?? null,
      nowSec,
      firstSync: {
        isIdentityKnown: own !== null && own.fetchedAtSec >= nowSec - refreshSec,
        isFunderKnown: funding !== null && funding.status !== 'unavailable',
      },
    }
  }

  /** Whether the kept look at a wallet's size is recent enough to price from. */
  isProbeFresh(facts: WalletSizeFacts | null): boolean {
    return facts !== null && this.#o.nowSec() - facts.probedAtSec < PROBE_FRESH_SEC
  }

  /**
   * The first sync's estimate for a wallet at `depth` (its own depth once watched, else
   * FIRST_SYNC_DEPTH), and whether it would ask first.
   */
  async firstSyncEstimate(
    address: string,
    depth: LoadDepth | null,
    probeCredits: number,
  ): Promise<FirstSyncEstimate> {
    const walletId = await this.#o.writer.walletId(address)
    const basis = await this.basis(address, walletId)
    const chosen = depth ?? (walletId === null ? FIRST_SYNC_DEPTH : await this.#depthOf(walletId))
    const cost = priceHistoryLoad({ ...basis, depth: chosen })
    const approved = walletId === null ? null : await this.#approvedCredits(walletId)
    return {
      address,
      depth: chosen,
      basis,
      cost,
      summary: firstSyncText(chosen, cost, basis.facts),
      breakdown: costLinesText(cost.lines),
      probeCredits,
      ask: await this.ask(cost, approved),
    }
  }

  /**
   * What a load of older history to `target` would do (no target: go on with the load
   * under way, else the next OLDER_HISTORY_STEP transactions) and cost.
   */
  async olderPlan(address: string, target?: OlderHistoryTarget): Promise<OlderHistoryPlan> {
    const walletId = await this.#walletIdOrThrow(address)
    const basis = await this.basis(address, walletId)
    const history = await this.#history(walletId)
    const open = await this.#o.loads.load(walletId)
    const isContinuing = target === undefined && open?.kind === 'older'
    const chosen: OlderHistoryTarget =
      target ??
      (isContinuing && open
        ? targetOf(open.target, basis.held)
        : { kind: 'transactions', count: OLDER_HISTORY_STEP })
    const depth =
      isContinuing && open ? open.target : depthOfTarget(chosen, basis.held.transactions)
    const cost = priceHistoryLoad({ ...basis, firstSync: undefined, depth })
    const isFirstSyncPending = !history.isBackfillComplete
    const isNothingToLoad =
      basis.held.isWhole ||
      (depth.maxTransactions !== null && depth.maxTransactions <= basis.held.transactions) ||
      (depth.sinceSec !== null &&
        basis.held.oldestSec !== null &&
        basis.held.oldestSec < depth.sinceSec)
    const approved = isContinuing && open ? open.approvedCredits : null
    return {
      address,
      target: chosen,
      depth,
      held: basis.held,
      isContinuing,
      isNothingToLoad,
      isFirstSyncPending,
      cost,
      summary: olderSummary(chosen, cost, basis.held, isNothingToLoad),
      breakdown: costLinesText(cost.lines),
      ask: await this.ask(cost, approved),
    }
  }

  /** Whether a load of `cost` asks first, given what is left this month and what was agreed. */
  async ask(cost: HistoryLoadCost, approvedCredits: number | null): Promise<SpendAsk> {
    const { allowance, spent } = await this.#o.month()
    if (allowance === null) return { leftThisMonth: null, threshold: null, isAsked: false }
    const leftThisMonth = Math.max(0, allowance - spent)
    const threshold = Math.floor(leftThisMonth * ASK_SHARE_OF_MONTH_LEFT)
    const isUnbounded = isUnboundedLoad(cost)
    const isAsked =
      (cost.credits.high > threshold || isUnbounded) && (approvedCredits ?? -1) < cost.credits.high
    return { leftThisMonth, threshold, isAsked }
  }

  /**
   * Refuses to start a first sync (the wallet's history backfill not done) or a load of
   * older history that asks first and was not agreed to: ApprovalNeededError naming its
   * estimate and what is left this month.
   */
  async assertMayStart(
    walletId: number,
    address: string,
    run: { isFirstSync: boolean; older?: LoadDepth },
  ): Promise<void> {
    if (!run.isFirstSync && run.older === undefined) return
    const basis = await this.basis(address, walletId)
    const depth = run.older ?? (await this.#depthOf(walletId))
    const cost = priceHistoryLoad({
      ...basis,
      depth,
      ...(run.older ? { firstSync: undefined } : {}),
    })
    const ask = await this.ask(cost, await this.#approvedCredits(walletId))
    if (!ask.isAsked) return
    const kind = run.older ? 'older' : 'first-sync'
    const summary = run.older
      ? `Loading older history of ${address} (${creditsEstimateText(cost.credits, cost.isOpenEnded)}, up to ${formatCount(cost.credits.high)})`
      : `The first sync of ${address} (${creditsEstimateText(cost.credits, cost.isOpenEnded)}, up to ${formatCount(cost.credits.high)})`
    const details: ApprovalNeeded = {
      address,
      kind,
      credits: cost.credits.high,
      leftThisMonth: ask.leftThisMonth ?? 0,
      summary,
    }
    const why = isUnboundedLoad(cost)
      ? `has more than ${formatCount(cost.size.transactions)} transactions and how many more is not known, so it could take more than a tenth of the ${formatCount(details.leftThisMonth)} credits left this month`
      : `would take more than a tenth of the ${formatCount(details.leftThisMonth)} credits left this month`
    throw new ApprovalNeededError(
      `${summary} ${why}, so it asks first: agree to it (\`--yes\` on the command line) to start it.`,
      details,
    )
  }

  /** After a wallet's run: a first sync whose history is done leaves nothing to agree to. */
  async afterRun(walletId: number): Promise<void> {
    const open = await this.#o.loads.load(walletId)
    if (open?.kind !== 'first-sync') return
    const history = await this.#history(walletId)
    if (history.isBackfillComplete) await this.#o.loads.finish(walletId)
  }

  /**
   * The wallet's history stream, read without writing when it exists: a plan or an
   * estimate is read on a folder opened read-only too (an export, balances at a date).
   */
  async #history(walletId: number): Promise<StreamRow> {
    const rows = await this.#o.writer.streams([walletId])
    const history = rows.find((r) => r.stream === 'history')
    if (history === undefined) throw new Error(`No history stream for wallet ${walletId}.`)
    return history
  }

  async #approvedCredits(walletId: number): Promise<number | null> {
    return (await this.#o.loads.load(walletId))?.approvedCredits ?? null
  }

  async #depthOf(walletId: number): Promise<LoadDepth> {
    const history = await this.#history(walletId)
    return { maxTransactions: history.depthLimitCount, sinceSec: history.depthLimitSinceSec }
  }

  async #walletIdOrThrow(address: string): Promise<number> {
    const walletId = await this.#o.writer.walletId(address)
    if (walletId === null) throw new Error(`Wallet ${address} is not on the watchlist.`)
    return walletId
  }
}

/** The history's depth once a load of older history to `target` is done. */
export function depthOfTarget(target: OlderHistoryTarget, heldTransactions: number): LoadDepth {
  switch (target.kind) {
    case 'transactions':
      return { maxTransactions: heldTransactions + target.count, sinceSec: null }
    case 'to':
      return { maxTransactions: null, sinceSec: target.sinceSec }
    case 'all':
      return { maxTransactions: null, sinceSec: null }
  }
}

/** The target of a load under way, as what is left of it. */
function targetOf(depth: LoadDepth, held: HeldHistory): OlderHistoryTarget {
  if (depth.sinceSec !== null) return { kind: 'to', sinceSec: depth.sinceSec }
  if (depth.maxTransactions !== null)
    return {
      kind: 'transactions',
      count: Math.max(1, depth.maxTransactions - held.transactions),
    }
  return { kind: 'all' }
}

/** "Older history: ≈ 3,200 credits (1,000 more transactions, older than 2026-11-28)". */
function olderSummary(
  target: OlderHistoryTarget,
  cost: HistoryLoadCost,
  held: HeldHistory,
  isNothingToLoad: boolean,
): string {
  if (held.isWhole)
    return `The whole history is held (${formatCount(held.transactions)} transactions): nothing older to load.`
  const from = held.oldestSec === null ? '' : `, older than ${dayOf(held.oldestSec)}`
  const what =
    target.kind === 'transactions'
      ? `${formatCount(target.count)} more transactions${from}`
      : target.kind === 'to'
        ? `back to ${dayOf(target.sinceSec)}${from} (≈ ${formatCount(cost.transactions.high)} transactions)`
        : `all of it${from}: ≈ ${formatCount(cost.transactions.high)}${cost.isOpenEnded ? '+' : ''} transactions`
  if (isNothingToLoad)
    return `Nothing older to load: the history is already held ${target.kind === 'to' ? `back to ${dayOf(target.sinceSec)}` : 'that far'}.`
  return `Older history: ${creditsEstimateText(cost.credits, cost.isOpenEnded)} (${what})`
}

function dayOf(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10)
}

/**
 * A load of all of a history seen to be longer than the look's page but whose start is not
 * known (no funder to date it): it could be anything above its figure, so it asks whatever
 * the figure. A wallet never looked at (no size seen) is weighed by its figure alone.
 */
function isUnboundedLoad(cost: HistoryLoadCost): boolean {
  return cost.isOpenEnded && !cost.size.isCarried && cost.size.transactions > 0
}
