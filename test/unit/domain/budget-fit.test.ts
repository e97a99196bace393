import { describe, expect, it } from 'vitest'
import { budgetFitLine, fitCadenceToBudget } from '@shared/domain/budget-fit'
import { projectWatchCost, type WatchedWalletFootprint } from '@shared/domain/watch-cost'

// Fit to budget: the looks of watching are stretched by one factor so that the month's
// projection fits what is left; syncs of changes are never slowed.

const wallets: WatchedWalletFootprint[] = Array.from({ length: 10 }, () => ({
  tokenAccounts: 3,
  collectibleAccounts: 0,
  hasCompressedState: false,
  changesPerDay: 0.1,
  creditsPerChange: null,
}))
const cadence = {
  checkEverySec: 60,
  tokenAccountsEverySec: 3_600,
  compressedEverySec: 600,
  backstopEverySec: 86_400,
}
const perDay = projectWatchCost(wallets, cadence, { plan: 'off', monthlyBudget: null }).perDay

describe('fitCadenceToBudget', () => {
  it('leaves the cadence alone while the month fits', () => {
    expect(
      fitCadenceToBudget(wallets, cadence, { remainingCredits: perDay * 10, daysLeft: 10 }),
    ).toBeNull()
  })

  it('stretches every clock by one factor so that the rest of the month fits', () => {
    const fit = fitCadenceToBudget(wallets, cadence, {
      remainingCredits: (perDay * 10) / 3,
      daysLeft: 10,
    })
    expect(fit).not.toBeNull()
    const { clocks, factor } = fit as NonNullable<typeof fit>
    expect(clocks.checkEverySec % 60).toBe(0)
    expect(factor).toBe(clocks.checkEverySec / 60)
    expect(clocks.tokenAccountsEverySec).toBe(3_600 * factor)
    const fitted = projectWatchCost(wallets, clocks, { plan: 'off', monthlyBudget: null })
    expect(fitted.perDay * 10).toBeLessThanOrEqual((perDay * 10) / 3)
    // No slower than it needs to be: a minute less would not fit.
    const faster = { ...clocks, checkEverySec: clocks.checkEverySec - 60 }
    const tooMuch = projectWatchCost(
      wallets,
      {
        ...faster,
        tokenAccountsEverySec: Math.ceil(3_600 * (faster.checkEverySec / 60)),
        compressedEverySec: Math.ceil(600 * (faster.checkEverySec / 60)),
        backstopEverySec: Math.min(30 * 86_400, Math.ceil(86_400 * (faster.checkEverySec / 60))),
      },
      { plan: 'off', monthlyBudget: null },
    )
    expect(tooMuch.perDay * 10).toBeGreaterThan((perDay * 10) / 3)
  })

  it('with nothing left, every clock goes to its longest, and the change syncs stay', () => {
    const fit = fitCadenceToBudget(wallets, cadence, { remainingCredits: 0, daysLeft: 10 })
    expect(fit?.clocks).toEqual({
      checkEverySec: 86_400,
      tokenAccountsEverySec: 7 * 86_400,
      compressedEverySec: 7 * 86_400,
      backstopEverySec: 30 * 86_400,
    })
  })

  it('says it in one line', () => {
    expect(budgetFitLine(60, 240)).toBe(
      "Watching every 4 min instead of every 1 min to last the month's credits.",
    )
    expect(budgetFitLine(30, 7_200)).toBe(
      "Watching every 2 h instead of every 30 s to last the month's credits.",
    )
  })
})
