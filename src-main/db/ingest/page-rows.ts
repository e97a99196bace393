import type { HistoryEntry, TransferEntry, WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import type { DescribedEntry, ServiceDescription } from '@shared/api/webhook-delivery'
import { decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import type {
  CompressedSignatureItem,
  CompressedState,
  CompressedStreamName,
} from '../mirror-writer'
import type { MintRow } from './mint-upsert'
import { transactionDirections } from './transaction-directions'
import { transactionKind } from './transaction-kind'

// What each fetched item becomes in the mirror's tables, column by column: the one mapping
// both engines' writers use, so a page stored on SQLite and on PostgreSQL holds the same rows.

/**
 * A history entry's `transactions` row, for the wallet with that id and address. Its type
 * is the service's where a delivery named one, else derived from the balance changes.
 */
export function transactionRow(walletId: number, walletAddress: string, entry: DescribedEntry) {
  return {
    wallet_id: walletId,
    signature: entry.signature,
    slot: entry.slot,
    block_time_sec: entry.timestamp,
    fee: entry.fee,
    fee_text: decimalText(entry.fee),
    fee_payer: entry.feePayer,
    error: entry.error,
    is_failed: entry.error === null ? 0 : 1,
    change_count: entry.balanceChanges.length,
    kind: entry.described?.type ?? transactionKind(entry),
    ...describedColumns(entry.described),
    ...transactionDirections(entry, walletAddress),
  }
}

/** The `transactions` columns that hold what the service said of a transaction. */
export function describedColumns(described: ServiceDescription | undefined) {
  return {
    source: described?.source ?? null,
    description: described?.description ?? null,
    nft_event_json: described?.nft ? JSON.stringify(described.nft) : null,
  }
}

/** A history entry's `balance_changes` rows, once its transaction has an id. */
export function balanceChangeRows(transactionId: number, walletId: number, entry: HistoryEntry) {
  return entry.balanceChanges.map((change, ordinal) => {
    const amountText = decimalText(change.amount)
    return {
      transaction_id: transactionId,
      wallet_id: walletId,
      ordinal,
      mint: change.mint,
      amount: change.amount,
      amount_text: amountText,
      amount_raw: rawFromDecimalText(amountText, change.decimals),
      decimals: change.decimals,
      block_time_sec: entry.timestamp,
      slot: entry.slot,
    }
  })
}

/** A transfer's `transfers` row. */
export function transferRow(walletId: number, t: TransferEntry) {
  return {
    wallet_id: walletId,
    signature: t.signature,
    block_time_sec: t.timestamp,
    direction: t.direction,
    counterparty: t.counterparty,
    mint: t.mint,
    amount: t.amount,
    amount_text: decimalText(t.amount),
    amount_raw: t.amountRaw,
    decimals: t.decimals,
    symbol: t.symbol,
  }
}

/** A balances snapshot's own row. */
export function snapshotRow(
  walletId: number,
  takenAtSec: number,
  balances: readonly WalletBalance[],
  nfts: readonly WalletNft[],
) {
  return {
    wallet_id: walletId,
    taken_at_sec: takenAtSec,
    // The priced holdings' total: an unpriced one adds nothing (it is not worth $0).
    total_usd: balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0),
    token_count: balances.length,
    nft_count: nfts.length,
  }
}

/** A token balance's `balance_snapshot_items` row. */
export function snapshotItemRow(snapshotId: number, b: WalletBalance) {
  return {
    snapshot_id: snapshotId,
    mint: b.mint,
    balance: b.balance,
    balance_text: decimalText(b.balance),
    decimals: b.decimals,
    price_usd: b.pricePerToken,
    usd_value: b.usdValue,
    token_program: b.tokenProgram,
  }
}

/** An NFT's `balance_snapshot_nfts` row. */
export function snapshotNftRow(snapshotId: number, n: WalletNft) {
  return {
    snapshot_id: snapshotId,
    mint: n.mint,
    name: n.name,
    image_uri: n.imageUri,
    collection_name: n.collectionName,
    collection_address: n.collectionAddress,
    is_compressed: n.compressed ? 1 : 0,
  }
}

/** The `compressed_signatures.kind` of a compression-signature stream. */
export function compressedKindOf(stream: CompressedStreamName): 'owner' | 'token-owner' {
  return stream === 'compressed-owner' ? 'owner' : 'token-owner'
}

/** A compression signature's row. */
export function compressedSignatureRow(
  walletId: number,
  kind: 'owner' | 'token-owner',
  item: CompressedSignatureItem,
) {
  return {
    wallet_id: walletId,
    kind,
    signature: item.signature,
    slot: item.slot,
    block_time_sec: item.blockTime,
    error: item.error ?? null,
  }
}

/** A compressed state's own row. */
export function compressedSnapshotRow(
  walletId: number,
  takenAtSec: number,
  state: CompressedState,
) {
  return {
    wallet_id: walletId,
    taken_at_sec: takenAtSec,
    lamports_raw: state.lamportsRaw,
    account_count: state.accounts.length,
    token_count: state.tokens.length,
  }
}

/** A compressed state's token and account rows, once its snapshot has an id. */
export function compressedSnapshotChildRows(snapshotId: number, state: CompressedState) {
  return {
    tokens: state.tokens.map((t) => ({
      snapshot_id: snapshotId,
      mint: t.mint,
      amount_raw: t.amountRaw,
    })),
    accounts: state.accounts.map((a) => ({
      snapshot_id: snapshotId,
      hash: a.hash,
      address: a.address,
      lamports_raw: a.lamportsRaw,
      tree: a.tree,
      leaf_index: a.leafIndex,
      slot_created: a.slotCreated,
    })),
  }
}

/** A balance's mint facts as the mint cache keeps them. */
export function mintRowOf(b: WalletBalance, takenAtSec: number): MintRow {
  return {
    mint: b.mint,
    symbol: b.symbol,
    name: b.name,
    decimals: b.decimals,
    logoUri: b.logoUri,
    tokenProgram: b.tokenProgram,
    priceUsd: b.pricePerToken,
    updatedAtSec: takenAtSec,
  }
}

/** An `alert_inbox` row: a new transaction or snapshot the rules have yet to see. */
export function inboxRow(
  walletId: number,
  cause: { transactionId: number } | { snapshotId: number },
  writtenAtMs: number,
) {
  return {
    wallet_id: walletId,
    transaction_id: 'transactionId' in cause ? cause.transactionId : null,
    snapshot_id: 'snapshotId' in cause ? cause.snapshotId : null,
    written_at_ms: writtenAtMs,
  }
}
