/**
 * Splits a name into the part that may be cut and the tail that tells it from its siblings,
 * its number (`Solar Flare #6672` → `Solar Flare` + ` #6672`) or else its last word, so a
 * narrow card cuts the middle and keeps what distinguishes the name.
 */
export function splitDistinctTail(name: string): { head: string; tail: string } {
  const match = /\s*#?\d[\d,.]*\w*$/.exec(name) ?? /\s+\S{1,12}$/.exec(name)
  if (!match || match.index === 0) return { head: name, tail: '' }
  return { head: name.slice(0, match.index), tail: name.slice(match.index) }
}
