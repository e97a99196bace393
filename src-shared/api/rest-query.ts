import type { z } from 'zod'

// Query strings carry only text; these two helpers are the one place that turns a request
// object into a query string (client) and back into typed values (simulator), by the schema.

/** Writes the defined, non-path fields of a request as query parameters. */
export function encodeQuery(
  fields: Record<string, unknown>,
  skip: readonly string[] = [],
): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || skip.includes(key)) continue
    params.set(key, String(value))
  }
  return params
}

function leafType(schema: z.core.$ZodType): string {
  let current = schema
  // optional/nullable/default wrap the real type
  while ('innerType' in current._zod.def) current = current._zod.def.innerType as z.core.$ZodType
  return current._zod.def.type
}

/**
 * Reads query parameters into the shape of an object schema: numbers and booleans are
 * converted by the schema's field types, unknown keys are kept as strings so the schema
 * can reject them. The result still has to be parsed with the schema.
 */
export function decodeQuery(
  schema: z.ZodObject,
  params: URLSearchParams,
  pathParams: Record<string, string> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...pathParams }
  const shape = schema.shape as Record<string, z.core.$ZodType>
  for (const [key, raw] of params) {
    if (key === 'api-key') continue
    const field = shape[key]
    const type = field === undefined ? 'string' : leafType(field)
    if (type === 'number') out[key] = raw.trim() === '' ? raw : Number(raw)
    else if (type === 'boolean') out[key] = raw === 'true' ? true : raw === 'false' ? false : raw
    else out[key] = raw
  }
  return out
}
