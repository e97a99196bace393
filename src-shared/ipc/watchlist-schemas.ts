import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'

/** Longest label a person can give a wallet; long enough for a sentence, short enough for a sidebar. */
export const MAX_LABEL_LENGTH = 64

/**
 * Characters a label may not hold: C0 and C1 controls and DEL (a terminal acts on them),
 * and bidi embeddings, overrides and isolates (they make a label show other text than it
 * holds, and spill into what follows it).
 */
const LABEL_FORBIDDEN = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u

/** Why `label` cannot be a label, or null when it can. */
function describeLabelProblem(label: string): string | null {
  const char = LABEL_FORBIDDEN.exec(label)?.[0]
  if (char === undefined) return null
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
  const kind = char >= '\u202a' ? 'a text-direction control' : 'a control character'
  return `Label contains ${code}, ${kind}; labels may not contain control characters or text-direction overrides and isolates (U+202A–U+202E, U+2066–U+2069).`
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
