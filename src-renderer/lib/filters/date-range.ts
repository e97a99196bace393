import type { HistoryFilters } from '@shared/ipc/review-schemas'
import { localDateToSec, secToLocalDate } from '../format/dates'

type DateRange = Pick<HistoryFilters, 'fromSec' | 'toSec'>

/** True when "From" is after "To": no row can match, however wide the dates. */
export function isBackwardsRange(range: DateRange): boolean {
  return range.fromSec !== null && range.toSec !== null && range.fromSec > range.toSec
}

/** The same two days the other way round: "From" the start of the earlier, "To" the end of the later. */
export function swapDateRange<F extends DateRange>(filters: F): F {
  return {
    ...filters,
    fromSec: localDateToSec(secToLocalDate(filters.toSec), 'start'),
    toSec: localDateToSec(secToLocalDate(filters.fromSec), 'end'),
  }
}
