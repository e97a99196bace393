import { sql, type Kysely } from 'kysely'
import { NATIVE_SOL_MINT as SOL_MINT } from '@shared/api/base58'
import { decimalText } from '@shared/domain/exact-amount'
import type { Database } from '../schema'

/** One token a transaction moved for the wallet, net of the fee the wallet paid. */
export interface TxLeg {
  mint: string
  /** Signed: positive came in. */
  amount: number
  amountText: string
  decimals: number
  symbol: string | null
  priceUsd: number | null
}

/** What the rules need to know of one transaction of a watched wallet. */
export interface TxFacts {
  transactionId: number
  walletId: number
  walletAddress: string
  walletLabel: string | null
  signature: string
  slot: number
  blockTimeSec: number | null
  isFailed: boolean
  kind: string | null
  /** The program or marketplace the service named (JUPITER, MAGIC_EDEN, …), where it did. */
  source: string | null
  legs: TxLeg[]
  /** Who the wallet dealt with, from its transfers of this transaction. */
  counterparties: { address: string; direction: 'in' | 'out'; mint: string; name: string | null }[]
}

/** One holding of a balances snapshot. */
export interface Holding {
  mint: string
  symbol: string | null
  balance: number
  /** Null for a token the service does not price. */
  usdValue: number | null
}

/** A new balances snapshot of a wallet, with the one before it. */
export interface SnapshotFacts {
  snapshotId: number
  walletId: number
  walletAddress: string
  walletLabel: string | null
  takenAtSec: number
  totalUsd: number
  holdings: Holding[]
  previous: { snapshotId: number; takenAtSec: number; totalUsd: number; holdings: Holding[] } | null
}

/** A row of the alert inbox: a new transaction or snapshot the rules have not seen. */
export interface InboxItem {
  id: number
  walletId: number
  transactionId: number | null
  snapshotId: number | null
  writtenAtMs: number
}

/** Float dust below this is no movement (lamport sums in doubles). */
const DUST = 1e-12

/**
 * The reads the alert rules make: what a transaction or snapshot did, and what the
 * wallet did before it. Reads only; the evaluator's writes go through AlertStore.
 */
export class AlertFactsReader {
  readonly #db: Kysely<Database>
  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  /** The oldest inbox items, `limit` of them. */
  async pendingInbox(limit: number): Promise<InboxItem[]> {
    const rows = await this.#db
      .selectFrom('alert_inbox')
      .selectAll()
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map((r) => ({
      id: r.id,
      walletId: r.wallet_id,
      transactionId: r.transaction_id,
      snapshotId: r.snapshot_id,
      writtenAtMs: r.written_at_ms,
    }))
  }

  /** Facts of these transactions (those whose wallet is still watched), in slot order. */
  async transactions(transactionIds: readonly number[]): Promise<TxFacts[]> {
    if (transactionIds.length === 0) return []
    const txs = await this.#db
      .selectFrom('transactions as t')
      .innerJoin('wallets as w', 'w.id', 't.wallet_id')
      .select([
        't.id',
        't.wallet_id',
        'w.address',
        'w.label',
        't.signature',
        't.slot',
        't.block_time_sec',
        't.fee',
        't.fee_payer',
        't.is_failed',
        't.kind',
        't.source',
      ])
      .where('t.id', 'in', [...transactionIds])
      .orderBy('t.slot')
      .orderBy('t.id')
      .execute()
    if (txs.length === 0) return []
    const ids = txs.map((t) => t.id)
    const changes = await this.#db
      .selectFrom('balance_changes as b')
      .leftJoin('mints as m', 'm.mint', 'b.mint')
      .select([
        'b.transaction_id',
        'b.mint',
        'b.amount',
        'b.amount_text',
        'b.decimals',
        'm.symbol',
        'm.price_usd',
      ])
      .where('b.transaction_id', 'in', ids)
      .orderBy('b.transaction_id')
      .orderBy('b.ordinal')
      .execute()
    const transfers = await this.#db
      .selectFrom('transfers as f')
      .leftJoin('address_names as n', 'n.address', 'f.counterparty')
      .select(['f.wallet_id', 'f.signature', 'f.counterparty', 'f.direction', 'f.mint', 'n.name'])
      .where(
        'f.signature',
        'in',
        txs.map((t) => t.signature),
      )
      .execute()
    return txs.map((t): TxFacts => {
      const paidFee = t.fee_payer === t.address ? t.fee : 0
      const legs = changes
        .filter((c) => c.transaction_id === t.id)
        .map((c): TxLeg => {
          // The SOL the wallet paid as fee is not part of what the transaction moved.
          const isSol = c.mint === SOL_MINT
          const amount = isSol ? c.amount + paidFee : c.amount
          return {
            mint: c.mint,
            amount,
            amountText:
              isSol && paidFee !== 0 ? decimalText(Number(amount.toPrecision(12))) : c.amount_text,
            decimals: c.decimals,
            symbol: c.symbol ?? (isSol ? 'SOL' : null),
            priceUsd: c.price_usd,
          }
        })
        .filter((l) => Math.abs(l.amount) > DUST)
      return {
        transactionId: t.id,
        walletId: t.wallet_id,
        walletAddress: t.address,
        walletLabel: t.label,
        signature: t.signature,
        slot: t.slot,
        blockTimeSec: t.block_time_sec,
        isFailed: t.is_failed === 1,
        kind: t.kind,
        source: t.source,
        legs,
        counterparties: transfers
          .filter((f) => f.wallet_id === t.wallet_id && f.signature === t.signature)
          .map((f) => ({
            address: f.counterparty,
            direction: f.direction === 'in' ? 'in' : 'out',
            mint: f.mint,
            name: f.name ?? null,
          })),
      }
    })
  }

  /** A snapshot with the wallet's snapshot before it, or null when its wallet is gone. */
  async snapshot(snapshotId: number): Promise<SnapshotFacts | null> {
    const snap = await this.#db
      .selectFrom('balance_snapshots as s')
      .innerJoin('wallets as w', 'w.id', 's.wallet_id')
      .select(['s.id', 's.wallet_id', 's.taken_at_sec', 's.total_usd', 'w.address', 'w.label'])
      .where('s.id', '=', snapshotId)
      .executeTakeFirst()
    if (!snap) return null
    const before = await this.#db
      .selectFrom('balance_snapshots')
      .select(['id', 'taken_at_sec', 'total_usd'])
      .where('wallet_id', '=', snap.wallet_id)
      .where('id', '<', snap.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return {
      snapshotId: snap.id,
      walletId: snap.wallet_id,
      walletAddress: snap.address,
      walletLabel: snap.label,
      takenAtSec: snap.taken_at_sec,
      totalUsd: snap.total_usd,
      holdings: await this.#holdings(snap.id),
      previous: before
        ? {
            snapshotId: before.id,
            takenAtSec: before.taken_at_sec,
            totalUsd: before.total_usd,
            holdings: await this.#holdings(before.id),
          }
        : null,
    }
  }

  async #holdings(snapshotId: number): Promise<Holding[]> {
    const rows = await this.#db
      .selectFrom('balance_snapshot_items as i')
      .leftJoin('mints as m', 'm.mint', 'i.mint')
      .select(['i.mint', 'm.symbol', 'i.balance', 'i.usd_value'])
      .where('i.snapshot_id', '=', snapshotId)
      .execute()
    return rows.map((r) => ({
      mint: r.mint,
      symbol: r.symbol ?? (r.mint === SOL_MINT ? 'SOL' : null),
      balance: r.balance,
      usdValue: r.usd_value,
    }))
  }

  /** Each watched wallet's tags (lower-case), by wallet id. */
  async tagsByWallet(): Promise<Map<number, string[]>> {
    const rows = await this.#db.selectFrom('wallet_tags').select(['wallet_id', 'tag']).execute()
    const tags = new Map<number, string[]>()
    for (const r of rows) tags.set(r.wallet_id, [...(tags.get(r.wallet_id) ?? []), r.tag])
    return tags
  }

  /** The watched wallets: id and address. */
  async wallets(): Promise<{ id: number; address: string }[]> {
    return this.#db.selectFrom('wallets').select(['id', 'address']).execute()
  }

  /** The mints a rule's `token` names: the mint itself, or every mint of that symbol. */
  async mintsNamed(token: string): Promise<Set<string>> {
    const rows = await this.#db
      .selectFrom('mints')
      .select('mint')
      .where((eb) =>
        eb.or([eb('mint', '=', token), eb(sql`lower(symbol)`, '=', token.toLowerCase())]),
      )
      .execute()
    const mints = new Set(rows.map((r) => r.mint))
    mints.add(token)
    if (token.toUpperCase() === 'SOL') mints.add(SOL_MINT)
    return mints
  }

  /** Whether the wallet's stored history moved this mint before the transaction. */
  async heldBefore(walletId: number, mint: string, tx: { slot: number; transactionId: number }) {
    const row = await this.#db
      .selectFrom('balance_changes')
      .select('id')
      .where('wallet_id', '=', walletId)
      .where('mint', '=', mint)
      .where('transaction_id', '!=', tx.transactionId)
      .where('slot', '<=', tx.slot)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** When the wallet's last transaction before this slot happened; null when none is stored. */
  async previousActivitySec(walletId: number, slot: number): Promise<number | null> {
    const row = await this.#db
      .selectFrom('transactions')
      .select('block_time_sec')
      .where('wallet_id', '=', walletId)
      .where('slot', '<', slot)
      .orderBy('slot', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.block_time_sec ?? null
  }

  /**
   * Whether the wallet's transfers before this transaction (other transactions, up to its
   * time) name the address.
   */
  async hasDealtWith(
    walletId: number,
    counterparty: string,
    tx: { signature: string; blockTimeSec: number | null },
  ): Promise<boolean> {
    let query = this.#db
      .selectFrom('transfers')
      .select('id')
      .where('counterparty', '=', counterparty)
      .where('wallet_id', '=', walletId)
      .where('signature', '!=', tx.signature)
    if (tx.blockTimeSec !== null) query = query.where('block_time_sec', '<=', tx.blockTimeSec)
    const row = await query.limit(1).executeTakeFirst()
    return row !== undefined
  }

  /** The wallets among `walletIds` that received this mint within [sinceSec, untilSec]. */
  async walletsReceived(
    mint: string,
    walletIds: readonly number[],
    sinceSec: number,
    untilSec: number,
  ): Promise<number[]> {
    if (walletIds.length === 0) return []
    const rows = await this.#db
      .selectFrom('balance_changes')
      .select('wallet_id')
      .distinct()
      .where('wallet_id', 'in', [...walletIds])
      .where('mint', '=', mint)
      .where('amount', '>', 0)
      .where('block_time_sec', '>=', sinceSec)
      .where('block_time_sec', '<=', untilSec)
      .execute()
    return rows.map((r) => r.wallet_id)
  }

  /** Transactions of these wallets since a time, oldest first (for trying a rule on the past). */
  async transactionIdsSince(walletIds: readonly number[], sinceSec: number): Promise<number[]> {
    if (walletIds.length === 0) return []
    const rows = await this.#db
      .selectFrom('transactions')
      .select('id')
      .where('wallet_id', 'in', [...walletIds])
      .where('block_time_sec', '>=', sinceSec)
      .orderBy('slot')
      .orderBy('id')
      .execute()
    return rows.map((r) => r.id)
  }

  /** Balances snapshots of these wallets since a time, oldest first. */
  async snapshotIdsSince(walletIds: readonly number[], sinceSec: number): Promise<number[]> {
    if (walletIds.length === 0) return []
    const rows = await this.#db
      .selectFrom('balance_snapshots')
      .select('id')
      .where('wallet_id', 'in', [...walletIds])
      .where('taken_at_sec', '>=', sinceSec)
      .orderBy('id')
      .execute()
    return rows.map((r) => r.id)
  }
}
