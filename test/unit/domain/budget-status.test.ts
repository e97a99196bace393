import { describe, expect, it } from 'vitest'
import { projectMonth } from '@shared/domain/budget-status'
import { firstOwnWalletText } from '@shared/domain/first-own-wallet'

// `heliograph budget`'s projection: what the month spent, and watching's daily cost for
// what is left of the UTC month; and the words a first own wallet's switch is told in.

describe('the month’s projection', () => {
  it('adds watching’s cost for the days left, today’s fraction included', () => {
    expect(projectMonth(12_000, 1_000, Date.parse('2026-11-28T12:00:00Z'))).toEqual({
      monthCredits: 14_500,
      watchingPerDay: 1_000,
      daysLeft: 2.5,
      monthEnd: '2026-11-30',
    })
  })

  it('ends a 31-day month on its 31st, and with watching off is what was spent', () => {
    expect(projectMonth(700, 0, Date.parse('2026-12-01T00:00:00Z'))).toEqual({
      monthCredits: 700,
      watchingPerDay: 0,
      daysLeft: 31,
      monthEnd: '2026-12-31',
    })
  })
})

describe('what a first own wallet’s switch says', () => {
  it('names what the demo keeps, and where to see it', () => {
    expect(firstOwnWalletText({ rules: 2, taggedWallets: 1 }, '`--data-source demo`')).toBe(
      'Your own data is shown from now on. What was made on the demo (2 alert rules and the tags of 1 wallet) stays with it (`--data-source demo` shows it); alert channels, budgets and settings are yours and carry on.',
    )
  })

  it('with nothing made on the demo, says it stays as it was', () => {
    expect(firstOwnWalletText({ rules: 0, taggedWallets: 0 }, 'Settings → Data source')).toBe(
      'Your own data is shown from now on. The demo stays as it was (Settings → Data source shows it); alert channels, budgets and settings are yours and carry on.',
    )
  })
})
