import { balanceAtCostText } from '@shared/domain/balance-at-text'
import { walletName } from '@shared/domain/wallet-address'
import { ExportCancelledError, type BalancesAtChoice } from '@shared/ipc/export-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import type { BalanceAtPlan } from '@shared/ipc/wallet-schemas'
import type { BalanceAtRow } from '../export/csv-presets'
import type { ExportRowSource } from '../export/export-job'
import { assertDayHasBegun, balancesAt, endOfDaySec, planOf, startOfDaySec } from './balances-at'
import { historyGaps } from './history-gaps'
import type { HandlerContext } from './handlers/handler-context'

// The balances-at export kind: one row per wallet × holding at the end of a day, answered
// exactly as `balances:at` answers each wallet, written by the same export pipeline.

/** A balances-at export before it runs: its wallets, what each costs, and in all. */
export interface BalancesAtExportPlan {
  wallets: WatchedWallet[]
  choice: BalancesAtChoice
  plans: BalanceAtPlan[]
  /** What the run spends: nothing from the mirror, the plans' sum from the service. */
  serviceCredits: number
  /** Where the answers come from, and at what cost, in words. */
  sourceText: string
}

/**
 * Plans a balances-at export of `addresses` (every watched wallet when empty). From the
 * mirror, a wallet whose stored history does not cover the day is refused, named with
 * the reason and what asking the service would cost instead.
 */
export async function planBalancesAtExport(
  ctx: HandlerContext,
  addresses: readonly string[],
  choice: BalancesAtChoice,
): Promise<BalancesAtExportPlan> {
  assertDayHasBegun(ctx, choice.date)
  const watched = await ctx.mirror.watchlist.list()
  const wallets =
    addresses.length === 0
      ? watched
      : await Promise.all(addresses.map((a) => ctx.mirror.watchlist.get(a)))
  const atSec = endOfDaySec(choice.date)
  const plans = await Promise.all(
    wallets.map(async (w) =>
      planOf(await ctx.mirror.review.balancesAt(w.address, atSec), choice.includeNfts),
    ),
  )
  const sum = (pick: (p: BalanceAtPlan) => number): number => plans.reduce((n, p) => n + pick(p), 0)
  const total = {
    mints: sum((p) => p.mints),
    serviceCredits: sum((p) => p.serviceCredits),
    nftMints: sum((p) => p.nftMints),
    nftCredits: sum((p) => p.nftCredits),
    includeNfts: choice.includeNfts,
  }
  if (choice.source === 'local') {
    const uncovered = wallets.flatMap((w, i) =>
      plans[i]?.coveredLocally === false
        ? [`${walletName(w)} (${w.address}): ${plans[i]?.reason ?? 'not covered'}`]
        : [],
    )
    if (uncovered.length > 0) {
      // Where the history held does not reach back that far, the load that fills it.
      const gaps = await historyGaps(
        ctx,
        wallets.filter((_, i) => plans[i]?.coveredLocally === false).map((w) => w.address),
        startOfDaySec(choice.date),
      )
      const fill = gaps.map((g) => ` ${g.name}: ${g.offer} (\`${g.command}\`).`).join('')
      throw new InvalidInputError(
        `The mirror cannot rebuild balances on ${choice.date} for ${uncovered.join('; ')}. Ask the service instead (--source service: ${total.serviceCredits.toLocaleString('en-US')} credits), or load the older history:${fill}`,
        { date: choice.date, uncovered, gaps },
      )
    }
  }
  return {
    wallets,
    choice,
    plans,
    serviceCredits: choice.source === 'service' ? total.serviceCredits : 0,
    sourceText:
      choice.source === 'local'
        ? 'rebuilt from the mirror (free)'
        : `from the service, ${balanceAtCostText(total)}`,
  }
}

/**
 * The rows of a planned balances-at export: each wallet answered as `balances:at` answers
 * it (the service asked only now), of `mints` only when some are given. An abort stops
 * asking between calls.
 */
export function balancesAtRows(
  ctx: HandlerContext,
  plan: BalancesAtExportPlan,
  mints: readonly string[],
  signal?: AbortSignal,
): ExportRowSource {
  return {
    open: async (_kind, _filters, batchRows) => {
      const rows = await answerRows(ctx, plan, new Set(mints), signal)
      return {
        totalRows: rows.length,
        // Currency names serve the tax layouts only; balances at a date have the full one.
        mintSymbols: [],
        batches: inBatches(rows, Math.max(1, batchRows)),
        close: async () => {},
      }
    },
  }
}

async function answerRows(
  ctx: HandlerContext,
  plan: BalancesAtExportPlan,
  mints: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<BalanceAtRow[]> {
  const { date, source, includeNfts } = plan.choice
  const rows: BalanceAtRow[] = []
  for (const wallet of plan.wallets) {
    let answer
    try {
      answer = await balancesAt(ctx, {
        address: wallet.address,
        date,
        source,
        includeNfts,
        signal,
      })
    } catch (error) {
      if (signal?.aborted) throw new ExportCancelledError('Export cancelled; no file was written.')
      throw error
    }
    const walletLabel = wallet.label ?? (await ctx.mirror.names.name(wallet.address))?.name ?? null
    for (const b of answer.balances) {
      if (mints.size > 0 && !mints.has(b.mint)) continue
      rows.push({ date, wallet: wallet.address, walletLabel, ...b })
    }
  }
  return rows
}

async function* inBatches<Row>(rows: readonly Row[], size: number): AsyncGenerator<Row[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size)
}
