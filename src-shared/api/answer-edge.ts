import { z } from 'zod'
import { summarizeIssues } from '../validation/zod-issues'
import { NATIVE_SOL_MINT } from './base58'
import { Integer } from './numbers'

// The edge where the service's answers come in (docs/service.md, "What the app accepts").
// The service is looser than its interface text: its own SDK types and published examples
// leave fields out, send null for what it does not know, name native SOL "SOL" and add
// values to its lists. The response schemas accept that variety with the readers below,
// and each reader turns it into the mirror's one form as the answer is parsed, so nothing
// past the client sees it:
// - a mint named "SOL" is the native mint;
// - an absent or null cursor is the end of paging;
// - an absent or null price, value, symbol or name is "not known" (null);
// - an absent or null list is an empty list;
// - a kind or type the app does not know stays as its text.
// An item of a listing that still cannot be read (a wrong type, a missing amount) is kept
// aside with its reason instead of failing its page: see readItems.

/** The names the service gives native SOL instead of its mint address (history balance changes). */
const NATIVE_SOL_NAMES: ReadonlySet<string> = new Set(['SOL'])

/** A mint as the service names it, read as the mirror names it: "SOL" is the native mint. */
export const MintName = z
  .string()
  .min(1)
  .transform((mint) => (NATIVE_SOL_NAMES.has(mint) ? NATIVE_SOL_MINT : mint))

/** A paging cursor: absent and null both mean there is no next page (null). */
export const EndCursor = z
  .string()
  .nullish()
  .transform((cursor) => cursor ?? null)

/** A value the service leaves out or sends as null when it does not know it: null then. */
export function knownOrNull<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((value): z.output<S> | null => value ?? null)
}

/** Text the service may leave out or send as null where the mirror keeps '' for none. */
export function textOrEmpty() {
  return z
    .string()
    .nullish()
    .transform((text) => text ?? '')
}

/** A list the service may leave out or send as null: an empty list then. */
export function listOrEmpty<S extends z.ZodType>(item: S) {
  return z
    .array(item)
    .nullish()
    .transform((list): z.output<S>[] => list ?? [])
}

/**
 * A field that protects what the mirror holds (an address, an amount): the answer may
 * lack it (so its type allows that), but an item without it is kept aside, never guessed.
 */
export function needed<S extends z.ZodType>(schema: S, what: string) {
  return schema.optional().transform((value, ctx): z.output<S> => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `the service sent no ${what}` })
      return z.NEVER
    }
    return value as z.output<S>
  })
}

/** An item of a listing the edge could not read: kept aside whole, with why. */
export const KeptAsideItem = z.object({
  /** Its place in the listing the service sent. */
  index: Integer.min(0),
  /** Its signature (or mint, or id) where that much could be read, else null. */
  key: z.string().nullable(),
  /** What was wrong, naming the field: "slot: Invalid input: expected int, received string". */
  reason: z.string(),
  /** The item exactly as the service sent it. */
  raw: z.unknown(),
})
export type KeptAsideItem = z.infer<typeof KeptAsideItem>

/** The items of a listing the edge read, and those it kept aside. */
export interface ItemsRead<T> {
  items: T[]
  keptAside: KeptAsideItem[]
}

/** Reads an item's key (`signature`, `mint`, `id`) when it is a string, else null. */
export function keyField(name: string): (raw: unknown) => string | null {
  return (raw) => {
    if (typeof raw !== 'object' || raw === null) return null
    const value = (raw as Record<string, unknown>)[name]
    return typeof value === 'string' && value !== '' ? value : null
  }
}

/**
 * Reads a listing one item at a time: the items `item` reads are kept, in order; each one
 * it cannot read is kept aside with the first fields at fault, so one odd item never
 * fails the rest of its page.
 *
 * @example
 * readItems(HistoryEntry, [good, { signature: 'x', slot: 'oops' }], keyField('signature'))
 * // { items: [good], keptAside: [{ index: 1, key: 'x', reason: 'slot: …', raw: {…} }] }
 */
export function readItems<S extends z.ZodType>(
  item: S,
  raw: readonly unknown[],
  keyOf: (raw: unknown) => string | null,
): ItemsRead<z.output<S>> {
  const items: z.output<S>[] = []
  const keptAside: KeptAsideItem[] = []
  raw.forEach((value, index) => {
    const parsed = item.safeParse(value)
    if (parsed.success) {
      items.push(parsed.data)
      return
    }
    const reason = summarizeIssues(parsed.error)
      .map((issue) => (issue.path === '(root)' ? issue.message : `${issue.path}: ${issue.message}`))
      .join('; ')
    keptAside.push({ index, key: keyOf(value), reason, raw: value })
  })
  return { items, keptAside }
}

/**
 * A response schema whose answers are read item by item: its input type is the wire's
 * (each item as its own schema reads it, for the SDK contract check), its output the
 * mirror's form with the items kept aside. The runtime schema reads each list as unknown
 * items, which no static type can say, hence the one cast here.
 */
export function itemByItemAnswer<Out, In>(schema: z.ZodType<Out>): z.ZodType<Out, In> {
  return schema as unknown as z.ZodType<Out, In>
}
