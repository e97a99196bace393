/** UTC seconds → the `YYYY-MM-DD` of a local date input. */
export function secToLocalDate(sec: number | null): string {
  if (sec === null) return ''
  const d = new Date(sec * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}
