import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { WatchCadence } from '@shared/ipc/settings-schemas'
import type { WatchCadenceView } from '@shared/ipc/watch-cadence-schemas'
import { changeBounds, clockCredits, newAccountSeenText } from '@shared/domain/watch-bounds'
import { projectWatchCost, WEBHOOK_MODE_CLOCKS } from '@shared/domain/watch-cost'
import { describeIssues } from '@shared/validation/zod-issues'
import { storedBudgetFit } from '../../alerts/cadence-fitter'
import { readWatchFootprint } from '../../sync/watch-footprint'
import { readSettings, writeSettings } from '../app-settings'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup } from './handler-table'

/** The clocks in the order a person reads them. */
const CLOCKS = [
  'checkEverySec',
  'tokenAccountsEverySec',
  'compressedEverySec',
  'backstopEverySec',
] as const

/** Handlers of `watch:cadence` and `watch:set-cadence`. */
export function watchCadenceHandlers(ctx: HandlerContext) {
  const view = async (): Promise<WatchCadenceView> => {
    const settings = await readSettings(ctx.settings)
    const cadence = settings.watch
    const footprint = await readWatchFootprint(ctx.mirror, ctx.nowSec())
    const mode = ctx.webhookMode()?.state().mode === 'webhook' ? 'webhook' : 'polling'
    const p = projectWatchCost(
      footprint.wallets,
      cadence,
      {
        plan: settings.plan,
        monthlyBudget: settings.monthlyBudget,
        customMonthlyCredits: settings.customMonthlyCredits,
      },
      mode,
    )
    const perClock = clockCredits(p)
    const floors: Partial<Record<(typeof CLOCKS)[number], number>> =
      mode === 'webhook' ? WEBHOOK_MODE_CLOCKS.probeFloors : {}
    return {
      cadence,
      fittedLine: cadence.isWatching ? ((await storedBudgetFit(ctx.mirror))?.line ?? null) : null,
      mode,
      wallets: footprint.wallets.length,
      clocks: CLOCKS.map((clock) => ({
        clock,
        everySec: cadence[clock],
        runsEverySec: Math.max(cadence[clock], floors[clock] ?? 0),
        creditsPerDay: perClock[clock],
      })),
      changeSyncsPerDay: p.changeSyncs,
      webhooksPerDay: p.deliveries + p.webhookChecks,
      perDay: p.perDay,
      perMonth: p.perMonth,
      shareOfMonth: p.shareOfMonth,
      // A budget that follows the plan (a fresh mirror's) is the plan's credits: said so.
      shareOf:
        settings.monthlyBudget === null || settings.monthlyBudgetFollowsPlan
          ? 'plan'
          : 'monthly budget',
      plan: settings.plan,
      changes: changeBounds(cadence),
      newAccountSeen: newAccountSeenText(cadence),
    }
  }

  return {
    'watch:cadence': view,
    'watch:set-cadence': async (change) => {
      const before = await readSettings(ctx.settings)
      const next = WatchCadence.safeParse({ ...before.watch, ...definedOf(change) })
      if (!next.success)
        throw new InvalidInputError(`The cadence was not changed: ${describeIssues(next.error)}`, {
          settings: ['watch'],
        })
      await writeSettings(ctx.settings, { watch: next.data }, ctx.nowSec())
      return view()
    },
  } satisfies HandlerGroup
}

/** The fields a change names (an absent one keeps its setting). */
function definedOf<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<T>
}
