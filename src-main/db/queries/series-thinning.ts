/** Most points a chart series gets; longer ones are thinned evenly. */
export const MAX_SERIES_POINTS = 2_000

/**
 * Keeps at most `max` points of a series, evenly spaced by index, always with the newest:
 * a chart then ends at the current figure. Each kept point is exact at its own time.
 */
export function thinEvenly<T>(points: readonly T[], max = MAX_SERIES_POINTS): T[] {
  const step = Math.max(1, Math.ceil(points.length / max))
  if (step === 1) return [...points]
  return points.filter(
    (_, i) => (i % step === 0 && i + step < points.length) || i === points.length - 1,
  )
}
