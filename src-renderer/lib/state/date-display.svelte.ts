import {
  formatDate,
  formatDateTime,
  formatRelative,
  type DisplayTimeZone,
} from '@shared/domain/display-text'

/**
 * How the page shows dates: the clock chosen in Settings (local or UTC) and the current
 * minute, so relative times ("3 minutes ago") move on while a page stays open.
 */
export const dateDisplay = $state<{ timeZone: DisplayTimeZone; nowSec: number }>({
  timeZone: 'local',
  nowSec: Math.floor(Date.now() / 1000),
})

/** Relative times read in minutes: ticking more often would only re-render the same words. */
const TICK_MS = 20_000
setInterval(() => (dateDisplay.nowSec = Math.floor(Date.now() / 1000)), TICK_MS)

/** Takes the time zone from the settings (at start and after Settings saves). */
export function useTimeZone(timeZone: DisplayTimeZone): void {
  dateDisplay.timeZone = timeZone
}

/** The date of UTC seconds in the chosen clock: `2026-11-22`. */
export function dateText(sec: number): string {
  return formatDate(sec, dateDisplay.timeZone)
}

/** Date and time of UTC seconds in the chosen clock: `2026-11-22 14:03` (… UTC). */
export function dateTimeText(sec: number, options: { withSeconds?: boolean } = {}): string {
  return formatDateTime(sec, dateDisplay.timeZone, options)
}

/** How long ago UTC seconds were, from the page's ticking now: "3 minutes ago". */
export function relativeText(sec: number): string {
  return formatRelative(sec, dateDisplay.nowSec)
}
