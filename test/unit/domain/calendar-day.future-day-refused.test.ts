import { describe, expect, it } from 'vitest'
import { futureDayProblem, todayUtc } from '@shared/domain/calendar-day'

// One rule for "a day after today" (UTC): the CLI, the channels and the date pickers use it.

describe('futureDayProblem', () => {
  const lastSecondOfToday = Date.parse('2026-11-26T23:59:59Z')

  it('lets today and earlier days through, up to the last second of today (UTC)', () => {
    expect(todayUtc(lastSecondOfToday)).toBe('2026-11-26')
    expect(futureDayProblem('2026-11-26', lastSecondOfToday)).toBeNull()
    expect(futureDayProblem('2020-02-29', lastSecondOfToday)).toBeNull()
  })

  it('refuses tomorrow, naming the day and today', () => {
    expect(futureDayProblem('2026-11-27', lastSecondOfToday)).toBe(
      '2026-11-27 has not happened yet: today is 2026-11-26 (UTC). Choose today or an earlier day.',
    )
    // A minute later it is the 27th in UTC, whatever the local time zone says.
    expect(futureDayProblem('2026-11-27', lastSecondOfToday + 60_000)).toBeNull()
  })
})
