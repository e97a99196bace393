import { NO_HISTORY_FILTERS, type HistoryFilters, type SortOrder } from '@shared/ipc/review-schemas'

/**
 * What the History view shows right now, per wallet: its filters and order. Kept here so
 * other parts of the page (the Export button) act on exactly the rows the person sees,
 * and so the filters survive switching tabs.
 */
export const historyView = $state<{
  byAddress: Record<string, { filters: HistoryFilters; order: SortOrder }>
}>({ byAddress: {} })

/** The History view state of a wallet, created with no filters. */
export function historyViewOf(address: string): { filters: HistoryFilters; order: SortOrder } {
  historyView.byAddress[address] ??= { filters: { ...NO_HISTORY_FILTERS }, order: 'newest' }
  return historyView.byAddress[address]
}
