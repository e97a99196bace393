// Where a rule's match goes, decided once for the alerts a live run writes (the outbox) and
// those `alerts try` predicts on the past, so the two agree alert for alert.
//
// With a cool-down, the first match fires at once; a match within the cool-down after an
// alert starts one pending alert, sent when the cool-down ends, and every further match
// until then gathers into it (its text, amounts and signature become the latest match's).

/** What becomes of a match. */
export type MatchPlace =
  /** Gathered into the rule's pending alert (for this wallet). */
  | { into: 'gathering' }
  /** A new alert, sent at `deliverAfterSec` (now, or when the cool-down ends). */
  | { into: 'new'; deliverAfterSec: number }

/**
 * Where a match at `nowSec` goes, given the rule's latest alert for the same wallet.
 *
 * @example
 * placeMatch(600, 1_000, { deliverAfterSec: 900 }) // { into: 'new', deliverAfterSec: 1_500 }
 * placeMatch(600, 1_200, { deliverAfterSec: 1_500 }) // { into: 'gathering' }
 */
export function placeMatch(
  cooldownSec: number,
  nowSec: number,
  latest: { deliverAfterSec: number } | null,
): MatchPlace {
  if (cooldownSec === 0 || latest === null) return { into: 'new', deliverAfterSec: nowSec }
  if (latest.deliverAfterSec > nowSec) return { into: 'gathering' }
  return { into: 'new', deliverAfterSec: Math.max(nowSec, latest.deliverAfterSec + cooldownSec) }
}

/**
 * Whether an alert at `atSec` is kept quiet by an earlier one of the same rule and subject
 * (`firedAtSecs`) less than `windowSec` away: a cluster fires once per window.
 */
export function isQuietBy(firedAtSecs: readonly number[], atSec: number, windowSec: number) {
  return firedAtSecs.some((sec) => Math.abs(sec - atSec) < windowSec)
}
