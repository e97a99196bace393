// Date inputs (`<input type="date">`) speak `YYYY-MM-DD` in the computer's own time zone;
// these convert between them and the mirror's UTC seconds. Dates shown as text go through
// @shared/domain/display-text.

/** UTC seconds → the `YYYY-MM-DD` of a local date input. */
export function secToLocalDate(sec: number | null): string {
  if (sec === null) return ''
  const d = new Date(sec * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
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
