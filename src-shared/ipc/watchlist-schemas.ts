import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'

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

/** Why `label` cannot be a label, or null when it can. */
function describeLabelProblem(label: string): string | null {
  const match = LABEL_FORBIDDEN.exec(label)
  if (match === null) return null
  const char = match[0]
  const point = char.codePointAt(0) ?? 0
  const code = `U+${point.toString(16).toUpperCase().padStart(4, '0')}`
  const position = [...label.slice(0, match.index)].length + 1
  if (/\p{Cc}/u.test(char))
    return `Label contains ${code}, a control character, at position ${position}; remove it.`
  if ((point >= 0x202a && point <= 0x202e) || (point >= 0x2066 && point <= 0x2069))
    return `Label contains ${code}, a text-direction control, at position ${position}; remove it.`
  const name = FORMAT_CHARACTER_NAMES[point]
  return `Label contains ${code}${name ? ` (${name})` : ''}, an invisible format character, at position ${position}; remove it.`
}

const Label = z
  .string()
  .trim()
  .max(MAX_LABEL_LENGTH, `Label is longer than ${MAX_LABEL_LENGTH} characters.`)
  .superRefine((label, ctx) => {
    const problem = describeLabelProblem(label)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  })

/** A watched wallet as the renderer sees it. `addedAtSec` is UTC seconds. */
export const WatchedWallet = z.object({
  address: z.string(),
  label: z.string().nullable(),
  position: z.number().int(),
  addedAtSec: z.number().int(),
})
export type WatchedWallet = z.infer<typeof WatchedWallet>

/** Input of `watchlist:add`: an address and an optional label (blank means none). */
export const WatchAddInput = z.object({
  address: WalletAddressInput,
  label: Label.optional(),
})
export type WatchAddInput = z.input<typeof WatchAddInput>

/** Input of `watchlist:rename`: an empty label clears it. */
export const WatchRenameInput = z.object({
  address: WalletAddressInput,
  label: Label,
})
export type WatchRenameInput = z.input<typeof WatchRenameInput>

/** Input of `watchlist:remove`. */
export const WatchRemoveInput = z.object({ address: WalletAddressInput })
export type WatchRemoveInput = z.input<typeof WatchRemoveInput>

/** What `demo:add-wallets` did: the demo wallets it added and those already watched. */
export const DemoWalletsAdded = z.object({
  added: z.array(WatchedWallet),
  alreadyWatched: z.array(WatchedWallet),
})
export type DemoWalletsAdded = z.infer<typeof DemoWalletsAdded>
