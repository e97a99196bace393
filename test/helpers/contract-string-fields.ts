import type { z } from 'zod'

// Every string a channel's input can carry, found from the channel's own schema rather than
// a list kept by hand: a channel or field added later is walked too. For each string field
// (an object key of a record included) an input is built that holds a marker there and
// ordinary values elsewhere, so a test can put any text into each field in turn.

/** Where a test's text goes in an input built by {@link stringFieldInputs}. */
export const TEXT_MARKER = '\u0001text-under-test\u0001'

type AnySchema = z.core.$ZodType
type Def = { type: string } & Record<string, unknown>

const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** Schemas that wrap one other schema (its values are the inner one's, or none). */
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'nonoptional',
  'catch',
])

/** An ordinary value of a schema: the first option, one element, every key present. */
function sampleOf(schema: AnySchema, depth = 0): unknown {
  const def = defOf(schema)
  if (depth > 20) return undefined
  if (WRAPPERS.has(def.type)) return sampleOf(def.innerType as AnySchema, depth + 1)
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, AnySchema>
      return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, sampleOf(v, depth + 1)]))
    }
    case 'array':
      return [sampleOf(def.element as AnySchema, depth + 1)]
    case 'union':
      return sampleOf((def.options as AnySchema[])[0] as AnySchema, depth + 1)
    case 'pipe':
      return sampleOf(def.in as AnySchema, depth + 1)
    case 'string':
      return 'x'
    case 'number':
      return 1
    case 'boolean':
      return false
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0]
    case 'literal':
      return (def.values as unknown[])[0]
    case 'record':
      return {}
    default:
      return undefined
  }
}

/** Values of `schema`, each holding {@link TEXT_MARKER} in one string field and a path to it. */
function markedValues(schema: AnySchema, depth = 0): { path: string; value: unknown }[] {
  const def = defOf(schema)
  if (depth > 20) return []
  if (WRAPPERS.has(def.type)) return markedValues(def.innerType as AnySchema, depth + 1)
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, AnySchema>
      const base = sampleOf(schema, depth) as Record<string, unknown>
      return Object.entries(shape).flatMap(([key, inner]) =>
        markedValues(inner, depth + 1).map((m) => ({
          path: m.path === '' ? key : `${key}.${m.path}`,
          value: { ...base, [key]: m.value },
        })),
      )
    }
    case 'array':
      return markedValues(def.element as AnySchema, depth + 1).map((m) => ({
        path: `[0]${m.path === '' ? '' : `.${m.path}`}`,
        value: [m.value],
      }))
    case 'union':
      return (def.options as AnySchema[]).flatMap((o) => markedValues(o, depth + 1))
    case 'pipe':
      return markedValues(def.in as AnySchema, depth + 1)
    case 'record':
      return [
        { path: '(a key)', value: { [TEXT_MARKER]: sampleOf(def.valueType as AnySchema, depth) } },
        ...markedValues(def.valueType as AnySchema, depth + 1).map((m) => ({
          path: `k.${m.path}`,
          value: { k: m.value },
        })),
      ]
    case 'string':
    case 'enum':
    case 'literal':
      return typeof sampleOf(schema, depth) === 'string' ? [{ path: '', value: TEXT_MARKER }] : []
    default:
      return []
  }
}

/** Replaces the marker in a built input with `text`. */
function withText(value: unknown, text: string): unknown {
  if (value === TEXT_MARKER) return text
  if (Array.isArray(value)) return value.map((v) => withText(v, text))
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k === TEXT_MARKER ? text : k, withText(v, text)]),
    )
  return value
}

/** One string field of a channel's input, and the input with any text put there. */
export interface StringField {
  /** The field's path, e.g. `filters.token` or `[0]` (an array's element). */
  path: string
  inputWith(text: string): unknown
}

/**
 * Every string field of an input schema (strings, enums and literals of strings, record
 * keys), each with a builder of inputs carrying a chosen text there.
 *
 * @example
 * stringFieldInputs(contract['feed:page'].input).map((f) => f.path) // ['filters.wallets.[0]', 'filters.tags.[0]', …]
 */
export function stringFieldInputs(schema: AnySchema): StringField[] {
  return markedValues(schema).map(({ path, value }) => ({
    path: path === '' ? '(the input)' : path,
    inputWith: (text) => withText(value, text),
  }))
}
