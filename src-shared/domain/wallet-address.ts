import bs58 from 'bs58'
import { z } from 'zod'

/** Base58 alphabet of Solana addresses: no 0, O, I or l (docs/service.md, Conventions). */
const BASE58_CHARS = /^[1-9A-HJ-NP-Za-km-z]*$/

/** Byte length of an ed25519 public key, which every wallet address encodes. */
const PUBLIC_KEY_BYTES = 32

/**
 * Explains why `text` is not a Solana wallet address, or returns null when it is one.
 *
 * @example
 * describeAddressProblem('So11111111111111111111111111111111111111112') // null
 * describeAddressProblem('0xabc') // 'is 5 characters long; an address has 32 to 44'
 */
export function describeAddressProblem(text: string): string | null {
  if (text.length === 0) return 'is empty'
  if (text.length < 32 || text.length > 44) {
    return `is ${text.length} characters long; an address has 32 to 44`
  }
  if (!BASE58_CHARS.test(text)) {
    const bad = [...new Set([...text].filter((c) => !BASE58_CHARS.test(c)))]
    return `contains ${bad.map((c) => `'${c}'`).join(', ')}, which base58 does not use`
  }
  const bytes = bs58.decode(text).length
  if (bytes !== PUBLIC_KEY_BYTES) {
    return `decodes to ${bytes} bytes; an address decodes to ${PUBLIC_KEY_BYTES}`
  }
  return null
}

/** A wallet address as typed by a person: trimmed, base58, 32–44 characters, 32 bytes. */
export const WalletAddressInput = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const problem = describeAddressProblem(text)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: `Address ${problem}.` })
  })

/** Shortens an address for display: `7xKX…gAsU`. */
export function shortAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1
    ? address
    : `${address.slice(0, keep)}…${address.slice(-keep)}`
}

/**
 * The one name of a watched wallet everywhere (sidebar, page title, watchlist,
 * notifications): its label, or its short address when it has none.
 *
 * @example
 * walletName({ address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', label: null }) // '7xKX…gAsU'
 */
export function walletName(wallet: { address: string; label: string | null }): string {
  return wallet.label ?? shortAddress(wallet.address)
}
