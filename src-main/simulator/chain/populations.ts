import type { MintInfo } from './mints'
import { SOL_MINT_INDEX } from './mints'
import { hash32, Rng } from './prng'
import type { ProfileId, WalletProfile, WatchDayProfileId } from './wallet-profiles'
import { PROFILE_IDS, PROFILES, WATCH_DAY_PROFILES } from './wallet-profiles'

// Which wallets a simulated chain holds. `default` is one wallet per profile (ids 0–7, what
// the demo and most tests use); `watch-day` is fifty wallets shaped like a watch list seen
// over one day: mostly idle holders, a few active wallets, two NFT-heavy ones. Its wallet
// ids start at WATCH_DAY_FIRST_WALLET_ID, so its addresses and signatures never equal the
// default population's under the same seed. `backfill` is twenty wallets of the default
// profiles backfilled at once (the rate-limit bench and tests), ids from BACKFILL_FIRST_WALLET_ID.
// `hundred` is a hundred wallets of the default profiles synced at once (the memory bench),
// ids from HUNDRED_FIRST_WALLET_ID.

export const POPULATION_IDS = ['default', 'watch-day', 'backfill', 'hundred'] as const
export type PopulationId = (typeof POPULATION_IDS)[number]

/** One wallet of a population: its id (address, signatures) and its profile. */
export interface PopulationMember {
  readonly id: number
  readonly profile: WalletProfile
}

/** Live activity a population asks for: transactions at random times, `perDay` on average. */
export interface LivePlanEntry {
  readonly walletId: number
  readonly perDay: number
}

export interface Population {
  readonly id: PopulationId
  readonly members: readonly PopulationMember[]
  readonly live: readonly LivePlanEntry[]
}

/** A population given as how many wallets of each profile, in id order. */
export type PopulationShape = readonly { readonly profile: ProfileId; readonly count: number }[]

export const WATCH_DAY_FIRST_WALLET_ID = 1_000
export const BACKFILL_FIRST_WALLET_ID = 2_000

/**
 * Shape of the backfill population, in id order: long histories (whales, traders) keep the
 * wallet class busy, compressed holders the Photon class, short ones come and go.
 */
export const BACKFILL_SHAPE: PopulationShape = [
  { profile: 'whale', count: 3 },
  { profile: 'active-trader', count: 4 },
  { profile: 'compressed-holder', count: 4 },
  { profile: 'nft-collector', count: 3 },
  { profile: 'casual', count: 2 },
  { profile: 'failed-transactions', count: 2 },
  { profile: 'idle', count: 1 },
  { profile: 'empty', count: 1 },
]

/** Shape of the watch-day population: how many wallets of each profile, in id order. */
export const WATCH_DAY_SHAPE: readonly {
  readonly profile: WatchDayProfileId
  readonly count: number
  /**
   * Fungible token accounts each wallet holds: idle and active wallets get that many
   * distinct mints chosen per wallet; the NFT wallets hold their template's.
   */
  readonly tokenAccounts: number
  /** Live transactions a day, 0 for none. */
  readonly perDay: number
}[] = [
  { profile: 'watch-idle', count: 45, tokenAccounts: 3, perDay: 0 },
  { profile: 'watch-active', count: 3, tokenAccounts: 5, perDay: 20 },
  { profile: 'watch-nft', count: 1, tokenAccounts: 0, perDay: 0 },
  // One in eight live transactions closes a block (a rebalancing, not a compression), so
  // 6 a day make about 5 compressed transfers a day.
  { profile: 'watch-nft-compressed', count: 1, tokenAccounts: 2, perDay: 6 },
]

/** `count` distinct fungible mints (never SOL), chosen by the seed and the wallet id. */
function pickMints(seed: number, walletId: number, mintCount: number, count: number): number[] {
  const rng = new Rng(hash32(seed, 0x9a1e, walletId))
  const pool = Array.from({ length: mintCount - 1 }, (_, i) => i + 1)
  const chosen: number[] = []
  while (chosen.length < count && pool.length > 0) {
    chosen.push(pool.splice(rng.int(0, pool.length - 1), 1)[0] as number)
  }
  return chosen.sort((a, b) => a - b)
}

function watchDay(seed: number, mints: readonly MintInfo[]): Population {
  const members: PopulationMember[] = []
  const live: LivePlanEntry[] = []
  let id = WATCH_DAY_FIRST_WALLET_ID
  for (const group of WATCH_DAY_SHAPE) {
    const template = WATCH_DAY_PROFILES[group.profile]
    for (let k = 0; k < group.count; k++, id++) {
      // Held mints grow every block, so each of them has a positive balance (an open token
      // account) once the base history is in.
      const profile =
        group.profile === 'watch-idle' || group.profile === 'watch-active'
          ? ((): WalletProfile => {
              const held = pickMints(seed, id, mints.length, group.tokenAccounts)
              return { ...template, tradedMints: [SOL_MINT_INDEX, ...held], heldMints: held }
            })()
          : template
      members.push({ id, profile })
      if (group.perDay > 0) live.push({ walletId: id, perDay: group.perDay })
    }
  }
  return { id: 'watch-day', members, live }
}

export const HUNDRED_FIRST_WALLET_ID = 3_000

/**
 * Shape of the hundred population, in id order: mostly small wallets, some collectors and a
 * few traders with thousands of transactions each.
 */
export const HUNDRED_SHAPE: PopulationShape = [
  { profile: 'idle', count: 40 },
  { profile: 'casual', count: 35 },
  { profile: 'nft-collector', count: 10 },
  { profile: 'failed-transactions', count: 10 },
  { profile: 'active-trader', count: 5 },
]

/** Members of a population given as profiles and counts, with ids from `firstId` in order. */
function shapedMembers(shape: PopulationShape, firstId: number): PopulationMember[] {
  return shape
    .flatMap(({ profile, count }) => Array.from({ length: count }, () => PROFILES[profile]))
    .map((profile, k) => ({ id: firstId + k, profile }))
}

/** The wallets (and live plan) of a population for a seed and mint table. */
export function buildPopulation(
  id: PopulationId,
  seed: number,
  mints: readonly MintInfo[],
): Population {
  if (id === 'watch-day') return watchDay(seed, mints)
  if (id === 'backfill')
    return { id, members: shapedMembers(BACKFILL_SHAPE, BACKFILL_FIRST_WALLET_ID), live: [] }
  if (id === 'hundred')
    return { id, members: shapedMembers(HUNDRED_SHAPE, HUNDRED_FIRST_WALLET_ID), live: [] }
  return {
    id: 'default',
    members: PROFILE_IDS.map((profile, walletId) => ({
      id: walletId,
      profile: PROFILES[profile],
    })),
    live: [],
  }
}
