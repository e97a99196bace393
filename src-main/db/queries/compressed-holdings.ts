import type { Kysely } from 'kysely'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import type { Database } from '../schema'

/** SOL's decimals: lamports per SOL is 10^9. */
export const SOL_DECIMALS = 9

/** A wallet's compressed state at one snapshot, with what each part is worth. */
export interface CompressedHoldings {
  takenAtSec: number
  lamportsRaw: string
  tokens: {
    mint: string
    symbol: string | null
    /** Exact integer text of the raw amount. */
    raw: string
    /** Null when the mint's decimals are not known: the raw integer is then the amount. */
    decimals: number | null
    /** Exact decimal text. */
    amount: string
    priceUsd: number | null
    valueUsd: number
  }[]
  /** Compressed SOL at SOL's price. */
  solValueUsd: number
  /** Compressed SOL at SOL's price plus compressed tokens at theirs. */
  valueUsd: number
}

/**
 * The wallet's latest compressed state, or null when none was mirrored (a wallet without
 * compressed activity).
 */
export async function latestCompressed(
  db: Kysely<Database>,
  walletId: number,
): Promise<CompressedHoldings | null> {
  const snapshot = await db
    .selectFrom('compressed_snapshots')
    .select(['id', 'taken_at_sec', 'lamports_raw'])
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return snapshot ? compressedHoldingsOf(db, snapshot) : null
}

/** Every compressed snapshot of a wallet, oldest first, each with its value. */
export async function listCompressedHoldings(
  db: Kysely<Database>,
  walletId: number,
): Promise<CompressedHoldings[]> {
  const snapshots = await db
    .selectFrom('compressed_snapshots')
    .select(['id', 'taken_at_sec', 'lamports_raw'])
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec')
    .orderBy('id')
    .execute()
  const all: CompressedHoldings[] = []
  for (const s of snapshots) all.push(await compressedHoldingsOf(db, s))
  return all
}

/** The USD value of a wallet's latest compressed state (0 without one). */
export async function fetchCompressedValueUsd(
  db: Kysely<Database>,
  walletId: number,
): Promise<number> {
  return (await latestCompressed(db, walletId))?.valueUsd ?? 0
}

async function compressedHoldingsOf(
  db: Kysely<Database>,
  snapshot: { id: number; taken_at_sec: number; lamports_raw: string },
): Promise<CompressedHoldings> {
  const rows = await db
    .selectFrom('compressed_snapshot_tokens as t')
    .leftJoin('mints as m', 'm.mint', 't.mint')
    .select(['t.mint', 't.amount_raw', 'm.symbol', 'm.decimals', 'm.price_usd'])
    .where('t.snapshot_id', '=', snapshot.id)
    .orderBy('t.mint')
    .execute()
  const tokens = rows.map((t) => {
    // Without known decimals the raw integer is all that can be said exactly.
    const amount = decimalFromRaw(t.amount_raw, t.decimals ?? 0)
    const priceUsd = t.decimals === null ? null : t.price_usd
    return {
      mint: t.mint,
      symbol: t.symbol,
      raw: t.amount_raw,
      decimals: t.decimals,
      amount,
      priceUsd,
      valueUsd: Number(amount) * (priceUsd ?? 0),
    }
  })
  const solPrice = await mintPrice(db, NATIVE_SOL_MINT)
  const solValueUsd = Number(decimalFromRaw(snapshot.lamports_raw, SOL_DECIMALS)) * (solPrice ?? 0)
  return {
    takenAtSec: snapshot.taken_at_sec,
    lamportsRaw: snapshot.lamports_raw,
    tokens,
    solValueUsd,
    valueUsd: tokens.reduce((sum, t) => sum + t.valueUsd, solValueUsd),
  }
}

async function mintPrice(db: Kysely<Database>, mint: string): Promise<number | null> {
  const row = await db
    .selectFrom('mints')
    .select('price_usd')
    .where('mint', '=', mint)
    .executeTakeFirst()
  return row?.price_usd ?? null
}
