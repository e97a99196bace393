import { sql, type Kysely } from 'kysely'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { decimalFromRaw, decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { Database } from '../schema'
import { addressNameOf } from './address-names'

// What a transaction moved for its wallet, read the one way the feed, the alert rules and
// their texts all read it: each mint's net change with the fee the wallet paid left out
// (exact, in lamports), its symbol, name and price, and who the wallet dealt with.

/** One token a transaction moved for the wallet: the net change with the fee left out. */
export interface TransactionLeg {
  mint: string
  symbol: string | null
  /** The token's name, or an NFT's (from its metadata, else the holdings that showed it). */
  name: string | null
  decimals: number
  /** Exact signed decimal text. */
  amountText: string
  priceUsd: number | null
}

/** A transfer of the transaction, with the counterparty's name where the mirror knows one. */
export interface TransactionTransfer {
  direction: 'in' | 'out'
  mint: string
  counterparty: string
  counterpartyName: string | null
}

/** What the legs of one transaction are worked out from. */
export interface LegsOwner {
  id: number
  /** The fee as exact decimal SOL, and whether the wallet paid it. */
  feeText: string
  paysFee: boolean
}

/** The balance changes of these transactions with their mints, in order (see {@link legsByTransaction}). */
export function readLegRows(db: Kysely<Database>, ids: readonly number[]) {
  return db
    .selectFrom('balance_changes as d')
    .leftJoin('mints as m', 'm.mint', 'd.mint')
    .select([
      'd.transaction_id',
      'd.mint',
      'd.amount',
      'd.amount_text',
      'd.amount_raw',
      'd.decimals',
      'm.symbol',
      'm.price_usd',
      // An NFT's name where its mint row has none: the holdings that showed it (by mint).
      sql<string | null>`coalesce(m.name, case when d.decimals = 0 then (
        select n.name from balance_snapshot_nfts as n where n.mint = d.mint limit 1
      ) end)`.as('name'),
    ])
    .where('d.transaction_id', 'in', [...ids])
    .orderBy('d.transaction_id')
    .orderBy('d.ordinal')
    .execute()
}

/** Rows of {@link readLegRows}. */
export type LegRow = Awaited<ReturnType<typeof readLegRows>>[number]

/**
 * The legs of each transaction, by its id: each mint's net change (zero changes left out),
 * the SOL leg with the fee the wallet paid added back.
 */
export function legsByTransaction(
  rows: readonly LegRow[],
  owners: readonly LegsOwner[],
): Map<number, TransactionLeg[]> {
  const legs = new Map<number, TransactionLeg[]>(owners.map((o) => [o.id, []]))
  const byId = new Map(owners.map((o) => [o.id, o]))
  for (const c of rows) {
    const owner = byId.get(c.transaction_id)
    if (owner === undefined) continue
    const amountText =
      owner.paysFee && c.mint === NATIVE_SOL_MINT ? withoutFee(c, owner.feeText) : c.amount_text
    if (/^-?0(\.0*)?$/.test(amountText)) continue
    legs.get(owner.id)?.push({
      mint: c.mint,
      // Native SOL has no mint account to name it: the mints table may hold no row for it.
      symbol: c.symbol ?? (c.mint === NATIVE_SOL_MINT ? 'SOL' : null),
      name: c.name,
      decimals: c.decimals,
      amountText,
      priceUsd: c.price_usd,
    })
  }
  return legs
}

/** The SOL change with the fee the wallet paid added back, exact in lamports. */
function withoutFee(
  change: { amount: number; amount_text: string; amount_raw: string | null },
  feeText: string,
): string {
  const raw = change.amount_raw ?? rawFromDecimalText(change.amount_text, 9)
  const fee = rawFromDecimalText(feeText, 9)
  if (raw === null || fee === null)
    return decimalText(Number((change.amount + Number(feeText)).toPrecision(12)))
  return decimalFromRaw(String(BigInt(raw) + BigInt(fee)), 9)
}

/**
 * The transfers these transactions hold, each found by its natural key, keyed by
 * `${wallet id} ${signature}`; counterparties named as the review views name them.
 */
export async function readTransactionTransfers(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<Map<string, TransactionTransfer[]>> {
  const transfers = new Map<string, TransactionTransfer[]>()
  if (ids.length === 0) return transfers
  const rows = await db
    .selectFrom('transfers as r')
    // Joined on the natural key (wallet_id, signature, …), which each transaction seeks;
    // two lists (wallets, signatures) left PostgreSQL scanning every transfer of the wallets.
    .innerJoin('transactions as t', (join) =>
      join.onRef('t.wallet_id', '=', 'r.wallet_id').onRef('t.signature', '=', 'r.signature'),
    )
    .select([
      'r.wallet_id',
      'r.signature',
      'r.direction',
      'r.mint',
      'r.counterparty',
      addressNameOf('r.counterparty').as('counterparty_name'),
    ])
    .where('t.id', 'in', [...ids])
    .orderBy('r.id')
    .execute()
  for (const r of rows) {
    const key = transferKey(r.wallet_id, r.signature)
    const list = transfers.get(key) ?? []
    list.push({
      direction: r.direction === 'out' ? 'out' : 'in',
      mint: r.mint,
      counterparty: r.counterparty,
      counterpartyName: r.counterparty_name,
    })
    transfers.set(key, list)
  }
  return transfers
}

/** The key of a transaction's transfers in {@link readTransactionTransfers}'s answer. */
export function transferKey(walletId: number, signature: string): string {
  return `${walletId} ${signature}`
}
