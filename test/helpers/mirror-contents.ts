import { sql, type Kysely } from 'kysely'
import type { Database } from '../../src-main/db/schema'

/**
 * What the mirror holds for a wallet, in forms that compare directly with the truth; read
 * through Kysely, so the same check runs on a SQLite and a PostgreSQL mirror.
 */
export async function readMirror(db: Kysely<Database>, address: string) {
  const { id: walletId } = await db
    .selectFrom('wallets')
    .select('id')
    .where('address', '=', address)
    .executeTakeFirstOrThrow()
  const transactions = await db
    .selectFrom('transactions')
    .select([
      'signature',
      'slot',
      'block_time_sec',
      'fee_text',
      'fee_payer',
      'error',
      'has_change_in',
      'has_change_out',
      'has_leg_in',
      'has_leg_out',
    ])
    .where('wallet_id', '=', walletId)
    .orderBy('slot')
    .orderBy('signature')
    .execute()
  const changes = await db
    .selectFrom('balance_changes as b')
    .innerJoin('transactions as t', 't.id', 'b.transaction_id')
    .select(['t.signature', 'b.ordinal', 'b.mint', 'b.amount_text', 'b.decimals'])
    .where('b.wallet_id', '=', walletId)
    .orderBy('t.signature')
    .orderBy('b.ordinal')
    .execute()
  const transfers = await db
    .selectFrom('transfers')
    .select(['signature', 'mint', 'direction', 'counterparty', 'amount_raw'])
    .where('wallet_id', '=', walletId)
    .execute()
  const compressed = await db
    .selectFrom('compressed_signatures')
    .select(['kind', 'signature'])
    .where('wallet_id', '=', walletId)
    .execute()
  // The newest balances snapshot: what the wallet held when it was taken.
  const snapshot = await db
    .selectFrom('balance_snapshots')
    .select('id')
    .where('wallet_id', '=', walletId)
    .orderBy('taken_at_sec', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const balances = await db
    .selectFrom('balance_snapshot_items')
    .select(['mint', 'balance_text'])
    .where('snapshot_id', '=', snapshot?.id ?? -1)
    .execute()
  const nftMints = (
    await db
      .selectFrom('balance_snapshot_nfts')
      .select('mint')
      .where('snapshot_id', '=', snapshot?.id ?? -1)
      .execute()
  ).map((r) => r.mint)
  const { n: ledgerCredits } = await db
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(sum(credits), 0)`.as('n'))
    .executeTakeFirstOrThrow()
  return {
    walletId,
    transactions,
    changes,
    transfers,
    compressed,
    hasSnapshot: snapshot !== undefined,
    balances,
    nftMints,
    ledgerCredits: Number(ledgerCredits),
  }
}

/** A transfer as a comparable key. */
export function transferKey(t: {
  signature: string
  mint: string
  direction: string
  counterparty: string
  amountRaw?: string
  amount_raw?: string
}): string {
  return [t.signature, t.mint, t.direction, t.counterparty, t.amountRaw ?? t.amount_raw].join('|')
}
