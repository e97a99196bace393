// Balances "on a day" are as of its end (UTC). A day after today has no end yet: asking
// the service about it would spend credits on an answer that cannot exist, and the
// mirror's answer would be today's balances printed as history. One rule, used by the
// CLI, the `balances:*` channels, the balances-at export and the app's date picker.

/** Today's calendar day in UTC at `nowMs`, as YYYY-MM-DD (a date input's `max`). */
export function todayUtc(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10)
}

/**
 * Why balances cannot be given for `date` (YYYY-MM-DD), or null when the day has begun.
 *
 * @example
 * futureDayProblem('2099-01-01', Date.parse('2026-11-26T12:00:00Z'))
 * // '2099-01-01 has not happened yet: today is 2026-11-26 (UTC). Choose today or an earlier day.'
 */
export function futureDayProblem(date: string, nowMs: number): string | null {
  const today = todayUtc(nowMs)
  // YYYY-MM-DD compares as text in calendar order.
  if (date <= today) return null
  return `${date} has not happened yet: today is ${today} (UTC). Choose today or an earlier day.`
}
