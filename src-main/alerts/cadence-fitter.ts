import { nowSec, type Clock } from '@shared/clock'
import { budgetFitLine, fitCadenceToBudget, type BudgetFit } from '@shared/domain/budget-fit'
import { BudgetFitView } from '@shared/ipc/health-schemas'
import type { WatchCadence } from '@shared/ipc/settings-schemas'
import type { Mirror } from '../db/mirror'
import { readWatchFootprint } from '../sync/watch-footprint'

/** How often the fit is worked out again (the footprint and the month's spending move slowly). */
export const FIT_REFRESH_SEC = 300

/** Where the watching process keeps its fit for commands that only read. */
const FIT_SETTINGS_KEY = 'budget-fit'

/** The fit the watching process last kept in the mirror, or null. */
export async function storedBudgetFit(mirror: Mirror): Promise<BudgetFitView | null> {
  const parsed = BudgetFitView.nullable().safeParse(
    (await mirror.settings.read(FIT_SETTINGS_KEY)) ?? null,
  )
  return parsed.success ? parsed.data : null
}

/** Clears the kept fit: nothing watches at a fitted cadence any more. */
export async function clearStoredBudgetFit(mirror: Mirror, nowSec: number): Promise<void> {
  await mirror.settings.write(FIT_SETTINGS_KEY, null, nowSec)
}

/** What the fit reads of the person's settings and spending. */
export interface FitInputs {
  watch: WatchCadence
  /** The Settings switch (default on). */
  isFitToBudget: boolean
  /** The month's credits: the monthly budget, else the plan's; null when none is known. */
  monthlyAllowance: number | null
  /** Credits spent this UTC month. */
  monthSpent: number
}

/**
 * The cadence the watch scheduler runs at: the person's, or, when the month's projection
 * exceeds what is left of its credits and fit to budget is on, the same clocks stretched to
 * last the month (src-shared/domain/budget-fit.ts). Worked out again every
 * {@link FIT_REFRESH_SEC} or when the settings change, since the scheduler asks every tick.
 */
export class CadenceFitter {
  readonly #mirror: Mirror
  readonly #clock: Clock
  readonly #inputs: () => Promise<FitInputs>
  readonly #onChange: (() => void) | undefined
  #cached: { atSec: number; key: string; cadence: WatchCadence; fit: BudgetFitView | null } | null =
    null

  constructor(options: {
    mirror: Mirror
    clock: Clock
    inputs: () => Promise<FitInputs>
    /** Told when watching is slowed, sped up again, or slowed by another factor. */
    onChange?: () => void
  }) {
    this.#mirror = options.mirror
    this.#clock = options.clock
    this.#inputs = options.inputs
    this.#onChange = options.onChange
  }

  /** Watching slowed to last the month, or null while it runs at the person's cadence. */
  async currentFit(): Promise<BudgetFitView | null> {
    await this.cadence()
    return this.#cached?.fit ?? null
  }

  /** The cadence to watch at now. */
  async cadence(): Promise<WatchCadence> {
    const inputs = await this.#inputs()
    const now = nowSec(this.#clock)
    const key = JSON.stringify([inputs.watch, inputs.isFitToBudget, inputs.monthlyAllowance])
    const cached = this.#cached
    if (cached && cached.key === key && now - cached.atSec < FIT_REFRESH_SEC) return cached.cadence
    const fit = await this.#fitOf(inputs, now)
    const cadence = fit === null ? inputs.watch : { ...inputs.watch, ...fit.clocks }
    const view =
      fit === null
        ? null
        : {
            baseCheckEverySec: inputs.watch.checkEverySec,
            checkEverySec: fit.clocks.checkEverySec,
            line: budgetFitLine(inputs.watch.checkEverySec, fit.clocks.checkEverySec),
          }
    const changed = JSON.stringify(view) !== JSON.stringify(cached?.fit ?? null)
    this.#cached = { atSec: now, key, cadence, fit: view }
    if (changed) {
      // Kept in the mirror too, for `status` in another process (it reads, never fits).
      await this.#mirror.settings.write(FIT_SETTINGS_KEY, view, now).catch(() => {})
      this.#onChange?.()
    }
    return cadence
  }

  async #fitOf(inputs: FitInputs, now: number): Promise<BudgetFit | null> {
    if (!inputs.isFitToBudget || !inputs.watch.isWatching || inputs.monthlyAllowance === null)
      return null
    const footprint = await readWatchFootprint(this.#mirror, now)
    if (footprint.wallets.length === 0) return null
    const date = new Date(now * 1000)
    const monthEndSec = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000
    return fitCadenceToBudget(footprint.wallets, inputs.watch, {
      remainingCredits: Math.max(0, inputs.monthlyAllowance - inputs.monthSpent),
      daysLeft: (monthEndSec - now) / 86_400,
    })
  }
}
