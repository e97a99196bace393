import { LOOKALIKE_BASE } from './counterparties'
import type { ChainTx } from './history'
import { COUNTERPARTY_RANGES } from './history'
import type { MintInfo } from './mints'
import { SOL_MINT_INDEX } from './mints'
import { hash32 } from './prng'

// Transactions a test or benchmark injects into a wallet at the current clock time, in
// place of the next derived one: the patterns real wallets see that random activity may
// not produce when it matters. Rent is not modelled (no simulated account pays or
// reclaims it), as everywhere in the simulated chain.
// - token-airdrop: someone sends a mint the wallet never held; the sender opens the
//   wallet's token account (naming the wallet) and pays fee and rent;
// - silent: a transaction naming the wallet that changes none of its balances;
// - token-purchase: the wallet swaps SOL for a mint it holds no account of: its own
//   transaction opens the token account;
// - token-receipt: someone sends a mint into the wallet's account of it (opened for it
//   when it has none), signing and paying: the wallet's own address is not among the
//   transaction's accounts, so it is not on the wallet's signature list either;
// - close-account: the wallet sends all of a mint away and closes the emptied account;
// - failed-swap: the wallet's own swap fails and costs it the fee alone;
// - address-poisoning: dust from a lookalike of someone the wallet sent to.

/** Kinds of injected activity. */
export const INJECTION_KINDS = [
  'token-airdrop',
  'silent',
  'address-poisoning',
  'token-purchase',
  'token-receipt',
  'close-account',
  'failed-swap',
] as const
export type InjectionKind = (typeof INJECTION_KINDS)[number]

/** How a silent transaction names the wallet without changing any of its balances. */
export const SILENT_VARIANTS = ['memo', 'failed'] as const
export type SilentVariant = (typeof SILENT_VARIANTS)[number]

/** A mint by its index in the mint table or its address. */
export type MintChoice = number | string

/**
 * One injection (see the kinds above); amounts default to about 50 USD of the mint. An
 * airdrop may bring a mint issued for it with the symbol and name asked, as anyone can
 * issue one.
 */
export type Injection =
  | {
      kind: 'token-airdrop'
      mint?: MintChoice
      amountRaw?: bigint
      issue?: { symbol: string; name: string }
    }
  | { kind: 'silent'; variant?: SilentVariant }
  | { kind: 'address-poisoning' }
  | { kind: 'token-purchase'; mint?: MintChoice; amountRaw?: bigint }
  | { kind: 'token-receipt'; mint: MintChoice; amountRaw?: bigint }
  | { kind: 'close-account'; mint: MintChoice }
  | { kind: 'failed-swap' }

/** What a poisoner sends: dust, enough to land in the wallet's history. */
export const POISONING_DUST_LAMPORTS = 1_000n

const SENDER_FEE_LAMPORTS = 5_000n
/** The wallet's own fee: the base fee and a small priority fee. */
const OWN_FEE_LAMPORTS = 7_500n

/** A private person (counterparty) chosen by the seed for transaction `index` of a wallet. */
function sender(seed: number, walletId: number, index: number): number {
  const [lo, hi] = COUNTERPARTY_RANGES.person
  return lo + (hash32(seed, 0xa1d, walletId, index) % (hi - lo + 1))
}

/** A swap pool (counterparty) chosen by the seed for transaction `index` of a wallet. */
function pool(seed: number, walletId: number, index: number): number {
  const [lo, hi] = COUNTERPARTY_RANGES.pool
  return lo + (hash32(seed, 0x9001, walletId, index) % (hi - lo + 1))
}

/** About 50 USD of a mint in its smallest unit (at least one unit). */
export function defaultAirdropRaw(mint: MintInfo): bigint {
  const units = BigInt(Math.max(1, Math.round(50 / mint.priceUsd)))
  return units * 10n ** BigInt(mint.decimals)
}

/** What `raw` of a mint costs in lamports at the two mints' prices (at least 1). */
export function priceInLamports(mint: MintInfo, raw: bigint, sol: MintInfo): bigint {
  const usd = (Number(raw) / 10 ** mint.decimals) * mint.priceUsd
  return BigInt(Math.max(1, Math.round((usd / sol.priceUsd) * 10 ** sol.decimals)))
}

/**
 * Someone sends the wallet `raw` of a mint and pays the fee. `namesWallet`: the sender
 * opens the wallet's account with the wallet's address among the accounts (an airdrop);
 * without it only the token account is named (a receipt).
 */
export function receiptTx(
  seed: number,
  walletId: number,
  index: number,
  mint: MintInfo,
  raw: bigint,
  namesWallet: boolean,
): ChainTx {
  return receivedTx(walletId, index, sender(seed, walletId, index), mint.index, raw, namesWallet)
}

/** `from` sends the wallet `raw` of a mint and pays the fee: only that balance changes. */
function receivedTx(
  walletId: number,
  index: number,
  from: number,
  mint: number,
  raw: bigint,
  namesWallet: boolean,
): ChainTx {
  return {
    walletId,
    index,
    kind: namesWallet ? 'airdrop' : 'receipt',
    type: 'TRANSFER',
    feeLamports: SENDER_FEE_LAMPORTS,
    feePayer: from,
    error: null,
    directRef: namesWallet,
    changes: [{ mint, raw }],
    legs: [{ mint, raw, direction: 'in', counterparty: from }],
  }
}

/** A transaction the wallet signs and pays the fee of (the fee is in `changes` already). */
function ownTx(
  walletId: number,
  index: number,
  what: Pick<ChainTx, 'kind' | 'type' | 'changes' | 'legs'> & { error?: ChainTx['error'] },
): ChainTx {
  return {
    walletId,
    index,
    feeLamports: OWN_FEE_LAMPORTS,
    feePayer: -1,
    directRef: true,
    error: null,
    ...what,
  }
}

/** The wallet buys `raw` of a mint with `lamports` of SOL from a pool, paying the fee. */
export function purchaseTx(
  seed: number,
  walletId: number,
  index: number,
  mint: MintInfo,
  raw: bigint,
  lamports: bigint,
): ChainTx {
  const from = pool(seed, walletId, index)
  return ownTx(walletId, index, {
    kind: 'purchase',
    type: 'SWAP',
    changes: [
      { mint: 0, raw: -(lamports + OWN_FEE_LAMPORTS) },
      { mint: mint.index, raw },
    ],
    legs: [
      { mint: 0, raw: lamports, direction: 'out', counterparty: from },
      { mint: mint.index, raw, direction: 'in', counterparty: from },
    ],
  })
}

/** The wallet sends all `raw` it holds of a mint to someone and closes the emptied account. */
export function closeAccountTx(
  seed: number,
  walletId: number,
  index: number,
  mint: MintInfo,
  raw: bigint,
): ChainTx {
  return ownTx(walletId, index, {
    kind: 'close',
    type: 'TRANSFER',
    changes: [
      { mint: 0, raw: -OWN_FEE_LAMPORTS },
      { mint: mint.index, raw: -raw },
    ],
    legs: [
      { mint: mint.index, raw, direction: 'out', counterparty: sender(seed, walletId, index) },
    ],
  })
}

/** The wallet's own swap that fails: only its fee moves (Solana semantics). */
export function failedSwapTx(walletId: number, index: number): ChainTx {
  return ownTx(walletId, index, {
    kind: 'failed',
    type: 'SWAP',
    error: { message: 'Slippage tolerance exceeded', instruction: 0, code: 6001 },
    changes: [{ mint: 0, raw: -OWN_FEE_LAMPORTS }],
    legs: [],
  })
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
    true,
  )
}
