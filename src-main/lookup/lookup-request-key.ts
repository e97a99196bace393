import { LookupRequest, type LookupRequestInput } from '@shared/ipc/lookup-schemas'

/**
 * The cache key of a request: its view and parameters after the schema's defaults, as
 * JSON with sorted keys, so the same question asked twice finds the same answer.
 *
 * @example
 * lookupRequestKey({ view: 'assets-by-owner', owner }) === lookupRequestKey({ owner, page: 1, view: 'assets-by-owner' })
 */
export function lookupRequestKey(request: LookupRequestInput): string {
  return canonicalJson(LookupRequest.parse(request))
}

/** JSON with every object's keys sorted: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value))
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  )
}
