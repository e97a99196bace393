import { z } from 'zod'
import { CREDIT_PRICES, CREDITS_PER_WEBHOOK_EVENT, type Plan } from '../api/prices'
import { planMonthlyCredits } from './credit-prices'
import { MAX_MULTIPLE_ACCOUNTS, TOKEN_PROGRAM_IDS } from '../api/rpc'

// What watching costs, computed the same way wherever it is shown (Settings before saving,
// the Activity page against what was spent) and matching what the scheduler does.

/** Credits of one incremental call per stream (one page when little is new). */
export const WALLET_CHECK_CREDITS = {
  history: CREDIT_PRICES.wallet,
  transfers: CREDIT_PRICES.wallet,
  // The balances pages and one page of DAS getAssetsByOwner (the NFTs).
  balances: CREDIT_PRICES.wallet + CREDIT_PRICES.das,
  compressed: 2 * CREDIT_PRICES.compression,
  // After the compressed signatures, the state: balance, token balances and accounts.
  compressedState: 3 * CREDIT_PRICES.compression,
} as const

const DAY_SEC = 86_400
const DAYS_PER_MONTH = 30

/**
 * Webhook mode's clocks: while deliveries are trusted the probe runs no faster than these
 * (a delivery names a wallet whose balances move or whose new token account opens;
 * compressed transfers, which no delivery may name, are compared hourly), and the webhook
 * itself is looked at every 6 hours (100 credits a look).
 */
export const WEBHOOK_MODE_CLOCKS = {
  probeFloors: { checkEverySec: 600, tokenAccountsEverySec: 6 * 3_600, compressedEverySec: 3_600 },
  healthCheckEverySec: 6 * 3_600,
} as const

/** How new transactions reach the mirror: by polling, or by webhook deliveries. */
export type WatchMode = 'polling' | 'webhook'

/** One watched wallet, as the projection sees it. */
export const WatchedWalletFootprint = z.object({
  tokenAccounts: z.number().int().min(0),
  /** Of those, NFT token accounts: looked at when token accounts are listed, not every round. */
  collectibleAccounts: z.number().int().min(0).default(0),
  hasCompressedState: z.boolean(),
  /** Changes a day seen so far (0 when nothing was measured yet). */
  changesPerDay: z.number().min(0),
  /** Mean credits a change's sync spent (null: none measured; the one-page cost is assumed). */
  creditsPerChange: z.number().min(0).nullable(),
})
export type WatchedWalletFootprint = z.infer<typeof WatchedWalletFootprint>

/**
 * What watching the current watchlist costs and has cost (`watch:footprint`): the wallets
 * as the projection needs them, and the credits spent and changes seen in the last 24 h.
 */
export const WatchFootprint = z.object({
  wallets: z.array(WatchedWalletFootprint),
  spentLast24h: z.number().min(0),
  changesLast24h: z.number().int().min(0),
})
export type WatchFootprint = z.infer<typeof WatchFootprint>

/** How often watching looks (the cadence settings). */
export interface WatchClocks {
  checkEverySec: number
  tokenAccountsEverySec: number
  compressedEverySec: number
  backstopEverySec: number
}

/** Projected credits a day, by what spends them. */
export interface WatchCostProjection {
  balanceLooks: number
  tokenAccountLists: number
  compressedLooks: number
  backstop: number
  changeSyncs: number
  /** Webhook mode: each delivered transaction (1 credit), and the routine look at the webhook. */
  deliveries: number
  webhookChecks: number
  perDay: number
  perMonth: number
  /** Share of the monthly allowance (0…, may exceed 1), or null when none is known. */
  shareOfMonth: number | null
  /** The monthly allowance compared with (the monthly budget, else the plan's credits). */
  monthlyAllowance: number | null
}

/**
 * Credits a change's sync costs before any was measured: the wallet's newest signatures
 * and the one new transaction (10 each), which give its history, transfers and holdings;
 * a wallet with compressed state reads its compression streams too.
 */
export function changeSyncCredits(hasCompressedState: boolean): number {
  const { compressed, compressedState } = WALLET_CHECK_CREDITS
  return 2 * CREDIT_PRICES.rpcArchival + (hasCompressedState ? compressed + compressedState : 0)
}

/** Credits one backstop of a wallet costs: its newest signature (10), and its compressed look. */
export function backstopCredits(hasCompressedState: boolean): number {
  return CREDIT_PRICES.rpcArchival + (hasCompressedState ? WALLET_CHECK_CREDITS.compressed : 0)
}

/**
 * Projects the credits watching spends a day and a month for a watchlist and cadence.
 *
 * @example
 * const p = projectWatchCost(wallets, cadence, { plan: 'free', monthlyBudget: null })
 * `${Math.round(p.perDay)} credits/day, ${(p.shareOfMonth! * 100).toFixed(1)}% of your plan`
 */
export function projectWatchCost(
  wallets: readonly WatchedWalletFootprint[],
  clocks: WatchClocks,
  allowance: {
    plan: Plan | 'custom' | 'off'
    monthlyBudget: number | null
    /** The Custom plan's monthly credits, when the person gave them. */
    customMonthlyCredits?: number | null
  },
  /** In webhook mode deliveries bring the changes, written as they come (no sync). */
  mode: WatchMode = 'polling',
): WatchCostProjection {
  const isWebhook = mode === 'webhook'
  if (isWebhook) clocks = withProbeFloors(clocks)
  const per = (everySec: number) => DAY_SEC / everySec
  const calls = (accounts: number) => Math.ceil(accounts / MAX_MULTIPLE_ACCOUNTS)
  const everyRound = wallets.reduce(
    (sum, w) => sum + 1 + w.tokenAccounts - w.collectibleAccounts,
    0,
  )
  const collectibles = wallets.reduce((sum, w) => sum + w.collectibleAccounts, 0)
  // Collectibles join the look of the rounds that list token accounts.
  const balanceLooks =
    (per(clocks.checkEverySec) * calls(everyRound) +
      per(clocks.tokenAccountsEverySec) * (calls(everyRound + collectibles) - calls(everyRound))) *
    CREDIT_PRICES.rpcStandard
  const tokenAccountLists =
    per(clocks.tokenAccountsEverySec) *
    wallets.length *
    TOKEN_PROGRAM_IDS.length *
    CREDIT_PRICES.rpcStandard
  const compressedLooks =
    per(clocks.compressedEverySec) *
    wallets.filter((w) => w.hasCompressedState).length *
    WALLET_CHECK_CREDITS.compressed
  const backstop =
    per(clocks.backstopEverySec) *
    wallets.reduce((sum, w) => sum + backstopCredits(w.hasCompressedState), 0)
  const changes = wallets.reduce((sum, w) => sum + w.changesPerDay, 0)
  const changeSyncs = isWebhook
    ? 0
    : wallets.reduce(
        (sum, w) =>
          sum + w.changesPerDay * (w.creditsPerChange ?? changeSyncCredits(w.hasCompressedState)),
        0,
      )
  const deliveries = isWebhook ? changes * CREDITS_PER_WEBHOOK_EVENT : 0
  const webhookChecks = isWebhook
    ? per(WEBHOOK_MODE_CLOCKS.healthCheckEverySec) * CREDIT_PRICES.webhookManagement
    : 0
  const perDay =
    balanceLooks +
    tokenAccountLists +
    compressedLooks +
    backstop +
    changeSyncs +
    deliveries +
    webhookChecks
  const monthlyAllowance =
    allowance.monthlyBudget ??
    planMonthlyCredits(allowance.plan, allowance.customMonthlyCredits ?? null)
  const perMonth = perDay * DAYS_PER_MONTH
  return {
    balanceLooks,
    tokenAccountLists,
    compressedLooks,
    backstop,
    changeSyncs,
    deliveries,
    webhookChecks,
    perDay,
    perMonth,
    shareOfMonth: monthlyAllowance ? perMonth / monthlyAllowance : null,
    monthlyAllowance,
  }
}

/** A cadence no faster than webhook mode's probe floors. */
function withProbeFloors<C extends WatchClocks>(clocks: C): C {
  const floors = WEBHOOK_MODE_CLOCKS.probeFloors
  return {
    ...clocks,
    checkEverySec: Math.max(clocks.checkEverySec, floors.checkEverySec),
    tokenAccountsEverySec: Math.max(clocks.tokenAccountsEverySec, floors.tokenAccountsEverySec),
    compressedEverySec: Math.max(clocks.compressedEverySec, floors.compressedEverySec),
  }
}
