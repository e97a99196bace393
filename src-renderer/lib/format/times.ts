const LOCALE = typeof navigator === 'undefined' ? 'en' : navigator.language

const absolute = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'medium' })
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' })
const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' })

/** Local date and time of UTC seconds, e.g. "Nov 3, 2026, 14:05:09". */
export function formatLocalTime(sec: number): string {
  return absolute.format(new Date(sec * 1000))
}

/** Local date of UTC seconds. */
export function formatLocalDate(sec: number): string {
  return dateOnly.format(new Date(sec * 1000))
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
]

/** "3 minutes ago", "in 2 days", "now". */
export function formatRelative(sec: number, nowSec = Date.now() / 1000): string {
  const delta = sec - nowSec
  for (const [unit, size] of STEPS) {
    if (Math.abs(delta) >= size) return relative.format(Math.round(delta / size), unit)
  }
  return relative.format(0, 'second')
}

/** `YYYY-MM-DD` of a local date input → UTC seconds at local midnight (start or end of day). */
export function localDateToSec(value: string, edge: 'start' | 'end'): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return null
  const [, y, m, d] = match
  const date = new Date(Number(y), Number(m) - 1, Number(d))
  if (edge === 'end') date.setHours(23, 59, 59)
  return Math.floor(date.getTime() / 1000)
}

const dayAndMinute = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
})

/** Local day and minute of UTC seconds, e.g. "22 Nov, 14:03". */
export function formatDayAndMinute(sec: number): string {
  return dayAndMinute.format(new Date(sec * 1000))
}
