import { z } from 'zod'

// Pure regex checks: src-shared runs in the renderer too, so no Node or DOM APIs here.

/** Any non-empty base58 string: addresses, hashes and mints are base58. */
export const Base58String = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'expected a base58 string')
export type Base58String = z.infer<typeof Base58String>

/** A 32-byte account address (wallet, mint, owner, tree): 32 to 44 base58 characters. */
export const WalletAddress = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'expected a base58 address of 32 to 44 characters')
export type WalletAddress = z.infer<typeof WalletAddress>

/** Address of any account; same encoding as a wallet. */
export const Address = WalletAddress
export type Address = WalletAddress

/** A 32-byte hash (compressed-account hash, asset id): same encoding as an address. */
export const Base58Hash = WalletAddress
export type Base58Hash = WalletAddress

/** A 64-byte transaction signature in base58 (64 to 88 characters). */
export const Signature = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'expected a base58 signature of 64 to 88 characters')
export type Signature = z.infer<typeof Signature>

/** A name-service domain such as `alice.sol` (identity lookups accept domains). */
const Domain = z
  .string()
  .max(253)
  .regex(
    /^(?:[a-z0-9](?:[a-z0-9-_]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/i,
    'expected a domain such as name.sol',
  )

/** An address or a domain: what identity and batch-identity accept. */
export const AddressOrDomain = z.union([WalletAddress, Domain])
export type AddressOrDomain = z.infer<typeof AddressOrDomain>

/** Native SOL pseudo-mint in balances and history. */
export const NATIVE_SOL_MINT = 'So11111111111111111111111111111111111111112'

/** Native SOL pseudo-mint used by balance-at, one character different (docs/service.md, Conventions). */
export const BALANCE_AT_NATIVE_SOL_MINT = 'So11111111111111111111111111111111111111111'
