import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'

/** Longest label a person can give a wallet; long enough for a sentence, short enough for a sidebar. */
export const MAX_LABEL_LENGTH = 64

const Label = z
  .string()
  .trim()
  .max(MAX_LABEL_LENGTH, `Label is longer than ${MAX_LABEL_LENGTH} characters.`)

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
