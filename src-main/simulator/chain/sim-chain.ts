import {
  decodeEntity,
  decodeTransactionSignature,
  encodeEntity,
  transactionSignature,
} from './entity-ids'
import type { ChainTx, DeriveContext } from './history'
import { BLOCK_SIZE, computeDrift, deriveBlock } from './history'
import type { Injection, MintChoice, SilentVariant } from './injections'
import { LOOKALIKE_BASE } from './counterparties'
import {
  closeAccountTx,
  defaultAirdropRaw,
  failedSwapTx,
  poisoningTx,
  priceInLamports,
  purchaseTx,
  receiptTx,
  silentTx,
} from './injections'
import type { MintInfo } from './mints'
import { buildMints, issuedMint, SOL_MINT_INDEX } from './mints'
import type { Population, PopulationId } from './populations'
import { buildPopulation } from './populations'
import { hash32 } from './prng'
import { SimClock, slotAtSec } from './clock'
import type { ClockOptions } from './clock'
import type { WalletProfile, WalletProfileId } from './wallet-profiles'
import { hasCollectibles } from './wallet-profiles'

// The synthetic chain: the wallets of a population, whose histories are derived on demand.
// Memory is O(wallets + cached blocks + live transactions), never O(history length).

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
  /** Injected transactions by index; they take the place of the derived ones. */
  readonly overrides: Map<number, ChainTx>
  /** Mints the wallet received only through injected transactions, in order received. */
  readonly extraMints: number[]
  /**
   * Balances at the start of blocks after the first block holding an injected transaction,
   * where the closed form no longer holds; filled on demand, complete blocks only.
   */
  readonly carriedStarts: Map<number, bigint[]>
}

interface CachedBlock {
  txs: ChainTx[]
  signatures: (string | undefined)[]
}

const BLOCK_CACHE_LIMIT = 512

interface SimChainOptions {
  seed?: number
  clock?: ClockOptions | SimClock
  /** Which wallets the chain holds (default: one per profile, as always). */
  population?: PopulationId
}

export class SimChain {
  readonly seed: number
  /** The mint table, then the mints issued during the run (appended: indices never move). */
  readonly mints: readonly MintInfo[]
  readonly wallets: readonly SimWallet[]
  readonly clock: SimClock
  readonly population: Population
  private readonly byAddress = new Map<string, SimWallet>()
  private readonly byId = new Map<number, SimWallet>()
  private readonly mintByAddress = new Map<string, MintInfo>()
  private readonly blocks = new Map<number, CachedBlock>()

  constructor(options: SimChainOptions = {}) {
    this.seed = (options.seed ?? 42) >>> 0
    this.clock = options.clock instanceof SimClock ? options.clock : new SimClock(options.clock)
    this.mints = buildMints(this.seed)
    for (const m of this.mints) this.mintByAddress.set(m.address, m)
    this.population = buildPopulation(options.population ?? 'default', this.seed, this.mints)
    this.wallets = this.population.members.map(({ id: walletId, profile }) => {
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
        overrides: new Map(),
        extraMints: [],
        carriedStarts: new Map(),
      }
      this.byAddress.set(address, wallet)
      this.byId.set(walletId, wallet)
      return wallet
    })
  }

  /** The profile wallet at an address, if it is one. */
  walletByAddress(address: string): SimWallet | undefined {
    return this.byAddress.get(address)
  }

  /** The wallet with an id (ids are encoded in addresses and signatures). */
  walletById(id: number): SimWallet | undefined {
    return this.byId.get(id)
  }

  /** The first wallet of a profile. */
  walletByProfile(profile: WalletProfileId): SimWallet {
    const wallet = this.wallets.find((w) => w.profile.id === profile)
    if (!wallet) throw new Error(`no wallet with profile ${profile}`)
    return wallet
  }

  /** Every fungible mint the wallet has ever touched (SOL first): traded ones, then received ones. */
  mintsOf(wallet: SimWallet): number[] {
    return [...wallet.profile.tradedMints, ...wallet.extraMints]
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
    const { txs } = deriveBlock(wallet.ctx, block, BLOCK_SIZE - 1, {
      start: this.blockStart(wallet, block),
      overrides: wallet.overrides,
    })
    const entry: CachedBlock = { txs, signatures: new Array<string | undefined>(txs.length) }
    this.blocks.set(key, entry)
    if (this.blocks.size > BLOCK_CACHE_LIMIT) {
      const oldest = this.blocks.keys().next().value
      if (oldest !== undefined) this.blocks.delete(oldest)
    }
    return entry
  }

  /** Index of the first block holding an injected transaction, or Infinity. */
  private firstOverrideBlock(wallet: SimWallet): number {
    // Injections only ever append, so the first key inserted is the smallest.
    const first = wallet.overrides.keys().next().value
    return first === undefined ? Infinity : Math.floor(first / BLOCK_SIZE)
  }

  /**
   * Balances before block `block` (whose predecessors must be complete). Until an injected
   * transaction this is the closed form block × drift; after one, each block starts where
   * the one before really ended (an injection may take a block-closing position, and
   * received mints outside the traded ones are never rebalanced).
   */
  private blockStart(wallet: SimWallet, block: number): bigint[] {
    const first = this.firstOverrideBlock(wallet)
    const closed = (b: number) => wallet.ctx.drift.map((d) => d * BigInt(b))
    if (block <= first) return closed(block)
    const known = wallet.carriedStarts.get(block)
    if (known) return [...known]
    let b = block - 1
    while (b > first && !wallet.carriedStarts.has(b)) b--
    let running = b <= first ? closed(b) : [...(wallet.carriedStarts.get(b) as bigint[])]
    for (; b < block; b++) {
      running = deriveBlock(wallet.ctx, b, BLOCK_SIZE - 1, {
        start: running,
        overrides: wallet.overrides,
      }).balancesAfter
      wallet.carriedStarts.set(b + 1, [...running])
    }
    return running
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
    const wallet = this.walletById(decoded.walletId)
    if (!wallet || decoded.index >= this.txCount(wallet)) return null
    return this.tx(wallet, decoded.index)
  }

  /** Raw fungible balances (indexed by mint) after the first `count` transactions. */
  balancesAfter(wallet: SimWallet, count: number): bigint[] {
    const block = Math.floor(count / BLOCK_SIZE)
    const position = count % BLOCK_SIZE
    // Closed form at block boundaries (the balancing transaction sets k × drift) unless
    // injected activity came earlier.
    const balances = this.blockStart(wallet, block)
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

  /**
   * Appends `count` new transactions at the newest end, stamped with the clock, or with
   * `atSec[k]` when given (live activity due at earlier moments); times stay strictly
   * increasing.
   */
  appendActivity(wallet: SimWallet, count: number, atSec?: readonly number[]): TxView[] {
    const added: TxView[] = []
    for (let k = 0; k < count; k++) {
      this.pushLiveTime(wallet, atSec?.[k] ?? this.clock.nowSec())
      added.push(this.tx(wallet, this.txCount(wallet) - 1))
    }
    return added
  }

  private pushLiveTime(wallet: SimWallet, sec: number): void {
    const last = this.txCount(wallet) > 0 ? this.timestampOf(wallet, this.txCount(wallet) - 1) : 0
    wallet.liveTimes.push(Math.max(Math.floor(sec), last + 1))
  }

  /** Appends an injected transaction (built for the next index) at the clock's time. */
  private inject(wallet: SimWallet, build: (index: number) => ChainTx): TxView {
    const index = this.txCount(wallet)
    wallet.overrides.set(index, build(index))
    // The cached block holding the index was derived without the injection.
    const block = Math.floor(index / BLOCK_SIZE)
    this.blocks.delete(wallet.id * 2 ** 30 + block)
    this.pushLiveTime(wallet, this.clock.nowSec())
    return this.tx(wallet, index)
  }

  /**
   * Someone else sends the wallet a token of a mint it has never held (the first such mint
   * of the table unless `mint`, an index or address, is given): a new token account appears,
   * paid for by the sender.
   */
  injectTokenAirdrop(
    wallet: SimWallet,
    options: {
      mint?: MintChoice
      amountRaw?: bigint
      issue?: { symbol: string; name: string }
    } = {},
  ): TxView {
    const held = new Set(this.mintsOf(wallet))
    const mint = options.issue
      ? this.issueMint(options.issue)
      : options.mint === undefined
        ? this.mints.find((m) => m.index !== SOL_MINT_INDEX && !held.has(m.index))
        : this.tokenMint(options.mint)
    if (!mint) throw new Error('mint: none left that the wallet never held')
    if (held.has(mint.index))
      throw new Error(
        `mint: the wallet has held ${mint.symbol} before; an airdrop brings a new mint`,
      )
    const raw = positiveAmount(options.amountRaw ?? defaultAirdropRaw(mint))
    return this.injectReceived(wallet, mint, (index) =>
      receiptTx(this.seed, wallet.id, index, mint, raw, true),
    )
  }

  /**
   * The wallet swaps SOL for a mint it holds no account of (the first mint it never held
   * unless `mint` is given; one whose account it closed opens again), about 50 USD of it
   * or a tenth of its SOL's worth: its own transaction opens the token account.
   */
  injectTokenPurchase(
    wallet: SimWallet,
    options: { mint?: MintChoice; amountRaw?: bigint } = {},
  ): TxView {
    const held = new Set(this.mintsOf(wallet))
    const balances = this.balancesNow(wallet)
    const mint =
      options.mint === undefined
        ? this.mints.find((m) => m.index !== SOL_MINT_INDEX && !held.has(m.index))
        : this.tokenMint(options.mint)
    if (!mint) throw new Error('mint: none left that the wallet never held')
    if ((balances[mint.index] ?? 0n) > 0n)
      throw new Error(
        `mint: the wallet's ${mint.symbol} account is open; a purchase opens a new account`,
      )
    const sol = this.mints[SOL_MINT_INDEX] as MintInfo
    const raw = positiveAmount(
      options.amountRaw ?? affordableRaw(mint, sol, balances[SOL_MINT_INDEX] ?? 0n),
    )
    const lamports = priceInLamports(mint, raw, sol)
    const tx = purchaseTx(this.seed, wallet.id, 0, mint, raw, lamports)
    if ((balances[SOL_MINT_INDEX] ?? 0n) < -(tx.changes[0]?.raw ?? 0n))
      throw new Error(`wallet: not enough SOL to buy ${mint.symbol} for ${lamports} lamports`)
    return this.injectReceived(wallet, mint, (index) =>
      purchaseTx(this.seed, wallet.id, index, mint, raw, lamports),
    )
  }

  /**
   * Someone else sends the wallet a mint into its account of it, or into one opened for it
   * when it has none, signing and paying: the wallet's own address is not among the
   * transaction's accounts.
   */
  injectTokenReceipt(wallet: SimWallet, options: { mint: MintChoice; amountRaw?: bigint }): TxView {
    const mint = this.tokenMint(options.mint)
    const raw = positiveAmount(options.amountRaw ?? defaultAirdropRaw(mint))
    return this.injectReceived(wallet, mint, (index) =>
      receiptTx(this.seed, wallet.id, index, mint, raw, false),
    )
  }

  /** The wallet sends all it holds of a mint to someone and closes the emptied token account. */
  injectCloseAccount(wallet: SimWallet, options: { mint: MintChoice }): TxView {
    const mint = this.tokenMint(options.mint)
    const balances = this.balancesNow(wallet)
    const raw = balances[mint.index] ?? 0n
    if (raw <= 0n) throw new Error(`mint: the wallet has no open ${mint.symbol} account to close`)
    const tx = closeAccountTx(this.seed, wallet.id, 0, mint, raw)
    if ((balances[SOL_MINT_INDEX] ?? 0n) < tx.feeLamports)
      throw new Error('wallet: not enough SOL for the fee')
    return this.inject(wallet, (index) => closeAccountTx(this.seed, wallet.id, index, mint, raw))
  }

  /** Injects one transaction of a kind (see injections.ts) at the clock's time. */
  injectActivity(wallet: SimWallet, injection: Injection): TxView {
    switch (injection.kind) {
      case 'token-airdrop':
        return this.injectTokenAirdrop(wallet, injection)
      case 'silent':
        return this.injectSilent(wallet, injection.variant)
      case 'address-poisoning':
        return this.injectPoisoning(wallet)
      case 'token-purchase':
        return this.injectTokenPurchase(wallet, injection)
      case 'token-receipt':
        return this.injectTokenReceipt(wallet, injection)
      case 'close-account':
        return this.injectCloseAccount(wallet, injection)
      case 'failed-swap': {
        const fee = failedSwapTx(wallet.id, 0).feeLamports
        if ((this.balancesNow(wallet)[SOL_MINT_INDEX] ?? 0n) < fee)
          throw new Error('wallet: not enough SOL for the fee')
        return this.inject(wallet, (index) => failedSwapTx(wallet.id, index))
      }
    }
  }

  /** A new mint after the table's, named as its issuer chose. */
  issueMint(naming: { symbol: string; name: string }): MintInfo {
    const mint = issuedMint(this.seed, this.mints.length, naming)
    ;(this.mints as MintInfo[]).push(mint)
    this.mintByAddress.set(mint.address, mint)
    return mint
  }

  /** How far back a poisoner looks for someone the wallet sent to. */
  private static readonly POISONING_LOOKBACK = 500

  /**
   * Address poisoning: dust from a lookalike of the last counterparty the wallet sent to
   * (else dealt with), as a poisoner watching the chain would send it.
   */
  injectPoisoning(wallet: SimWallet): TxView {
    const count = this.txCount(wallet)
    let imitated: number | null = null
    let dealtWith: number | null = null
    for (let i = count - 1; i >= Math.max(0, count - SimChain.POISONING_LOOKBACK); i--) {
      const legs = this.tx(wallet, i).legs.filter((l) => l.counterparty < LOOKALIKE_BASE)
      dealtWith ??= legs[0]?.counterparty ?? null
      imitated = legs.find((l) => l.direction === 'out')?.counterparty ?? null
      if (imitated !== null) break
    }
    imitated ??= dealtWith
    if (imitated === null)
      throw new Error('wallet: it has dealt with no one a poisoner could imitate')
    const target = imitated
    return this.inject(wallet, (index) => poisoningTx(wallet.id, index, target))
  }

  /** A transaction naming the wallet that changes none of its balances (memo or failed). */
  injectSilent(wallet: SimWallet, variant: SilentVariant = 'memo'): TxView {
    return this.inject(wallet, (index) => silentTx(this.seed, wallet.id, index, variant))
  }

  /** Injects a transaction that brings the wallet a mint, which it then holds among its mints. */
  private injectReceived(
    wallet: SimWallet,
    mint: MintInfo,
    build: (index: number) => ChainTx,
  ): TxView {
    const tx = this.inject(wallet, build)
    if (!this.mintsOf(wallet).includes(mint.index)) wallet.extraMints.push(mint.index)
    return tx
  }

  /** A token mint (not SOL) by index or address; an error names what is wrong. */
  private tokenMint(choice: MintChoice): MintInfo {
    const mint = typeof choice === 'number' ? this.mints[choice] : this.mintByAddress.get(choice)
    if (!mint) throw new Error(`mint: ${String(choice)} is not a mint of the simulator`)
    if (mint.index === SOL_MINT_INDEX) throw new Error('mint: SOL is held in no token account')
    return mint
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
    const wallet = this.walletById(c.a)
    if (!wallet || c.b >= this.txCount(wallet)) return null
    const tx = this.tx(wallet, c.b)
    return tx.collectible ? { wallet, tx } : null
  }

  /** The compression transaction behind a compressed-account hash or address, when it exists. */
  compressedOrigin(text: string, by: 'hash' | 'address'): { wallet: SimWallet; tx: TxView } | null {
    const c = decodeEntity(this.seed, by === 'hash' ? 'compressedHash' : 'compressedAddress', text)
    if (c === null) return null
    const wallet = this.walletById(c.a)
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
      const wallet = this.walletById(fungible.a)
      return wallet && fungible.b < this.mints.length ? { wallet, mint: fungible.b } : null
    }
    const nft = decodeEntity(this.seed, 'nftTokenAccount', address)
    if (nft !== null) {
      const wallet = this.walletById(nft.a)
      return wallet ? { wallet, nftIndex: nft.b } : null
    }
    return null
  }
}

/** About 50 USD of a mint, or what a tenth of the wallet's SOL buys when that is less. */
function affordableRaw(mint: MintInfo, sol: MintInfo, lamports: bigint): bigint {
  const fifty = defaultAirdropRaw(mint)
  const price = priceInLamports(mint, fifty, sol)
  const tenth = lamports / 10n
  if (price <= tenth) return fifty
  return (fifty * tenth) / price > 0n ? (fifty * tenth) / price : 1n
}

/** An amount that must be positive, or an error naming it. */
function positiveAmount(raw: bigint): bigint {
  if (raw <= 0n) throw new Error('amountRaw: must be positive')
  return raw
}
