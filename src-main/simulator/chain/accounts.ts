import bs58 from 'bs58'
import {
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_ACCOUNT_AMOUNT_OFFSET,
  TOKEN_ACCOUNT_MINT_OFFSET,
  TOKEN_ACCOUNT_OWNER_OFFSET,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@shared/api/rpc'
import type { MintInfo, TokenProgram } from './mints'
import { SOL_MINT_INDEX } from './mints'
import type { SimChain, SimWallet } from './sim-chain'

// Account state derived from the same balances the history sums to, so account reads,
// wallet balances, DAS token accounts and history always agree.
//
// - A wallet is a system account holding its SOL balance; with 0 lamports it does not exist.
// - A fungible token account (chain.tokenAccountAddress) exists while its amount is
//   positive: the simulated owners close an emptied account to reclaim its rent, which is
//   also why DAS lists only non-zero accounts by default.
// - An NFT token account (chain.nftTokenAccountAddress) holds 1 from the purchase on; the
//   simulated chain has no NFT sales, so it never closes.
// - Any other address (mints, counterparties, unknown keys) reads as missing.

/** Rent-exempt minimum of a 165-byte token account, in lamports (Solana). */
export const TOKEN_ACCOUNT_RENT_LAMPORTS = 2_039_280
/** rentEpoch of every rent-exempt account: u64::MAX (Solana), as a JSON number reads it. */
export const RENT_EXEMPT_EPOCH = Number(2n ** 64n - 1n)
/** SPL token account state byte (Initialized = 1), after the optional delegate. */
const TOKEN_ACCOUNT_STATE_OFFSET = 108

/** A token account of a wallet, whatever the read that lists it. */
export interface SimTokenAccount {
  readonly address: string
  readonly owner: SimWallet
  readonly mintAddress: string
  readonly amountRaw: bigint
  readonly decimals: number
  readonly program: TokenProgram
  /** Fungible mint index, or null for an NFT. */
  readonly mintIndex: number | null
}

/** The on-chain owner program of a token program name. */
export function tokenProgramId(program: TokenProgram): string {
  return program === 'token-2022' ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID
}

function fungibleAccount(
  chain: SimChain,
  wallet: SimWallet,
  mint: MintInfo,
  raw: bigint,
): SimTokenAccount {
  return {
    address: chain.tokenAccountAddress(wallet, mint.index),
    owner: wallet,
    mintAddress: mint.address,
    amountRaw: raw,
    decimals: mint.decimals,
    program: mint.tokenProgram,
    mintIndex: mint.index,
  }
}

/**
 * The wallet's token accounts: fungible mints it has touched (traded, then received), then
 * its NFTs oldest first (amount 1, classic Token program). Zero-amount fungible accounts
 * are closed and left out unless `includeClosed`.
 */
export function walletTokenAccounts(
  chain: SimChain,
  wallet: SimWallet,
  options: { includeClosed?: boolean } = {},
): SimTokenAccount[] {
  const balances = chain.balancesNow(wallet)
  const accounts: SimTokenAccount[] = []
  for (const m of chain.mintsOf(wallet)) {
    if (m === SOL_MINT_INDEX) continue
    const raw = balances[m] ?? 0n
    if (raw === 0n && !options.includeClosed) continue
    accounts.push(fungibleAccount(chain, wallet, chain.mints[m] as MintInfo, raw))
  }
  for (const i of chain.collectibles(wallet).nfts) {
    accounts.push({
      address: chain.nftTokenAccountAddress(wallet, i),
      owner: wallet,
      mintAddress: chain.tx(wallet, i).collectible?.assetId ?? '',
      amountRaw: 1n,
      decimals: 0,
      program: 'spl-token',
      mintIndex: null,
    })
  }
  return accounts
}

/** The open token account at an address, or null (closed, never opened, or not ours). */
export function tokenAccountAt(chain: SimChain, address: string): SimTokenAccount | null {
  const found = chain.tokenAccountOwner(address)
  if (!found) return null
  const { wallet } = found
  if ('mint' in found) {
    const mint = chain.mints[found.mint]
    if (!mint || mint.index === SOL_MINT_INDEX) return null
    const raw = chain.balancesNow(wallet)[mint.index] ?? 0n
    return raw > 0n ? fungibleAccount(chain, wallet, mint, raw) : null
  }
  if (found.nftIndex >= chain.txCount(wallet)) return null
  const tx = chain.tx(wallet, found.nftIndex)
  if (tx.collectible?.kind !== 'nft') return null
  return {
    address,
    owner: wallet,
    mintAddress: tx.collectible.assetId,
    amountRaw: 1n,
    decimals: 0,
    program: 'spl-token',
    mintIndex: null,
  }
}

/**
 * Mints and owners recur in every account read (watching asks for the same token accounts
 * each round), and decoding base58 was most of what a read cost: their bytes are kept.
 */
const addressBytes = new Map<string, Uint8Array>()
const MOST_ADDRESSES_KEPT = 100_000

function bytesOf(address: string): Uint8Array {
  let bytes = addressBytes.get(address)
  if (bytes === undefined) {
    if (addressBytes.size >= MOST_ADDRESSES_KEPT) addressBytes.clear()
    bytes = bs58.decode(address)
    addressBytes.set(address, bytes)
  }
  return bytes
}

/** The 165 bytes of an SPL token account: mint, owner, amount (u64 LE), state Initialized. */
export function tokenAccountData(account: SimTokenAccount): Uint8Array {
  const data = new Uint8Array(TOKEN_ACCOUNT_SIZE)
  data.set(bytesOf(account.mintAddress), TOKEN_ACCOUNT_MINT_OFFSET)
  data.set(bytesOf(account.owner.address), TOKEN_ACCOUNT_OWNER_OFFSET)
  new DataView(data.buffer).setBigUint64(TOKEN_ACCOUNT_AMOUNT_OFFSET, account.amountRaw, true)
  data[TOKEN_ACCOUNT_STATE_OFFSET] = 1
  return data
}

/** What any account read returns about an address: null when the account does not exist. */
export type SimAccount =
  | { readonly kind: 'wallet'; readonly lamports: bigint; readonly owner: string }
  | { readonly kind: 'token'; readonly lamports: bigint; readonly token: SimTokenAccount }

/** The account at an address now. */
export function accountAt(chain: SimChain, address: string): SimAccount | null {
  const wallet = chain.walletByAddress(address)
  if (wallet) {
    const lamports = chain.balancesNow(wallet)[SOL_MINT_INDEX] ?? 0n
    return lamports > 0n ? { kind: 'wallet', lamports, owner: SYSTEM_PROGRAM_ID } : null
  }
  const token = tokenAccountAt(chain, address)
  return token ? { kind: 'token', lamports: BigInt(TOKEN_ACCOUNT_RENT_LAMPORTS), token } : null
}
