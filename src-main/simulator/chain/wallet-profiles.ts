// The profile wallets of the simulated chain. Each profile fixes how long its history is,
// how often it transacts, what it trades and how its balances drift block by block. The
// default population has one wallet per PROFILE_IDS entry; the watch-day population
// (populations.ts) builds its wallets from the WATCH_DAY_PROFILE_IDS templates.

export const PROFILE_IDS = [
  'idle',
  'casual',
  'active-trader',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
  'whale',
  'empty',
] as const
export type ProfileId = (typeof PROFILE_IDS)[number]

/** Profiles of the watch-day population (many wallets each, mints chosen per wallet). */
export const WATCH_DAY_PROFILE_IDS = [
  'watch-idle',
  'watch-active',
  'watch-nft',
  'watch-nft-compressed',
] as const
export type WatchDayProfileId = (typeof WATCH_DAY_PROFILE_IDS)[number]

/** Any profile a wallet of some population can have. */
export type WalletProfileId = ProfileId | WatchDayProfileId

/** What a generated transaction does (the HTTP `type` is derived from it). */
export const TX_KINDS = [
  'solIn',
  'solOut',
  'tokenIn',
  'tokenOut',
  'swap',
  'nftBuy',
  'cnftMint',
  'compress',
  'failed',
] as const
/** Generated kinds, the first and block-closing transactions, and injected ones (injections.ts). */
export type TxKind =
  | (typeof TX_KINDS)[number]
  | 'funding'
  | 'balancing'
  | 'airdrop'
  | 'memo'
  | 'purchase'
  | 'receipt'
  | 'close'

export type KindWeights = Readonly<Partial<Record<(typeof TX_KINDS)[number], number>>>

export interface WalletProfile {
  readonly id: WalletProfileId
  readonly label: string
  /** Transactions that exist when the simulator starts (live activity appends more). */
  readonly baseTxCount: number
  /** Mean seconds between base transactions. */
  readonly intervalSec: number
  /** Mint indices the wallet trades (0 = SOL is always included). */
  readonly tradedMints: readonly number[]
  /** Mints whose balance grows by a fixed amount per block; the rest net to zero per block. */
  readonly heldMints: readonly number[]
  /** Typical USD size of one movement. */
  readonly usdScale: number
  /** SOL received by the first (funding) transaction, in lamports. */
  readonly fundingLamports: bigint
  /** Relative weight of each TX_KINDS entry. */
  readonly kindWeights: KindWeights
  /** Weights that replace `kindWeights` from a transaction index on (the last phase reached wins). */
  readonly kindPhases?: readonly { readonly fromIndex: number; readonly kindWeights: KindWeights }[]
  /** A name-service domain, when the wallet has an identity (identity's domainNames). */
  readonly domain?: string
  /** Seconds between live transactions when live mode runs for it. */
  readonly liveEverySec: number
}

export const PROFILES: Readonly<Record<ProfileId, WalletProfile>> = {
  idle: {
    id: 'idle',
    label: 'Idle wallet: funded once, two small receipts',
    baseTxCount: 3,
    intervalSec: 30 * 86_400,
    tradedMints: [0],
    heldMints: [],
    usdScale: 20,
    fundingLamports: 250_000_000n,
    kindWeights: { solIn: 1 },
    liveEverySec: 3_600,
  },
  casual: {
    id: 'casual',
    label: 'Casual user: occasional transfers and swaps',
    baseTxCount: 64,
    intervalSec: 2 * 86_400,
    tradedMints: [0, 1, 3, 4, 12],
    heldMints: [1, 3],
    usdScale: 60,
    fundingLamports: 5_000_000_000n,
    kindWeights: { solIn: 3, solOut: 3, tokenIn: 2, tokenOut: 1, swap: 2 },
    domain: 'sunny.sol',
    liveEverySec: 600,
  },
  'active-trader': {
    id: 'active-trader',
    label: 'Active trader: thousands of swaps across many tokens',
    baseTxCount: 6_000,
    intervalSec: 3_600,
    tradedMints: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17],
    heldMints: [1, 3, 5, 9, 17],
    usdScale: 900,
    fundingLamports: 80_000_000_000n,
    kindWeights: { swap: 12, solIn: 1, solOut: 1, tokenIn: 2, tokenOut: 2, failed: 1 },
    domain: 'tradewinds.sol',
    liveEverySec: 30,
  },
  'nft-collector': {
    id: 'nft-collector',
    label: 'NFT collector: buys more than 100 NFTs (balances show the first 100)',
    baseTxCount: 420,
    intervalSec: 6 * 3_600,
    tradedMints: [0, 1, 6],
    heldMints: [1],
    usdScale: 150,
    fundingLamports: 400_000_000_000n,
    kindWeights: { nftBuy: 6, solIn: 4, solOut: 1, swap: 1, tokenIn: 1 },
    domain: 'pixelhoard.sol',
    liveEverySec: 900,
  },
  'compressed-holder': {
    id: 'compressed-holder',
    label: 'Compressed holder: compressed NFTs, compressed accounts and tokens',
    baseTxCount: 300,
    intervalSec: 8 * 3_600,
    tradedMints: [0, 1, 4, 10],
    heldMints: [4],
    usdScale: 40,
    fundingLamports: 12_000_000_000n,
    kindWeights: { cnftMint: 4, compress: 4, solIn: 2, solOut: 1, tokenIn: 1, swap: 1 },
    liveEverySec: 1_200,
  },
  'failed-transactions': {
    id: 'failed-transactions',
    label: 'Unlucky bot: about a third of its transactions fail',
    baseTxCount: 240,
    intervalSec: 5 * 3_600,
    tradedMints: [0, 1, 7, 14],
    heldMints: [7],
    usdScale: 75,
    fundingLamports: 9_000_000_000n,
    kindWeights: { failed: 5, swap: 5, solIn: 2, solOut: 1, tokenIn: 1, tokenOut: 1 },
    liveEverySec: 300,
  },
  whale: {
    id: 'whale',
    label: 'Whale: 1,000,000 transactions, derived on demand',
    baseTxCount: 1_000_000,
    intervalSec: 20,
    tradedMints: [0, 1, 2, 3, 5, 9, 10, 13, 17, 18, 19, 22],
    heldMints: [1, 5, 9, 17, 22],
    usdScale: 25_000,
    fundingLamports: 2_000_000_000_000n,
    kindWeights: { swap: 8, solIn: 2, solOut: 2, tokenIn: 3, tokenOut: 3, failed: 1 },
    domain: 'deepwater.sol',
    liveEverySec: 5,
  },
  empty: {
    id: 'empty',
    label: 'Empty wallet: never transacted',
    baseTxCount: 0,
    intervalSec: 86_400,
    tradedMints: [0],
    heldMints: [],
    usdScale: 1,
    fundingLamports: 0n,
    kindWeights: { solIn: 1 },
    liveEverySec: 3_600,
  },
}

/** The kind weights in force at transaction `index`. */
export function kindWeightsAt(profile: WalletProfile, index: number): KindWeights {
  let weights = profile.kindWeights
  for (const phase of profile.kindPhases ?? [])
    if (index >= phase.fromIndex) weights = phase.kindWeights
  return weights
}

/** Whether a profile can hold NFTs or compressed accounts (scanning its history is needed). */
export function hasCollectibles(profile: WalletProfile): boolean {
  return [profile.kindWeights, ...(profile.kindPhases ?? []).map((p) => p.kindWeights)].some(
    (w) => (w.nftBuy ?? 0) + (w.cnftMint ?? 0) + (w.compress ?? 0) > 0,
  )
}

/**
 * NFTs a watch-day NFT wallet buys: its history buys one at every position but the funding
 * and the block-closing ones, so NFT_HOLDER_BASE_INDEX transactions hold exactly this many.
 */
export const WATCH_DAY_NFT_COUNT = 175
/** Transactions holding the first WATCH_DAY_NFT_COUNT NFT buys: 6 in block 0, then 7 per block. */
export const NFT_BUYS_END_INDEX = 201

/**
 * Templates of the watch-day profiles; the population fills in `tradedMints` and
 * `heldMints` per wallet. Histories are short so deriving them stays cheap.
 */
export const WATCH_DAY_PROFILES: Readonly<Record<WatchDayProfileId, WalletProfile>> = {
  'watch-idle': {
    id: 'watch-idle',
    label: 'Idle holder: SOL and three tokens, quiet all day',
    baseTxCount: 8,
    intervalSec: 5 * 86_400,
    tradedMints: [0],
    heldMints: [],
    usdScale: 30,
    fundingLamports: 2_000_000_000n,
    // Receipts only, so nothing is sold to zero before the block closes on the held amounts.
    kindWeights: { solIn: 1, tokenIn: 1 },
    liveEverySec: 3_600,
  },
  'watch-active': {
    id: 'watch-active',
    label: 'Active wallet: five tokens, about twenty balance changes a day',
    baseTxCount: 40,
    intervalSec: 3 * 3_600,
    tradedMints: [0],
    heldMints: [],
    usdScale: 200,
    fundingLamports: 20_000_000_000n,
    // No failures: every live transaction changes a balance of the wallet.
    kindWeights: { swap: 6, solIn: 1, solOut: 1, tokenIn: 2, tokenOut: 2 },
    liveEverySec: 4_320,
  },
  'watch-nft': {
    id: 'watch-nft',
    label: 'NFT holder: 175 NFTs, no new activity',
    baseTxCount: NFT_BUYS_END_INDEX,
    intervalSec: 12 * 3_600,
    tradedMints: [0],
    heldMints: [],
    // Small prices and large funding: every buy is affordable, so the count is exact.
    usdScale: 20,
    fundingLamports: 400_000_000_000n,
    kindWeights: { nftBuy: 1 },
    liveEverySec: 3_600,
  },
  'watch-nft-compressed': {
    id: 'watch-nft-compressed',
    label: 'NFT holder with compressed accounts and tokens, a few compressions a day',
    baseTxCount: NFT_BUYS_END_INDEX + 39,
    intervalSec: 12 * 3_600,
    tradedMints: [0, 1, 4],
    heldMints: [1, 4],
    usdScale: 20,
    fundingLamports: 400_000_000_000n,
    kindWeights: { nftBuy: 1 },
    kindPhases: [{ fromIndex: NFT_BUYS_END_INDEX, kindWeights: { compress: 1 } }],
    liveEverySec: 14_400,
  },
}
