import { z } from 'zod'
import {
  HeldHistory,
  HistoryLoadCost,
  HistorySize,
  WalletSizeFacts,
} from '../domain/history-load-cost'
import { WalletAddressInput } from '../domain/wallet-address'
import { AppError, registerErrorClass } from './ipc-errors'
import { DepthLimit, WalletSyncOutcome } from './sync-schemas'

export { ApprovalNeeded } from './sync-schemas'

// Loading a wallet's history: what its first sync and each load of older history will
// store and cost (src-shared/domain/history-load-cost.ts prices both), and the ask before
// one that takes more than a tenth of what is left this month.

const Count = z.number().int().min(0)

/**
 * Whether a load asks first: what is left of this month's credits (the monthly budget, or
 * the plan's credits without one) and a tenth of it; null when no monthly figure is known.
 */
export const SpendAsk = z.object({
  leftThisMonth: Count.nullable(),
  threshold: Count.nullable(),
  /** The load's high estimate is above the threshold and the person has not agreed to it. */
  isAsked: z.boolean(),
})
export type SpendAsk = z.infer<typeof SpendAsk>

/** Input of `sync:first-sync-estimate`: a wallet (watched or not yet) and the depth to price. */
export const FirstSyncEstimateInput = z.object({
  address: WalletAddressInput,
  depth: DepthLimit.optional(),
})

/**
 * A first sync's estimate, with what it was priced from, so that the add dialog prices the
 * other depths the same way (priceHistoryLoad over `basis`).
 */
export const FirstSyncEstimate = z.object({
  address: z.string(),
  depth: DepthLimit,
  basis: z.object({
    facts: WalletSizeFacts.nullable(),
    held: HeldHistory,
    fundedAtSec: z.number().int().nullable(),
    nowSec: z.number().int(),
    firstSync: z.object({ isIdentityKnown: z.boolean(), isFunderKnown: z.boolean() }),
  }),
  cost: HistoryLoadCost,
  /** "First sync ≈ 3,540 credits (newest 1,000 transactions, 6 holdings, names); older history on request" */
  summary: z.string(),
  /** "history 1,000 · transfers 1,000–3,000 · …" */
  breakdown: z.string(),
  /** What looking at the wallet's size cost now: 0 when a recent look was reused. */
  probeCredits: Count,
  ask: SpendAsk,
})
export type FirstSyncEstimate = z.infer<typeof FirstSyncEstimate>

/** How much older history to load: N more transactions, back to a date, or all of it. */
export const OlderHistoryTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('transactions'), count: z.number().int().min(1).max(10_000_000) }),
  z.object({ kind: z.literal('to'), sinceSec: z.number().int().min(0) }),
  z.object({ kind: z.literal('all') }),
])
export type OlderHistoryTarget = z.infer<typeof OlderHistoryTarget>

/** Input of `sync:older-plan`: a watched wallet and the target (absent: go on with the load under way, else the next 1,000). */
export const OlderHistoryPlanInput = z.object({
  address: WalletAddressInput,
  target: OlderHistoryTarget.optional(),
})

/** What a load of older history would do and cost, said before it runs. */
export const OlderHistoryPlan = z.object({
  address: z.string(),
  /** The target priced (the load under way's, when it goes on). */
  target: OlderHistoryTarget,
  /** The history's depth once the load is done. */
  depth: DepthLimit,
  held: HeldHistory,
  /** A load of older history was stopped before its end (budget, cancel): this goes on with it. */
  isContinuing: z.boolean(),
  /** Nothing older to load: the history is held to its start, or to the date asked. */
  isNothingToLoad: z.boolean(),
  /** The wallet's first sync has not finished: it comes first. */
  isFirstSyncPending: z.boolean(),
  cost: HistoryLoadCost,
  /** "Older history: ≈ 3,200 credits (2,000 more transactions, back from 2026-11-28)" */
  summary: z.string(),
  breakdown: z.string(),
  ask: SpendAsk,
})
export type OlderHistoryPlan = z.infer<typeof OlderHistoryPlan>

/** Input of `sync:older`: runs the load, having said its cost; `approvedCredits` answers the ask. */
export const OlderHistoryRunInput = OlderHistoryPlanInput.extend({
  approvedCredits: Count.optional(),
})

/** How a load of older history ended: its streams, what is now held, and whether it is done. */
export const OlderHistoryOutcome = z.object({
  outcome: WalletSyncOutcome,
  held: HeldHistory,
  /** The target is reached (or the history's start): nothing of this load is left. */
  isDone: z.boolean(),
  summary: z.string(),
})
export type OlderHistoryOutcome = z.infer<typeof OlderHistoryOutcome>

/** Input of `sync:approve`: the person agrees the wallet's pending load may take `credits`. */
export const SyncApproveInput = z.object({
  address: WalletAddressInput,
  credits: Count,
})

/**
 * The wallet page's line about its history: "newest 1,000 of ≈ 1,000,000+ transactions",
 * with the next load of older history (null when the history is held whole).
 */
export const HistoryDepthView = z.object({
  address: z.string(),
  held: HeldHistory,
  size: HistorySize,
  text: z.string(),
  older: OlderHistoryPlan.nullable(),
})
export type HistoryDepthView = z.infer<typeof HistoryDepthView>

/**
 * A period asked for (an export, balances on a date) that the mirror does not hold for a
 * wallet: what it holds, and the load of older history that would fill it, with its cost.
 */
export const HistoryGap = z.object({
  address: z.string(),
  /** The wallet as the person knows it: its label, else its address. */
  name: z.string(),
  /** Block time of the oldest stored transaction; null when nothing is stored yet. */
  heldFromSec: z.number().int().nullable(),
  target: OlderHistoryTarget,
  cost: HistoryLoadCost,
  /** "Whale: the mirror holds its history from 2026-11-28 only; anything older is not in it. …" */
  text: z.string(),
  /** "load older history back to 2025-01-01 (≈ 3,400 credits)", or that the first sync comes first. */
  offer: z.string(),
  /** The command that loads it: `heliograph sync --deeper ADDR --to 2025-01-01`. */
  command: z.string(),
})
export type HistoryGap = z.infer<typeof HistoryGap>

/**
 * A load that would take more than a tenth of what is left of this month's credits was not
 * started: the person is asked first. `details`: the wallet, what it would cost (its high
 * estimate), what is left, and the flag that agrees on the command line.
 */
export class ApprovalNeededError extends AppError {
  override name = 'ApprovalNeededError'
}
registerErrorClass('ApprovalNeededError', ApprovalNeededError)
