import {
  decodeEntity,
  decodeTransactionSignature,
  encodeEntity,
  transactionSignature,
} from './entity-ids'
import type { ChainTx, DeriveContext } from './history'
import { BLOCK_SIZE, computeDrift, deriveBlock } from './history'
import type { MintInfo } from './mints'
import { buildMints } from './mints'
import { hash32 } from './prng'
import { SimClock, slotAtSec } from './clock'
import type { ClockOptions } from './clock'
import type { ProfileId, WalletProfile } from './wallet-profiles'
import { hasCollectibles, PROFILE_IDS, PROFILES } from './wallet-profiles'

// The synthetic chain: profile wallets whose histories are derived on demand. Memory is
// O(wallets + cached blocks + live transactions), never O(history length).

/** A transaction with its place in time. */
export interface TxView extends ChainTx {
  readonly signature: string
  readonly timestamp: number
  readonly slot: number
}

export interface SimWallet {
  readonly id: number
  readonly address: string
  readonly profile: WalletProfile
  readonly ctx: DeriveContext
  readonly baseCount: number
  /** Times of transactions appended after start (index baseCount + k). */
  readonly liveTimes: number[]
  /** Indices of collectible and compression transactions, scanned up to `scannedUpTo`. */
  collectibles: { scannedUpTo: number; nfts: number[]; cnfts: number[]; compressed: number[] }
}

interface CachedBlock {
  txs: ChainTx[]
  signatures: (string | undefined)[]
}

const BLOCK_CACHE_LIMIT = 512

interface SimChainOptions {
  seed?: number
  clock?: ClockOptions | SimClock
}

export class SimChain {
  readonly seed: number
  readonly mints: readonly MintInfo[]
  readonly wallets: readonly SimWallet[]
  readonly clock: SimClock
  private readonly byAddress = new Map<string, SimWallet>()
  private readonly mintByAddress = new Map<string, MintInfo>()
  private readonly blocks = new Map<number, CachedBlock>()

  constructor(options: SimChainOptions = {}) {
    this.seed = (options.seed ?? 42) >>> 0
    this.clock = options.clock instanceof SimClock ? options.clock : new SimClock(options.clock)
    this.mints = buildMints(this.seed)
    for (const m of this.mints) this.mintByAddress.set(m.address, m)
    this.wallets = PROFILE_IDS.map((id, walletId) => {
      const profile = PROFILES[id]
      const address = encodeEntity(this.seed, 'wallet', walletId, 0)
      const ctx: DeriveContext = {
        seed: this.seed,
        mints: this.mints,
        walletId,
        profile,
        drift: computeDrift(profile, this.mints),
      }
      const wallet: SimWallet = {
        id: walletId,
        address,
        profile,
        ctx,
        baseCount: profile.baseTxCount,
        liveTimes: [],
        collectibles: { scannedUpTo: 0, nfts: [], cnfts: [], compressed: [] },
      }
      this.byAddress.set(address, wallet)
      return wallet
    })
  }

  /** The profile wallet at an address, if it is one. */
  walletByAddress(address: string): SimWallet | undefined {
    return this.byAddress.get(address)
  }

  /** The profile wallet of a profile. */
  walletByProfile(profile: ProfileId): SimWallet {
    const wallet = this.wallets.find((w) => w.profile.id === profile)
    if (!wallet) throw new Error(`no wallet with profile ${profile}`)
    return wallet
  }

  mintByAddressOrNull(address: string): MintInfo | undefined {
    return this.mintByAddress.get(address)
  }

  /** Number of transactions the wallet has now. */
  txCount(wallet: SimWallet): number {
    return wallet.baseCount + wallet.liveTimes.length
  }

  /** Unix seconds of transaction `index`: strictly increasing with the index. */
  timestampOf(wallet: SimWallet, index: number): number {
    if (index >= wallet.baseCount) {
      const live = wallet.liveTimes[index - wallet.baseCount]
      if (live === undefined) throw new Error(`transaction ${index} does not exist yet`)
      return live
    }
    const interval = wallet.profile.intervalSec
    const end = this.clock.genesisSec - interval
    // Jitter below half an interval keeps neighbours ordered and at least 1 s apart.
    const jitter = hash32(this.seed, 0x71, wallet.id, index) % Math.max(1, Math.floor(interval / 2))
    return end - (wallet.baseCount - 1 - index) * interval + jitter
  }

  slotOfTime(sec: number): number {
    return slotAtSec(this.clock.genesisSec, sec)
  }

  /** The newest slot the simulated indexer has processed (context.slot, last_indexed_slot). */
  currentSlot(): number {
    return this.slotOfTime(this.clock.nowSec())
  }

  private block(wallet: SimWallet, block: number): CachedBlock {
    const key = wallet.id * 2 ** 30 + block
    const cached = this.blocks.get(key)
    if (cached) {
      // Refresh recency so hot blocks (the newest pages) stay cached.
      this.blocks.delete(key)
      this.blocks.set(key, cached)
      return cached
    }
    const { txs } = deriveBlock(wallet.ctx, block)
    const entry: CachedBlock = { txs, signatures: new Array<string | undefined>(txs.length) }
    this.blocks.set(key, entry)
    if (this.blocks.size > BLOCK_CACHE_LIMIT) {
      const oldest = this.blocks.keys().next().value
      if (oldest !== undefined) this.blocks.delete(oldest)
    }
    return entry
  }

  /** Transaction `index` of a wallet (must exist). */
  tx(wallet: SimWallet, index: number): TxView {
    if (index < 0 || index >= this.txCount(wallet))
      throw new Error(`transaction ${index} out of range`)
    const entry = this.block(wallet, Math.floor(index / BLOCK_SIZE))
    const position = index % BLOCK_SIZE
    const tx = entry.txs[position] as ChainTx
    let signature = entry.signatures[position]
    if (signature === undefined) {
      signature = transactionSignature(this.seed, wallet.id, index)
      entry.signatures[position] = signature
    }
    const timestamp = this.timestampOf(wallet, index)
    return { ...tx, signature, timestamp, slot: this.slotOfTime(timestamp) }
  }

  /** The signature of transaction `index`, without deriving it. */
  signatureOf(wallet: SimWallet, index: number): string {
    return transactionSignature(this.seed, wallet.id, index)
  }

  /** Position of a signature in the wallet's history, or null when it is not one of its transactions. */
  indexOfSignature(wallet: SimWallet, signature: string): number | null {
    const decoded = decodeTransactionSignature(this.seed, signature)
    if (decoded === null || decoded.walletId !== wallet.id || decoded.index >= this.txCount(wallet))
      return null
    return decoded.index
  }

  /** Any existing transaction by signature. */
  txBySignature(signature: string): TxView | null {
    const decoded = decodeTransactionSignature(this.seed, signature)
    if (decoded === null) return null
    const wallet = this.wallets[decoded.walletId]
    if (!wallet || decoded.index >= this.txCount(wallet)) return null
    return this.tx(wallet, decoded.index)
  }

  /** Raw fungible balances (indexed by mint) after the first `count` transactions. */
  balancesAfter(wallet: SimWallet, count: number): bigint[] {
    const block = Math.floor(count / BLOCK_SIZE)
    const position = count % BLOCK_SIZE
    // Closed form at block boundaries: the balancing transaction sets k × drift.
    const balances = wallet.ctx.drift.map((d) => d * BigInt(block))
    if (position === 0) return balances
    const entry = this.block(wallet, block)
    for (let p = 0; p < position; p++) {
      for (const c of (entry.txs[p] as ChainTx).changes) {
        if (c.mint >= 0) balances[c.mint] = (balances[c.mint] ?? 0n) + c.raw
      }
    }
    return balances
  }

  /** Current raw fungible balances of a wallet. */
  balancesNow(wallet: SimWallet): bigint[] {
    return this.balancesAfter(wallet, this.txCount(wallet))
  }

  /** Index of the newest transaction at or before `sec` (or `slot`), -1 when none. */
  lastIndexAtOrBefore(wallet: SimWallet, limit: { sec?: number; slot?: number }): number {
    let lo = 0
    let hi = this.txCount(wallet) - 1
    let found = -1
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2)
      const ts = this.timestampOf(wallet, mid)
      const fits =
        limit.slot !== undefined ? this.slotOfTime(ts) <= limit.slot : ts <= (limit.sec ?? 0)
      if (fits) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }

  /** Appends `count` new transactions at the newest end, stamped with the clock. */
  appendActivity(wallet: SimWallet, count: number): TxView[] {
    const added: TxView[] = []
    for (let k = 0; k < count; k++) {
      const last = this.txCount(wallet) > 0 ? this.timestampOf(wallet, this.txCount(wallet) - 1) : 0
      wallet.liveTimes.push(Math.max(this.clock.nowSec(), last + 1))
      added.push(this.tx(wallet, this.txCount(wallet) - 1))
    }
    return added
  }

  /** Indices of the wallet's NFT, compressed-NFT and compression transactions so far. */
  collectibles(wallet: SimWallet): SimWallet['collectibles'] {
    const state = wallet.collectibles
    const count = this.txCount(wallet)
    // Only profiles that can hold collectibles are scanned; their histories are short.
    if (!hasCollectibles(wallet.profile)) {
      state.scannedUpTo = count
      return state
    }
    for (let i = state.scannedUpTo; i < count; i++) {
      const tx = this.tx(wallet, i)
      if (tx.collectible?.kind === 'nft') state.nfts.push(i)
      if (tx.collectible?.kind === 'cnft') state.cnfts.push(i)
      if (tx.compressed) state.compressed.push(i)
    }
    state.scannedUpTo = count
    return state
  }

  /** The wallet and index an asset id was minted or bought at, when it exists. */
  assetOrigin(assetId: string): { wallet: SimWallet; tx: TxView } | null {
    const c = decodeEntity(this.seed, 'asset', assetId)
    if (c === null) return null
    const wallet = this.wallets[c.a]
    if (!wallet || c.b >= this.txCount(wallet)) return null
    const tx = this.tx(wallet, c.b)
    return tx.collectible ? { wallet, tx } : null
  }

  /** The compression transaction behind a compressed-account hash or address, when it exists. */
  compressedOrigin(text: string, by: 'hash' | 'address'): { wallet: SimWallet; tx: TxView } | null {
    const c = decodeEntity(this.seed, by === 'hash' ? 'compressedHash' : 'compressedAddress', text)
    if (c === null) return null
    const wallet = this.wallets[c.a]
    if (!wallet || c.b >= this.txCount(wallet)) return null
    const tx = this.tx(wallet, c.b)
    return tx.compressed ? { wallet, tx } : null
  }

  /** Token-account address of a wallet for a fungible mint. */
  tokenAccountAddress(wallet: SimWallet, mint: number): string {
    return encodeEntity(this.seed, 'tokenAccount', wallet.id, mint)
  }

  /** Token-account address holding an NFT bought at transaction `index`. */
  nftTokenAccountAddress(wallet: SimWallet, index: number): string {
    return encodeEntity(this.seed, 'nftTokenAccount', wallet.id, index)
  }

  /** Which wallet and mint a token-account address belongs to. */
  tokenAccountOwner(
    address: string,
  ): { wallet: SimWallet; mint: number } | { wallet: SimWallet; nftIndex: number } | null {
    const fungible = decodeEntity(this.seed, 'tokenAccount', address)
    if (fungible !== null) {
      const wallet = this.wallets[fungible.a]
      return wallet && fungible.b < this.mints.length ? { wallet, mint: fungible.b } : null
    }
    const nft = decodeEntity(this.seed, 'nftTokenAccount', address)
    if (nft !== null) {
      const wallet = this.wallets[nft.a]
      return wallet ? { wallet, nftIndex: nft.b } : null
    }
    return null
  }
}
