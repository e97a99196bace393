import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'
import { InvalidInputError } from './ipc-errors'
import { DepthLimit } from './sync-schemas'

/** Longest label a person can give a wallet; long enough for a sentence, short enough for a sidebar. */
export const MAX_LABEL_LENGTH = 64

/**
 * Characters a label may not hold: controls (Cc: C0, C1 and DEL, which a terminal acts on)
 * and invisible format characters (Cf: zero-width spaces and joiners, soft hyphens, bidi
 * embeddings, overrides and isolates), which make a label show other text than it holds:
 * "Trea\u200Bsury" would pass for "Treasury".
 */
const LABEL_FORBIDDEN = /[\p{Cc}\p{Cf}]/u

/** Names of the invisible characters most often met, for the refusal's message. */
const FORMAT_CHARACTER_NAMES: Record<number, string> = {
  0xad: 'SOFT HYPHEN',
  0x61c: 'ARABIC LETTER MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
}

/** Why `label` cannot be a label (or, with `noun`, a tag), or null when it can. */
export function describeLabelProblem(label: string, noun = 'Label'): string | null {
  const match = LABEL_FORBIDDEN.exec(label)
  if (match === null) return null
  const char = match[0]
  const point = char.codePointAt(0) ?? 0
  const code = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`
  const position = [...label.slice(0, match.index)].length + 1
  if (/\p{Cc}/u.test(char))
    return `${noun} contains ${code}, a control character, at position ${position}; remove it.`
  if ((point >= 0x202a && point <= 0x202e) || (point >= 0x2066 && point <= 0x2069))
    return `${noun} contains ${code}, a text-direction control, at position ${position}; remove it.`
  const name = FORMAT_CHARACTER_NAMES[point]
  return `${noun} contains ${code}${name ? ` (${name})` : ''}, an invisible format character, at position ${position}; remove it.`
}

const Label = z
  .string()
  .trim()
  .max(MAX_LABEL_LENGTH, `Label is longer than ${MAX_LABEL_LENGTH} characters.`)
  .superRefine((label, ctx) => {
    const problem = describeLabelProblem(label)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

/** Longest tag: a word for a group of wallets ("treasury", "mm-desk"), not a sentence. */
export const MAX_TAG_LENGTH = 40

/** Why `tag` (already trimmed) cannot be a tag, or null when it can. */
export function describeTagProblem(tag: string): string | null {
  const shown = `“${tag}”`
  if (tag === '') return 'A tag cannot be empty.'
  const hidden = describeLabelProblem(tag, `Tag ${JSON.stringify(tag)}`)
  if (hidden !== null) return hidden
  if (/\s/u.test(tag)) return `Tag ${shown} contains a space; a tag is one word (use "-" or "_").`
  const length = [...tag].length
  if (length > MAX_TAG_LENGTH)
    return `Tag ${shown} is ${length} characters long; at most ${MAX_TAG_LENGTH}.`
  return null
}

/**
 * A wallet's tag: one word of at most 40 characters, without invisible characters. Tags
 * are compared without regard to case, so they are kept lower-case: "Treasury" and
 * "TREASURY" are the one tag "treasury".
 */
export const WalletTag = z
  .string()
  .trim()
  .superRefine((tag, ctx) => {
    const problem = describeTagProblem(tag)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })
  .transform((tag) => tag.toLowerCase())

/** Checks and normalises one tag as WalletTag does; InvalidInputError naming the problem. */
export function normalizeTag(text: string): string {
  const problem = describeTagProblem(text.trim())
  if (problem !== null) throw new InvalidInputError(problem)
  return text.trim().toLowerCase()
}

/** A watched wallet as the renderer sees it. `addedAtSec` is UTC seconds; tags sorted, lower-case. */
export const WatchedWallet = z.object({
  address: z.string(),
  label: z.string().nullable(),
  position: z.number().int(),
  addedAtSec: z.number().int(),
  tags: z.array(z.string()),
})
export type WatchedWallet = z.infer<typeof WatchedWallet>

/**
 * Input of `watchlist:add`: an address, an optional label (blank means none), how deep its
 * first sync goes (default FIRST_SYNC_DEPTH: the newest 1,000 transactions; both limits
 * null: all of it), and the credits the person agreed its first sync may take when it
 * costs more than a tenth of what is left this month (asked first).
 */
export const WatchAddInput = z.object({
  address: WalletAddressInput,
  label: Label.optional(),
  depth: DepthLimit.optional(),
  approvedCredits: z.number().int().min(0).optional(),
})
export type WatchAddInput = z.input<typeof WatchAddInput>

/** Input of `watchlist:rename`: an empty label clears it. */
export const WatchRenameInput = z.object({
  address: WalletAddressInput,
  label: Label,
})
export type WatchRenameInput = z.input<typeof WatchRenameInput>

/** Input of `watchlist:tag` and `watchlist:untag`: a watched wallet and one or more tags. */
export const WatchTagInput = z.object({
  address: WalletAddressInput,
  tags: z.array(WalletTag).min(1, 'Name at least one tag.').max(50, 'At most 50 tags at once.'),
})
export type WatchTagInput = z.input<typeof WatchTagInput>

/** Input of `watchlist:remove`. */
export const WatchRemoveInput = z.object({ address: WalletAddressInput })
export type WatchRemoveInput = z.input<typeof WatchRemoveInput>

/** What `demo:add-wallets` did: the demo wallets it added and those already watched. */
export const DemoWalletsAdded = z.object({
  added: z.array(WatchedWallet),
  alreadyWatched: z.array(WatchedWallet),
})
export type DemoWalletsAdded = z.infer<typeof DemoWalletsAdded>
