/**
 * The noun for a count: singular for exactly one.
 *
 * @example
 * nounFor(1, 'call') // 'call'
 * nounFor(0, 'entry', 'entries') // 'entries'
 */
export function nounFor(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural
}

/**
 * A count with its noun: `1 page`, `2 pages`, `1,204 balance changes`.
 *
 * @example
 * countText(1, 'page') // '1 page'
 * countText(3, 'balance change') // '3 balance changes'
 */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${nounFor(count, singular, plural)}`
}
