import { sql, type Kysely } from 'kysely'
import { NATIVE_SOL_MINT as SOL_MINT } from '@shared/api/base58'
import {
  legsByTransaction,
  readLegRows,
  readTransactionTransfers,
  transferKey,
  type TransactionLeg,
  type TransactionTransfer,
} from '../queries/transaction-legs'
import type { Database } from '../schema'

/** One token a transaction moved for the wallet, net of the fee the wallet paid. */
export interface TxLeg extends TransactionLeg {
  /** Signed: positive came in (the exact text's nearest number). */
  amount: number
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
  legs: TxLeg[]
  /** Who the wallet dealt with, from its transfers of this transaction. */
  transfers: TransactionTransfer[]
}

/** One holding of a balances snapshot. */
export interface Holding {
  mint: string
  symbol: string | null
  balance: number
  usdValue: number
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

/** A wallet's receipt of a token: the cluster trigger's unit. */
export interface Receipt {
  walletId: number
  transactionId: number
  signature: string
  atSec: number
  /** Exact decimal text of the amount received. */
  amountText: string
}

/** A row of the alert inbox: a new transaction or snapshot the rules have not seen. */
export interface InboxItem {
  id: number
  walletId: number
  transactionId: number | null
  snapshotId: number | null
  writtenAtMs: number
}

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

  /**
   * Facts of these transactions (those whose wallet is still watched), in slot order; legs
   * and transfers read as the feed reads them (db/queries/transaction-legs.ts).
   */
  async transactions(transactionIds: readonly number[]): Promise<TxFacts[]> {
    if (transactionIds.length === 0) return []
    const ids = [...transactionIds]
    const [txs, legRows, transfers] = await Promise.all([
      this.#db
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
          't.fee_text',
          't.fee_payer',
          't.is_failed',
          't.kind',
        ])
        .where('t.id', 'in', ids)
        .orderBy('t.slot')
        .orderBy('t.id')
        .execute(),
      readLegRows(this.#db, ids),
      readTransactionTransfers(this.#db, ids),
    ])
    const legs = legsByTransaction(
      legRows,
      txs.map((t) => ({ id: t.id, feeText: t.fee_text, paysFee: t.fee_payer === t.address })),
    )
    return txs.map((t): TxFacts => ({
      transactionId: t.id,
      walletId: t.wallet_id,
      walletAddress: t.address,
      walletLabel: t.label,
      signature: t.signature,
      slot: t.slot,
      blockTimeSec: t.block_time_sec,
      isFailed: t.is_failed === 1,
      kind: t.kind,
      legs: (legs.get(t.id) ?? []).map((l) => ({ ...l, amount: Number(l.amountText) })),
      transfers: transfers.get(transferKey(t.wallet_id, t.signature)) ?? [],
    }))
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

  /** The watched wallets: id, address and label. */
  async wallets(): Promise<{ id: number; address: string; label: string | null }[]> {
    return this.#db.selectFrom('wallets').select(['id', 'address', 'label']).execute()
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

  /** Whether the mirror knows a token by this mint address or symbol (any case). */
  async isTokenKnown(token: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('mints')
      .select('mint')
      .where((eb) =>
        eb.or([eb('mint', '=', token), eb(sql`lower(symbol)`, '=', token.toLowerCase())]),
      )
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** Whether the mirror holds a transaction of this type (one the service named, kept as text). */
  async hasTransactionsOfKind(kind: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('transactions')
      .select('id')
      // On transactions_kind_feed (migration 0018).
      .where(sql`coalesce(kind, 'UNKNOWN')`, '=', kind)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
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

  /**
   * The receipts of a mint by the wallets among `walletIds` within [sinceSec, untilSec], in
   * time order (then slot, then signature: an order the chain gives, whichever wallet was
   * written first): who received how much, in which transaction.
   */
  async receipts(
    mint: string,
    walletIds: readonly number[],
    sinceSec: number,
    untilSec: number,
  ): Promise<Receipt[]> {
    if (walletIds.length === 0) return []
    const rows = await this.#db
      .selectFrom('balance_changes as b')
      .innerJoin('transactions as t', 't.id', 'b.transaction_id')
      .select([
        'b.wallet_id',
        'b.transaction_id',
        't.signature',
        'b.block_time_sec',
        'b.slot',
        'b.amount_text',
      ])
      .where('b.wallet_id', 'in', [...walletIds])
      .where('b.mint', '=', mint)
      .where('b.amount', '>', 0)
      .where('b.block_time_sec', '>=', sinceSec)
      .where('b.block_time_sec', '<=', untilSec)
      .orderBy('b.block_time_sec')
      .orderBy('b.slot')
      .orderBy('t.signature')
      .execute()
    return rows.map((r) => ({
      walletId: r.wallet_id,
      transactionId: r.transaction_id,
      signature: r.signature,
      atSec: r.block_time_sec ?? sinceSec,
      amountText: r.amount_text,
    }))
  }

  /**
   * Addresses that look like `address` (the same first and last four characters) but are
   * not it, which a watched wallet dealt with before this transaction (other transactions,
   * up to its time): what an address-poisoning sender imitates.
   */
  async lookalikesDealtWith(
    address: string,
    tx: { signature: string; blockTimeSec: number | null },
  ): Promise<string[]> {
    const head = address.slice(0, 4)
    const tail = address.slice(-4)
    // A range on the counterparty index (base58 is ASCII): every address starting with
    // `head` sorts between it and `head` with its last character moved one up.
    const next = `${head.slice(0, -1)}${String.fromCharCode(head.charCodeAt(3) + 1)}`
    let query = this.#db
      .selectFrom('transfers')
      .select('counterparty')
      .distinct()
      .where('counterparty', '>=', head)
      .where('counterparty', '<', next)
      .where('counterparty', '!=', address)
      .where('signature', '!=', tx.signature)
    if (tx.blockTimeSec !== null) query = query.where('block_time_sec', '<=', tx.blockTimeSec)
    const rows = await query.limit(100).execute()
    return rows.map((r) => r.counterparty).filter((c) => c.startsWith(head) && c.endsWith(tail))
  }

  /**
   * A wallet's value in each of its balances snapshots taken within [sinceSec, untilSec],
   * oldest first: all holdings' US dollars, or those of `mints` only.
   */
  async snapshotValues(
    walletId: number,
    mints: ReadonlySet<string> | null,
    sinceSec: number,
    untilSec: number,
  ): Promise<{ snapshotId: number; takenAtSec: number; usd: number }[]> {
    const snapshots = await this.#db
      .selectFrom('balance_snapshots')
      .select(['id', 'taken_at_sec', 'total_usd'])
      .where('wallet_id', '=', walletId)
      .where('taken_at_sec', '>=', sinceSec)
      .where('taken_at_sec', '<=', untilSec)
      .orderBy('taken_at_sec')
      .orderBy('id')
      .execute()
    if (mints === null || snapshots.length === 0)
      return snapshots.map((s) => ({
        snapshotId: s.id,
        takenAtSec: s.taken_at_sec,
        usd: s.total_usd,
      }))
    const items = await this.#db
      .selectFrom('balance_snapshot_items')
      .select(['snapshot_id', 'usd_value'])
      .where(
        'snapshot_id',
        'in',
        snapshots.map((s) => s.id),
      )
      .where('mint', 'in', [...mints])
      .execute()
    return snapshots.map((s) => ({
      snapshotId: s.id,
      takenAtSec: s.taken_at_sec,
      usd: items.filter((i) => i.snapshot_id === s.id).reduce((sum, i) => sum + i.usd_value, 0),
    }))
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
