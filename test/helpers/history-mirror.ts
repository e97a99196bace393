import type BetterSqlite3 from 'better-sqlite3'
import bs58 from 'bs58'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { transactionDirections } from '../../src-main/db/ingest/transaction-directions'

// A synthetic mirror for the review queries: one wallet with N transactions, their balance
// changes, transfers and compression signatures, written the way the sync engine writes
// (prepared statements, one transaction per 10,000 rows). Deterministic per seed, so tests
// can compare a query's answer with a brute-force filter over the same rows.

/** One generated transaction, as the tests' truth. */
export interface GeneratedTx {
  id: number
  signature: string
  slot: number
  blockTimeSec: number | null
  isFailed: boolean
  changes: { mint: string; amount: number }[]
}

/** One generated transfer. */
export interface GeneratedTransfer {
  id: number
  signature: string
  blockTimeSec: number
  direction: 'in' | 'out'
  counterparty: string
  mint: string
}

export interface GeneratedMirror {
  walletId: number
  address: string
  /** Mint addresses; index 0 is SOL (in most transactions), the last ones are rare. */
  mints: string[]
  /** Filled only when `keepTruth` was asked (small mirrors). */
  transactions: GeneratedTx[]
  transfers: GeneratedTransfer[]
  counterparties: string[]
  newestSec: number
  oldestSec: number
}

export interface GenerateOptions {
  address: string
  label?: string
  count: number
  seed?: number
  /** Block time of the newest transaction. */
  newestSec?: number
  /** Share of transactions with no block time (the service may omit it). */
  undatedShare?: number
  keepTruth?: boolean
  rowsPerCommit?: number
}

const MINT_SYMBOLS = ['SOL', 'USDC', 'HELIO', 'LUMN', 'ORBT', 'PIX', 'GRID', 'KELP', 'RARE']
// Weights of how often each mint appears in a transaction besides SOL; RARE is ~0.4%.
const MINT_WEIGHTS = [0, 30, 20, 15, 10, 10, 8, 6.5, 0.5]

/** A small seeded generator of numbers in [0, 1): the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** A signature-like base58 text: cheaper than encoding 64 random bytes a million times. */
function randomSignature(next: () => number): string {
  let text = ''
  for (let i = 0; i < 88; i++) text += BASE58[Math.floor(next() * 58)]
  return text
}

function randomBytes(next: () => number, length: number): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(next() * 256)
  return bytes
}

/** A valid-looking address made from a seed, for mints and counterparties. */
export function generatedAddress(seed: number): string {
  return bs58.encode(randomBytes(mulberry32(seed * 7919 + 17), 32))
}

/**
 * Adds a wallet and fills its history. Returns the truth when `keepTruth` is set.
 *
 * @example
 * const mirror = generateHistoryMirror(database.sqlite, { address, count: 1_000_000 })
 */
export function generateHistoryMirror(
  sqlite: BetterSqlite3.Database,
  options: GenerateOptions,
): GeneratedMirror {
  const next = mulberry32(options.seed ?? 1)
  const newestSec = options.newestSec ?? 1_793_491_200
  const perCommit = options.rowsPerCommit ?? 10_000
  const undatedShare = options.undatedShare ?? 0
  const mints = MINT_SYMBOLS.map((_, i) => (i === 0 ? NATIVE_SOL_MINT : generatedAddress(1000 + i)))
  const counterparties = Array.from({ length: 40 }, (_, i) => generatedAddress(5000 + i))

  const position = (
    sqlite.prepare('select coalesce(max(position) + 1, 0) as p from wallets').get() as { p: number }
  ).p
  const walletId = Number(
    sqlite
      .prepare('insert into wallets (address, label, position, added_at_sec) values (?, ?, ?, ?)')
      .run(options.address, options.label ?? null, position, newestSec).lastInsertRowid,
  )
  const upsertMint = sqlite.prepare(
    `insert into mints (mint, symbol, name, decimals, logo_uri, token_program, price_usd, updated_at_sec)
     values (?, ?, ?, ?, null, 'spl-token', ?, ?) on conflict (mint) do nothing`,
  )
  MINT_SYMBOLS.forEach((symbol, i) =>
    upsertMint.run(mints[i], symbol, `${symbol} token`, i === 0 ? 9 : 6, 1 + i, newestSec),
  )

  const insertTx = sqlite.prepare(
    `insert into transactions (wallet_id, signature, slot, block_time_sec, fee, fee_text, fee_payer, error, is_failed, change_count,
       has_change_in, has_change_out, has_leg_in, has_leg_out)
     values (?, ?, ?, ?, 0.000005, '0.000005', ?, ?, ?, ?, @has_change_in, @has_change_out, @has_leg_in, @has_leg_out)`,
  )
  const insertChange = sqlite.prepare(
    `insert into balance_changes (transaction_id, wallet_id, ordinal, mint, amount, amount_text, amount_raw, decimals, block_time_sec, slot)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertTransfer = sqlite.prepare(
    `insert into transfers (wallet_id, signature, block_time_sec, direction, counterparty, mint, amount, amount_text, amount_raw, decimals, symbol)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null)`,
  )
  const insertCompressed = sqlite.prepare(
    `insert into compressed_signatures (wallet_id, kind, signature, slot, block_time_sec, error) values (?, ?, ?, ?, ?, null)`,
  )

  const transactions: GeneratedTx[] = []
  const transfers: GeneratedTransfer[] = []
  let time = newestSec
  let slot = 380_000_000 + newestSec - 1_793_491_200
  let oldestSec = newestSec
  const weightTotal = MINT_WEIGHTS.reduce((a, b) => a + b, 0)
  const pickMint = (): number => {
    let r = next() * weightTotal
    for (let i = 1; i < MINT_WEIGHTS.length; i++) {
      r -= MINT_WEIGHTS[i] as number
      if (r <= 0) return i
    }
    return 1
  }

  const writeBatch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // Gaps of 0 to 40 s and shared slots give ties on time and on slot: the keyset's
      // later columns must break them.
      if (i > 0) {
        time -= Math.floor(next() * 41)
        if (next() < 0.7) slot -= 1 + Math.floor(next() * 3)
      }
      oldestSec = time
      const signature = randomSignature(next)
      const isUndated = next() < undatedShare
      const blockTimeSec = isUndated ? null : time
      const isFailed = next() < 0.05
      const changes: { mint: string; amount: number }[] = []
      const solAmount = Math.round((next() - 0.6) * 2e9) / 1e9
      changes.push({ mint: NATIVE_SOL_MINT, amount: solAmount === 0 ? -0.000005 : solAmount })
      if (!isFailed && next() < 0.8) {
        const mint = mints[pickMint()] as string
        changes.push({ mint, amount: Math.round((next() - 0.5) * 2e8) / 1e6 || 1 })
      }
      // The directions the writer derives from the changes, the wallet paying the fee.
      const directions = transactionDirections(
        { fee: 0.000005, feePayer: options.address, balanceChanges: changes },
        options.address,
      )
      const id = Number(
        insertTx.run(
          walletId,
          signature,
          slot,
          blockTimeSec,
          options.address,
          isFailed ? 'InstructionError' : null,
          isFailed ? 1 : 0,
          changes.length,
          directions,
        ).lastInsertRowid,
      )
      changes.forEach((c, ordinal) => {
        const decimals = c.mint === NATIVE_SOL_MINT ? 9 : 6
        insertChange.run(
          id,
          walletId,
          ordinal,
          c.mint,
          c.amount,
          String(c.amount),
          null,
          decimals,
          blockTimeSec,
          slot,
        )
      })
      if (blockTimeSec !== null && next() < 0.5) {
        const c = changes[changes.length - 1] as { mint: string; amount: number }
        const direction = c.amount > 0 ? 'in' : 'out'
        const counterparty = counterparties[Math.floor(next() * counterparties.length)] as string
        const amount = Math.abs(c.amount)
        const tid = Number(
          insertTransfer.run(
            walletId,
            signature,
            blockTimeSec,
            direction,
            counterparty,
            c.mint,
            amount,
            String(amount),
            String(Math.round(amount * 1e6)),
            6,
          ).lastInsertRowid,
        )
        if (options.keepTruth)
          transfers.push({
            id: tid,
            signature,
            blockTimeSec,
            direction,
            counterparty,
            mint: c.mint,
          })
      }
      if (blockTimeSec !== null && next() < 0.1) {
        insertCompressed.run(
          walletId,
          next() < 0.5 ? 'owner' : 'token-owner',
          signature,
          slot,
          blockTimeSec,
        )
      }
      if (options.keepTruth)
        transactions.push({ id, signature, slot, blockTimeSec, isFailed, changes })
    }
  })
  for (let from = 0; from < options.count; from += perCommit) {
    writeBatch(from, Math.min(options.count, from + perCommit))
  }
  sqlite
    .prepare(
      `insert into sync_streams (wallet_id, stream, items_stored, is_backfill_complete) values (?, 'history', ?, 1), (?, 'transfers', ?, 1)
       on conflict do nothing`,
    )
    .run(walletId, options.count, walletId, transfers.length)
  return {
    walletId,
    address: options.address,
    mints,
    transactions,
    transfers,
    counterparties,
    newestSec,
    oldestSec,
  }
}

/** Adds balance snapshots (oldest first) with a few tokens and NFTs each. */
export function addBalanceSnapshots(
  sqlite: BetterSqlite3.Database,
  mirror: GeneratedMirror,
  totals: {
    atSec: number
    /** A null price: a token the service does not price (its value null too). */
    tokens: { mintIndex: number; balance: number; priceUsd: number | null }[]
    nfts?: number
    /** NFT names, in insertion order; `Piece #n` when absent. */
    nftNames?: string[]
  }[],
): void {
  const insertSnapshot = sqlite.prepare(
    'insert into balance_snapshots (wallet_id, taken_at_sec, total_usd, token_count, nft_count) values (?, ?, ?, ?, ?)',
  )
  const insertItem = sqlite.prepare(
    `insert into balance_snapshot_items (snapshot_id, mint, balance, balance_text, decimals, price_usd, usd_value, token_program)
     values (?, ?, ?, ?, 6, ?, ?, 'spl-token')`,
  )
  const insertNft = sqlite.prepare(
    `insert into balance_snapshot_nfts (snapshot_id, mint, name, image_uri, collection_name, collection_address, is_compressed)
     values (?, ?, ?, 'https://example.invalid/nft.png', ?, ?, ?)`,
  )
  sqlite.transaction(() => {
    for (const s of totals) {
      const total = s.tokens.reduce((sum, t) => sum + t.balance * (t.priceUsd ?? 0), 0)
      const id = Number(
        insertSnapshot.run(mirror.walletId, s.atSec, total, s.tokens.length, s.nfts ?? 0)
          .lastInsertRowid,
      )
      for (const t of s.tokens) {
        insertItem.run(
          id,
          mirror.mints[t.mintIndex],
          t.balance,
          String(t.balance),
          t.priceUsd,
          t.priceUsd === null ? null : t.balance * t.priceUsd,
        )
      }
      for (let n = 0; n < (s.nftNames?.length ?? s.nfts ?? 0); n++) {
        insertNft.run(
          id,
          generatedAddress(9000 + n),
          s.nftNames?.[n] ?? `Piece #${n}`,
          n % 2 ? 'Sun Dials' : 'Moon Gates',
          generatedAddress(8000 + (n % 2)),
          n % 3 === 0 ? 1 : 0,
        )
      }
    }
  })()
}
