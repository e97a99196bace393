import type { KeptAsideItem } from '@shared/api/answer-edge'
import type { OperationName } from '@shared/api/operations'
import type { StreamPatch } from '../../db/mirror-writer'

/**
 * The part of a page's patch that keeps its unreadable items aside, in the page's own
 * transaction (nothing when the edge read them all).
 *
 * @example
 * writer.applyHistoryPage(id, page.data, { ...keptAsidePatch('wallet.history', page.keptAside, nowSec), … })
 */
export function keptAsidePatch(
  operation: OperationName,
  items: readonly KeptAsideItem[],
  atSec: number,
  options: { replaces?: boolean } = {},
): Pick<StreamPatch, 'keptAside'> {
  if (items.length === 0 && !options.replaces) return {}
  return { keptAside: { operation, items, atSec, ...options } }
}

/**
 * The keys of a page's items in the order the service sent them, those kept aside
 * included (null where not even their key could be read): a cursor moves past an item
 * the edge kept aside as past any other.
 *
 * @example
 * keysInOrder(['a', 'c'], [{ index: 1, key: 'b', … }]) // ['a', 'b', 'c']
 */
export function keysInOrder(
  read: readonly string[],
  keptAside: readonly KeptAsideItem[],
): (string | null)[] {
  const aside = new Map(keptAside.map((item) => [item.index, item.key]))
  const out: (string | null)[] = []
  let next = 0
  for (let index = 0; index < read.length + keptAside.length; index++)
    out.push(aside.has(index) ? (aside.get(index) ?? null) : (read[next++] ?? null))
  return out
}
