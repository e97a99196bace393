import type { HistoryTransactionType } from '@shared/api/enums'
import { encodeEntity } from './entity-ids'
import type { MintInfo } from './mints'
import { SOL_MINT_INDEX } from './mints'
import { hash32, Rng } from './prng'
import type { TxKind, WalletProfile } from './wallet-profiles'
import { kindWeightsAt, TX_KINDS } from './wallet-profiles'

// Transaction i of wallet w is a pure function of (seed, w, i). Histories are cut into
// blocks of BLOCK_SIZE transactions; the last one of each block rebalances the wallet to
// exactly (k + 1) × drift, so the balance before block k is k × drift (closed form) and any
// prefix sum costs at most one block of derivation, whatever the history length.

export const BLOCK_SIZE = 8

/** Base fee of a signature in lamports (Solana), plus a seeded priority fee. */
const BASE_FEE_LAMPORTS = 5_000n

/** Upper bound for any raw amount, so decimal numbers stay exact doubles (< 2^53). */
const MAX_RAW = 2n ** 50n

/** Counterparty roles by number range (see counterparties.ts). */
export const COUNTERPARTY_RANGES = {
  exchange: [0, 3],
  pool: [4, 11],
  marketplace: [12, 15],
  person: [16, 47],
} as const

/** Number of NFT collections in the simulated world. */
export const COLLECTION_COUNT = 6

/** One balance change of the wallet: fungible mint index, or -1 with the NFT's asset id. */
interface TxChange {
  readonly mint: number
  readonly assetId?: string
  /** Signed raw amount; for SOL it includes the fee when the wallet paid it. */
  readonly raw: bigint
}

/** One movement with a counterparty, the source of a transfers entry. */
interface TxLeg {
  readonly mint: number
  readonly assetId?: string
  /** Raw magnitude, always positive; for SOL it excludes the fee. */
  readonly raw: bigint
  readonly direction: 'in' | 'out'
  readonly counterparty: number
}

/** What the wallet received as a collectible (an NFT or a compressed NFT). */
interface TxCollectible {
  readonly kind: 'nft' | 'cnft'
  readonly assetId: string
  readonly collection: number
  readonly serial: number
}

/** A compressed account the transaction opened (Photon). */
interface TxCompressed {
  readonly lamports: bigint
  readonly tokenMint: number | null
  readonly tokenRaw: bigint
}

/** The content of one transaction; the chain adds signature, slot and time. */
export interface ChainTx {
  readonly walletId: number
  readonly index: number
  readonly kind: TxKind
  readonly type: HistoryTransactionType
  readonly feeLamports: bigint
  /** Counterparty number that paid the fee, or -1 when the wallet did. */
  readonly feePayer: number
  readonly error: { message: string; instruction: number; code: number } | null
  /** Whether the wallet's own address is an account key (else only its token account is). */
  readonly directRef: boolean
  readonly changes: readonly TxChange[]
  readonly legs: readonly TxLeg[]
  readonly collectible?: TxCollectible
  readonly compressed?: TxCompressed
  /** Text of a memo instruction, when the transaction carries one. */
  readonly memo?: string
}

/** What derivation needs to know about the world and the wallet. */
export interface DeriveContext {
  readonly seed: number
  readonly mints: readonly MintInfo[]
  readonly walletId: number
  readonly profile: WalletProfile
  /** Per-block growth of each fungible balance (raw), indexed by mint. */
  readonly drift: readonly bigint[]
}

const FAILURES = [
  { message: 'Slippage tolerance exceeded', code: 6001 },
  { message: 'Insufficient funds for swap', code: 1 },
  { message: 'Price moved beyond limit', code: 6022 },
  { message: 'Account already in use', code: 6000 },
] as const

function clampRaw(raw: bigint): bigint {
  return raw > MAX_RAW ? MAX_RAW : raw
}

/** A raw amount worth about `usd` dollars of a mint (at least 1 unit). */
function rawForUsd(mint: MintInfo, usd: number): bigint {
  const units = (usd / mint.priceUsd) * 10 ** mint.decimals
  const raw = BigInt(Math.max(1, Math.floor(Math.min(units, Number(MAX_RAW)))))
  return clampRaw(raw)
}

/** Part of a balance: 5–60 % of it, at least 1 when the balance is positive. */
function portion(rng: Rng, balance: bigint): bigint {
  if (balance <= 0n) return 0n
  const share = BigInt(rng.int(50, 600))
  const part = (balance * share) / 1000n
  return part > 0n ? part : 1n
}

function counterpartyIn(rng: Rng, role: keyof typeof COUNTERPARTY_RANGES): number {
  const [lo, hi] = COUNTERPARTY_RANGES[role]
  return rng.int(lo, hi)
}

/** Per-block drift of each mint for a profile: held mints grow, SOL keeps ~30 % of funding. */
export function computeDrift(profile: WalletProfile, mints: readonly MintInfo[]): bigint[] {
  const blocks = Math.max(1, Math.floor(profile.baseTxCount / BLOCK_SIZE))
  const drift = mints.map(() => 0n)
  drift[SOL_MINT_INDEX] = (profile.fundingLamports * 3n) / 10n / BigInt(blocks)
  for (const m of profile.heldMints) {
    const mint = mints[m]
    if (mint !== undefined) drift[m] = rawForUsd(mint, (profile.usdScale * 4) / blocks)
  }
  return drift
}

function txType(kind: TxKind, legs: readonly TxLeg[]): HistoryTransactionType {
  switch (kind) {
    case 'swap':
    case 'failed':
      return 'SWAP'
    case 'nftBuy':
      return 'NFT_SALE'
    case 'cnftMint':
      return 'COMPRESSED_NFT_MINT'
    case 'balancing': {
      const hasIn = legs.some((l) => l.direction === 'in')
      const hasOut = legs.some((l) => l.direction === 'out')
      return hasIn && hasOut ? 'SWAP' : 'TRANSFER'
    }
    default:
      return 'TRANSFER'
  }
}

/** Mutable running balances while a block is derived. */
type Running = bigint[]

function build(
  ctx: DeriveContext,
  index: number,
  kind: TxKind,
  fee: bigint,
  feePayer: number,
  changes: TxChange[],
  legs: TxLeg[],
  extra: {
    directRef?: boolean
    error?: ChainTx['error']
    collectible?: TxCollectible
    compressed?: TxCompressed
  } = {},
): ChainTx {
  // SOL first, as the balances list puts it first (with showNative).
  changes.sort((a, b) => (a.mint === SOL_MINT_INDEX ? -1 : b.mint === SOL_MINT_INDEX ? 1 : 0))
  return {
    walletId: ctx.walletId,
    index,
    kind,
    type: txType(kind, legs),
    feeLamports: fee,
    feePayer,
    error: extra.error ?? null,
    directRef: extra.directRef ?? true,
    changes: changes.filter((c) => c.raw !== 0n),
    legs,
    ...(extra.collectible ? { collectible: extra.collectible } : {}),
    ...(extra.compressed ? { compressed: extra.compressed } : {}),
  }
}

function apply(running: Running, tx: ChainTx): void {
  for (const c of tx.changes) if (c.mint >= 0) running[c.mint] = (running[c.mint] ?? 0n) + c.raw
}

/** One try at a generated kind: what the wallet holds now and this try's draws. */
interface Attempt {
  ctx: DeriveContext
  rng: Rng
  index: number
  kind: TxKind
  running: Running
  mints: DeriveContext['mints']
  profile: DeriveContext['profile']
  sol: MintInfo
  fee: bigint
  solBalance: bigint
  canPayFee: boolean
  scaleUsd: number
  /** The traded mints other than SOL. */
  tokens: number[]
}

/** Tries one generated kind; null when the wallet cannot afford it right now. */
function tryKind(
  ctx: DeriveContext,
  rng: Rng,
  index: number,
  kind: TxKind,
  running: Running,
): ChainTx | null {
  const { mints, profile } = ctx
  const sol = mints[SOL_MINT_INDEX] as MintInfo
  // The draws come in this order for every kind: the chain is the same for a seed.
  const fee = BASE_FEE_LAMPORTS + BigInt(rng.int(0, 40) * 2_500)
  const solBalance = running[SOL_MINT_INDEX] ?? 0n
  const canPayFee = solBalance >= fee
  const scaleUsd = profile.usdScale * (0.1 + rng.float() * 1.9)
  const tokens = profile.tradedMints.filter((m) => m !== SOL_MINT_INDEX)
  const make = KIND_MAKERS[kind]
  if (!make) return null
  return make({
    ...{ ctx, rng, index, kind, running, mints, profile },
    ...{ sol, fee, solBalance, canPayFee, scaleUsd, tokens },
  })
}

/** How each generated kind is made (kinds missing here are never generated this way). */
const KIND_MAKERS: Partial<Record<TxKind, (attempt: Attempt) => ChainTx | null>> = {
  solIn: makeSolIn,
  solOut: makeSolOut,
  tokenIn: makeTokenIn,
  tokenOut: makeTokenOut,
  swap: makeSwap,
  nftBuy: makeNftBuy,
  cnftMint: makeCnftMint,
  compress: makeCompress,
  failed: makeFailed,
}

function makeSolIn(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, sol, fee, scaleUsd } = attempt
  const raw = rawForUsd(sol, scaleUsd)
  const cp = counterpartyIn(rng, rng.float() < 0.3 ? 'exchange' : 'person')
  return build(
    ctx,
    index,
    kind,
    fee,
    cp,
    [{ mint: 0, raw }],
    [{ mint: 0, raw, direction: 'in', counterparty: cp }],
  )
}

function makeSolOut(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, fee, solBalance, canPayFee } = attempt
  if (!canPayFee || solBalance - fee < 2n) return null
  const raw = portion(rng, solBalance - fee)
  const cp = counterpartyIn(rng, rng.float() < 0.3 ? 'exchange' : 'person')
  return build(
    ctx,
    index,
    kind,
    fee,
    -1,
    [{ mint: 0, raw: -(raw + fee) }],
    [{ mint: 0, raw, direction: 'out', counterparty: cp }],
  )
}

function makeTokenIn(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, running, mints, fee, scaleUsd, tokens } = attempt
  if (tokens.length === 0) return null
  const m = rng.pick(tokens)
  const raw = rawForUsd(mints[m] as MintInfo, scaleUsd)
  const cp = counterpartyIn(rng, 'person')
  // A sender creating the token account names the owner; later receipts touch only
  // the token account, so the wallet address itself is not referenced.
  const directRef = (running[m] ?? 0n) === 0n
  return build(
    ctx,
    index,
    kind,
    fee,
    cp,
    [{ mint: m, raw }],
    [{ mint: m, raw, direction: 'in', counterparty: cp }],
    {
      directRef,
    },
  )
}

function makeTokenOut(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, running, fee, canPayFee, tokens } = attempt
  const owned = tokens.filter((m) => (running[m] ?? 0n) > 0n)
  if (!canPayFee || owned.length === 0) return null
  const m = rng.pick(owned)
  const raw = portion(rng, running[m] ?? 0n)
  const cp = counterpartyIn(rng, 'person')
  return build(
    ctx,
    index,
    kind,
    fee,
    -1,
    [
      { mint: 0, raw: -fee },
      { mint: m, raw: -raw },
    ],
    [{ mint: m, raw, direction: 'out', counterparty: cp }],
  )
}

function makeSwap(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, running, mints, profile, fee, solBalance, canPayFee } = attempt
  if (!canPayFee || profile.tradedMints.length < 2) return null
  const sellable = profile.tradedMints.filter((m) =>
    m === SOL_MINT_INDEX ? solBalance - fee > 1_000n : (running[m] ?? 0n) > 0n,
  )
  if (sellable.length === 0) return null
  const from = rng.pick(sellable)
  const to = rng.pick(profile.tradedMints.filter((m) => m !== from))
  const fromMint = mints[from] as MintInfo
  const toMint = mints[to] as MintInfo
  const sold = portion(rng, from === SOL_MINT_INDEX ? solBalance - fee : (running[from] ?? 0n))
  const usd =
    (Number(sold) / 10 ** fromMint.decimals) * fromMint.priceUsd * (0.99 + rng.float() * 0.015)
  const boughtUnits = Math.floor((usd / toMint.priceUsd) * 10 ** toMint.decimals)
  if (boughtUnits < 1) return null
  const bought = clampRaw(BigInt(boughtUnits))
  const pool = counterpartyIn(rng, 'pool')
  const changes: TxChange[] = [
    { mint: from, raw: -sold },
    { mint: to, raw: bought },
  ]
  const solChange = changes.find((c) => c.mint === SOL_MINT_INDEX)
  if (solChange) changes[changes.indexOf(solChange)] = { mint: 0, raw: solChange.raw - fee }
  else changes.push({ mint: 0, raw: -fee })
  return build(ctx, index, kind, fee, -1, changes, [
    { mint: from, raw: sold, direction: 'out', counterparty: pool },
    { mint: to, raw: bought, direction: 'in', counterparty: pool },
  ])
}

function makeNftBuy(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, sol, fee, solBalance, scaleUsd } = attempt
  const price = rawForUsd(sol, scaleUsd)
  if (solBalance < price + fee) return null
  const assetId = encodeEntity(ctx.seed, 'asset', ctx.walletId, index)
  const seller = counterpartyIn(rng, 'person')
  const market = counterpartyIn(rng, 'marketplace')
  const collection = rng.int(0, COLLECTION_COUNT - 1)
  return build(
    ctx,
    index,
    kind,
    fee,
    -1,
    [
      { mint: 0, raw: -(price + fee) },
      { mint: -1, assetId, raw: 1n },
    ],
    [
      { mint: 0, raw: price, direction: 'out', counterparty: market },
      { mint: -1, assetId, raw: 1n, direction: 'in', counterparty: seller },
    ],
    { collectible: { kind: 'nft', assetId, collection, serial: rng.int(1, 9_999) } },
  )
}

function makeCnftMint(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, fee, canPayFee } = attempt
  if (!canPayFee) return null
  const assetId = encodeEntity(ctx.seed, 'asset', ctx.walletId, index)
  const collection = rng.int(0, COLLECTION_COUNT - 1)
  return build(ctx, index, kind, fee, -1, [{ mint: 0, raw: -fee }], [], {
    collectible: { kind: 'cnft', assetId, collection, serial: rng.int(1, 99_999) },
  })
}

function makeCompress(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, running, fee, solBalance, tokens } = attempt
  const owned = tokens.filter((m) => (running[m] ?? 0n) > 0n)
  const tokenMint = owned.length > 0 && rng.float() < 0.5 ? rng.pick(owned) : null
  const tokenRaw = tokenMint === null ? 0n : portion(rng, running[tokenMint] ?? 0n)
  // One account per transaction: either compressed lamports or a compressed token account.
  const lamports = tokenMint === null ? BigInt(rng.int(1, 20)) * 1_000_000n : 0n
  if (solBalance < lamports + fee) return null
  const pool = COUNTERPARTY_RANGES.pool[0]
  const changes: TxChange[] = [{ mint: 0, raw: -(lamports + fee) }]
  const legs: TxLeg[] =
    lamports > 0n ? [{ mint: 0, raw: lamports, direction: 'out', counterparty: pool }] : []
  if (tokenMint !== null) {
    changes.push({ mint: tokenMint, raw: -tokenRaw })
    legs.push({ mint: tokenMint, raw: tokenRaw, direction: 'out', counterparty: pool })
  }
  return build(ctx, index, kind, fee, -1, changes, legs, {
    compressed: { lamports, tokenMint, tokenRaw },
  })
}

function makeFailed(attempt: Attempt): ChainTx | null {
  const { ctx, rng, index, kind, fee, canPayFee } = attempt
  if (!canPayFee) return null
  const failure = rng.pick(FAILURES)
  // A failed transaction only costs its fee (Solana semantics).
  return build(ctx, index, kind, fee, -1, [{ mint: 0, raw: -fee }], [], {
    error: { message: failure.message, instruction: rng.int(0, 3), code: failure.code },
  })
}

function deriveOne(ctx: DeriveContext, index: number, position: number, running: Running): ChainTx {
  const rng = new Rng(hash32(ctx.seed, 0x7a, ctx.walletId, index))
  const fee = BASE_FEE_LAMPORTS + BigInt(rng.int(0, 40) * 2_500)
  if (index === 0) {
    // The first transaction funds the wallet from an exchange (funded-by = first incoming SOL).
    const cp = counterpartyIn(rng, 'exchange')
    const raw = ctx.profile.fundingLamports > 0n ? ctx.profile.fundingLamports : 1_000_000n
    return build(
      ctx,
      index,
      'funding',
      fee,
      cp,
      [{ mint: 0, raw }],
      [{ mint: 0, raw, direction: 'in', counterparty: cp }],
    )
  }
  if (position === BLOCK_SIZE - 1) {
    const block = Math.floor(index / BLOCK_SIZE)
    const pool = counterpartyIn(rng, 'pool')
    const changes: TxChange[] = []
    const legs: TxLeg[] = []
    for (const m of ctx.profile.tradedMints) {
      const target = (ctx.drift[m] ?? 0n) * BigInt(block + 1)
      const delta = target - (running[m] ?? 0n)
      changes.push({ mint: m, raw: delta })
      const moved = m === SOL_MINT_INDEX ? delta + fee : delta
      if (moved !== 0n) {
        legs.push({
          mint: m,
          raw: moved > 0n ? moved : -moved,
          direction: moved > 0n ? 'in' : 'out',
          counterparty: pool,
        })
      }
    }
    return build(ctx, index, 'balancing', fee, -1, changes, legs)
  }
  const weights = kindWeightsAt(ctx.profile, index)
  const kinds = TX_KINDS.filter((k) => (weights[k] ?? 0) > 0)
  const kind = kinds[rng.weighted(kinds.map((k) => weights[k] ?? 0))] ?? 'solIn'
  return (
    tryKind(ctx, rng, index, kind, running) ??
    (tryKind(ctx, rng, index, 'solIn', running) as ChainTx)
  )
}

/**
 * Derives block `block` up to and including position `lastPosition`, returning its
 * transactions and the running balances after the last one. By default the block starts
 * from the closed form (block × drift); `from.start` gives other starting balances and
 * `from.overrides` transactions that take the place of derived ones (injected activity),
 * so the derived transactions after them see the balances as they really are.
 */
export function deriveBlock(
  ctx: DeriveContext,
  block: number,
  lastPosition = BLOCK_SIZE - 1,
  from: { start?: readonly bigint[]; overrides?: ReadonlyMap<number, ChainTx> } = {},
): { txs: ChainTx[]; balancesAfter: bigint[] } {
  const running: Running = from.start ? [...from.start] : ctx.drift.map((d) => d * BigInt(block))
  const txs: ChainTx[] = []
  for (let p = 0; p <= lastPosition; p++) {
    const index = block * BLOCK_SIZE + p
    const tx = from.overrides?.get(index) ?? deriveOne(ctx, index, p, running)
    apply(running, tx)
    txs.push(tx)
  }
  return { txs, balancesAfter: running }
}
