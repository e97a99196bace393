import { LOOKALIKE_BASE } from './counterparties'
import type { ChainTx } from './history'
import { COUNTERPARTY_RANGES } from './history'
import type { MintInfo } from './mints'
import { SOL_MINT_INDEX } from './mints'
import { hash32 } from './prng'

// Transactions a test or benchmark injects into a wallet at the current clock time, in
// place of the next derived one. Both name the wallet (they appear in its history and in
// getSignaturesForAddress) and leave its SOL alone: someone else pays the fee.

/** Kinds of injected activity. */
export const INJECTION_KINDS = ['token-airdrop', 'silent', 'address-poisoning'] as const
export type InjectionKind = (typeof INJECTION_KINDS)[number]

/** How a silent transaction names the wallet without changing any of its balances. */
export const SILENT_VARIANTS = ['memo', 'failed'] as const
export type SilentVariant = (typeof SILENT_VARIANTS)[number]

/**
 * One injection: an airdrop of a new mint (first one not held, about 50 USD by default; or
 * a mint issued for it with the symbol and name asked, as anyone can issue one), a silent
 * transaction, or address poisoning.
 */
export type Injection =
  | {
      kind: 'token-airdrop'
      mint?: number | string
      amountRaw?: bigint
      issue?: { symbol: string; name: string }
    }
  | { kind: 'silent'; variant?: SilentVariant }
  | { kind: 'address-poisoning' }

/** What a poisoner sends: dust, enough to land in the wallet's history. */
export const POISONING_DUST_LAMPORTS = 1_000n

const SENDER_FEE_LAMPORTS = 5_000n

/** A private person (counterparty) chosen by the seed for transaction `index` of a wallet. */
function sender(seed: number, walletId: number, index: number): number {
  const [lo, hi] = COUNTERPARTY_RANGES.person
  return lo + (hash32(seed, 0xa1d, walletId, index) % (hi - lo + 1))
}

/** About 50 USD of a mint in its smallest unit (at least one unit). */
export function defaultAirdropRaw(mint: MintInfo): bigint {
  const units = BigInt(Math.max(1, Math.round(50 / mint.priceUsd)))
  return units * 10n ** BigInt(mint.decimals)
}

/**
 * Someone sends the wallet `raw` of a mint it never held: the sender creates the token
 * account (naming the owner) and pays fee and rent, so only the token balance changes.
 */
export function airdropTx(
  seed: number,
  walletId: number,
  index: number,
  mint: MintInfo,
  raw: bigint,
): ChainTx {
  return receivedTx(walletId, index, sender(seed, walletId, index), mint.index, raw)
}

/** `from` sends the wallet `raw` of a mint and pays the fee: only that balance changes. */
function receivedTx(
  walletId: number,
  index: number,
  from: number,
  mint: number,
  raw: bigint,
): ChainTx {
  return {
    walletId,
    index,
    kind: 'airdrop',
    type: 'TRANSFER',
    feeLamports: SENDER_FEE_LAMPORTS,
    feePayer: from,
    error: null,
    directRef: true,
    changes: [{ mint, raw }],
    legs: [{ mint, raw, direction: 'in', counterparty: from }],
  }
}

/**
 * A transaction that names the wallet and changes none of its balances: a memo someone
 * else signed and paid for, or someone else's failed transfer to it (only the payer loses
 * the fee on failure).
 */
export function silentTx(
  seed: number,
  walletId: number,
  index: number,
  variant: SilentVariant,
): ChainTx {
  const from = sender(seed, walletId, index)
  const base = {
    walletId,
    index,
    feeLamports: SENDER_FEE_LAMPORTS,
    feePayer: from,
    directRef: true,
    changes: [],
    legs: [],
  }
  if (variant === 'failed')
    return {
      ...base,
      kind: 'failed',
      type: 'TRANSFER',
      error: { message: 'Insufficient funds for transfer', instruction: 0, code: 1 },
    }
  // The history type filter has no memo type; a memo is listed with the transfers.
  return { ...base, kind: 'memo', type: 'TRANSFER', error: null, memo: `gm #${index}` }
}

/**
 * Address poisoning: a sender whose address starts and ends like `imitated`'s (a
 * counterparty the wallet sent to) sends it dust and pays the fee, so the lookalike lands in
 * the wallet's history for a person to copy by mistake.
 */
export function poisoningTx(walletId: number, index: number, imitated: number): ChainTx {
  return receivedTx(
    walletId,
    index,
    LOOKALIKE_BASE + imitated,
    SOL_MINT_INDEX,
    POISONING_DUST_LAMPORTS,
  )
}
