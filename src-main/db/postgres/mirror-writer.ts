import { sql, type Kysely, type Transaction } from 'kysely'
import type { DescribedEntry } from '@shared/api/webhook-delivery'
import type { HistoryEntry, TransferEntry, WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import { keptAsideWrites } from '../ingest/kept-aside-writes'
import { mintUpsert } from '../ingest/mint-upsert'
import {
  balanceChangeRows,
  compressedKindOf,
  compressedSignatureRow,
  compressedSnapshotChildRows,
  compressedSnapshotRow,
  inboxRow,
  mintRowOf,
  snapshotItemRow,
  snapshotNftRow,
  snapshotRow,
  transactionRow,
  transferRow,
} from '../ingest/page-rows'
import type {
  CompressedSignatureItem,
  CompressedState,
  CompressedStreamName,
  MirrorWriter,
  StreamName,
  StreamPatch,
  StreamRow,
} from '../mirror-writer'
import { cursorMovedError, STREAM_NAMES } from '../mirror-writer'
import type { Database } from '../schema'
import { describeStorageError } from '../storage-errors'

/**
 * Rows per multi-row insert: PostgreSQL takes at most 65,535 parameters a statement, and
 * the widest row here has 11 columns.
 */
const ROWS_PER_INSERT = 2_000

/**
 * The PostgreSQL write path: each page is one transaction with its cursor, as on SQLite,
 * and its rows go in multi-row inserts (one round trip per table, not per row). Natural
 * keys with `on conflict do nothing` make a re-written page a no-op, and the stream row is
 * locked for the page's transaction, so two workers that ever wrote the same stream would
 * queue rather than interleave.
 */
export class PostgresMirrorWriter implements MirrorWriter {
  /** Each page is a transaction of its own on a pooled connection: they could commit out of order. */
  readonly pagesInFlight = 1
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async walletId(address: string): Promise<number | null> {
    const row = await this.#db
      .selectFrom('wallets')
      .select('id')
      .where('address', '=', address)
      .executeTakeFirst()
    return row?.id ?? null
  }

  async stream(walletId: number, stream: StreamName): Promise<StreamRow> {
    const [row] = await this.#streamRows(`read the ${stream} stream`, [walletId], [stream])
    return row as StreamRow
  }

  async streams(walletIds: readonly number[]): Promise<StreamRow[]> {
    return this.#streamRows("read the watchlist's streams", walletIds, STREAM_NAMES)
  }

  /** Stream rows, created on first use, in one transaction (each wallet's in `streams` order). */
  async #streamRows(
    what: string,
    walletIds: readonly number[],
    streams: readonly StreamName[],
  ): Promise<StreamRow[]> {
    if (walletIds.length === 0) return []
    return this.#write(what, async (tx) => {
      await tx
        .insertInto('sync_streams')
        .values(walletIds.flatMap((id) => streams.map((stream) => ({ wallet_id: id, stream }))))
        .onConflict((oc) => oc.doNothing())
        .execute()
      const rows = await tx
        .selectFrom('sync_streams')
        .selectAll()
        .where('wallet_id', 'in', walletIds)
        .where('stream', 'in', streams)
        .execute()
      const byKey = new Map(rows.map((r) => [`${r.wallet_id}:${r.stream}`, r]))
      return walletIds.flatMap((walletId) =>
        streams.map((stream): StreamRow => {
          const r = byKey.get(`${walletId}:${stream}`)
          if (r === undefined)
            throw new Error(`the ${stream} stream of wallet ${walletId} is missing`)
          return {
            walletId,
            stream,
            state: r.state,
            newestKey: r.newest_key,
            backfillCursor: r.backfill_cursor,
            gapCursor: r.gap_cursor,
            isBackfillComplete: r.is_backfill_complete === 1,
            depthLimitCount: r.depth_limit_count,
            depthLimitSinceSec: r.depth_limit_since_sec,
            itemsStored: r.items_stored,
            pagesFetched: r.pages_fetched,
            isPaused: r.is_paused === 1,
            lastError: r.last_error,
            topReadAtSec: r.top_read_at_sec,
          }
        }),
      )
    })
  }

  async patchStream(walletId: number, stream: StreamName, patch: StreamPatch): Promise<void> {
    await this.#write(`update the ${stream} stream`, (tx) =>
      patchStreamRow(tx, walletId, stream, patch, 0),
    )
  }

  async applyHistoryPage(
    walletId: number,
    entries: readonly DescribedEntry[],
    patch: StreamPatch,
  ): Promise<number> {
    return this.#write('store a page of history', async (tx) => {
      const bySignature = new Map(entries.map((e) => [e.signature, e]))
      const wallet = await tx
        .selectFrom('wallets')
        .select('address')
        .where('id', '=', walletId)
        .executeTakeFirst()
      // A wallet removed meanwhile: its rows fail on their foreign key, as they always did.
      const address = wallet?.address ?? ''
      const inserted: { id: number; signature: string }[] = []
      for (const rows of chunks(entries.map((e) => transactionRow(walletId, address, e)))) {
        inserted.push(
          ...(await tx
            .insertInto('transactions')
            .values(rows)
            .onConflict((oc) => oc.columns(['wallet_id', 'signature']).doNothing())
            .returning(['id', 'signature'])
            .execute()),
        )
      }
      const changes = inserted.flatMap(({ id, signature }) =>
        balanceChangeRows(id, walletId, bySignature.get(signature) as HistoryEntry),
      )
      for (const rows of chunks(changes)) {
        await tx.insertInto('balance_changes').values(rows).execute()
      }
      const atMs = patch.forAlertsAtMs
      if (atMs !== undefined && inserted.length > 0) {
        const news = inserted.map(({ id }) => inboxRow(walletId, { transactionId: id }, atMs))
        for (const rows of chunks(news)) await tx.insertInto('alert_inbox').values(rows).execute()
      }
      await patchStreamRow(tx, walletId, 'history', patch, inserted.length)
      return inserted.length
    })
  }

  async applyTransfersPage(
    walletId: number,
    entries: readonly TransferEntry[],
    patch: StreamPatch,
  ): Promise<number> {
    return this.#write('store a page of transfers', async (tx) => {
      let inserted = 0
      for (const rows of chunks(entries.map((t) => transferRow(walletId, t)))) {
        const result = await tx
          .insertInto('transfers')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        inserted += Number(result.numInsertedOrUpdatedRows ?? 0n)
      }
      await patchStreamRow(tx, walletId, 'transfers', patch, inserted)
      return inserted
    })
  }

  async firstKnownTransfer(walletId: number, entries: readonly TransferEntry[]): Promise<number> {
    if (entries.length === 0) return -1
    const known = await this.#db
      .selectFrom('transfers')
      .select(['signature', 'mint', 'direction', 'counterparty', 'amount_raw'])
      .where('wallet_id', '=', walletId)
      .where('signature', 'in', [...new Set(entries.map((t) => t.signature))])
      .execute()
    const keys = new Set(
      known.map((k) => transferKey(k.signature, k.mint, k.direction, k.counterparty, k.amount_raw)),
    )
    return entries.findIndex((t) =>
      keys.has(transferKey(t.signature, t.mint, t.direction, t.counterparty, t.amountRaw)),
    )
  }

  async applyBalancesSnapshot(
    walletId: number,
    takenAtSec: number,
    balances: readonly WalletBalance[],
    nfts: readonly WalletNft[],
    patch: StreamPatch,
  ): Promise<number> {
    return this.#write('store a balances snapshot', async (tx) => {
      const { id } = await tx
        .insertInto('balance_snapshots')
        .values(snapshotRow(walletId, takenAtSec, balances, nfts))
        .returning('id')
        .executeTakeFirstOrThrow()
      for (const rows of chunks(balances.map((b) => snapshotItemRow(id, b)))) {
        await tx
          .insertInto('balance_snapshot_items')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
      // One row per mint, as one statement cannot update the same row twice.
      const mints = [...new Map(balances.map((b) => [b.mint, mintRowOf(b, takenAtSec)])).values()]
      for (const rows of chunks(mints)) await mintUpsert(tx, rows).execute()
      await insertNfts(tx, id, nfts)
      if (patch.forAlertsAtMs !== undefined) {
        await tx
          .insertInto('alert_inbox')
          .values(inboxRow(walletId, { snapshotId: id }, patch.forAlertsAtMs))
          .execute()
      }
      await patchStreamRow(tx, walletId, 'balances', patch, 0)
      return id
    })
  }

  async applyCompressedSignaturesPage(
    walletId: number,
    stream: CompressedStreamName,
    items: readonly CompressedSignatureItem[],
    patch: StreamPatch,
  ): Promise<number> {
    const kind = compressedKindOf(stream)
    return this.#write('store a page of compression signatures', async (tx) => {
      let inserted = 0
      for (const rows of chunks(items.map((i) => compressedSignatureRow(walletId, kind, i)))) {
        const result = await tx
          .insertInto('compressed_signatures')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        inserted += Number(result.numInsertedOrUpdatedRows ?? 0n)
      }
      await patchStreamRow(tx, walletId, stream, patch, inserted)
      return inserted
    })
  }

  async firstKnownCompressedSignature(
    walletId: number,
    stream: CompressedStreamName,
    items: readonly CompressedSignatureItem[],
  ): Promise<number> {
    if (items.length === 0) return -1
    const known = await this.#db
      .selectFrom('compressed_signatures')
      .select('signature')
      .where('wallet_id', '=', walletId)
      .where('kind', '=', compressedKindOf(stream))
      .where(
        'signature',
        'in',
        items.map((i) => i.signature),
      )
      .execute()
    const signatures = new Set(known.map((k) => k.signature))
    return items.findIndex((i) => signatures.has(i.signature))
  }

  async knownSignatures(walletId: number, signatures: readonly string[]): Promise<Set<string>> {
    if (signatures.length === 0) return new Set()
    const rows = await this.#db
      .selectFrom('transactions')
      .select('signature')
      .where('wallet_id', '=', walletId)
      .where('signature', 'in', [...signatures])
      .execute()
    return new Set(rows.map((r) => r.signature))
  }

  async applySnapshotNfts(
    walletId: number,
    snapshotId: number,
    nfts: readonly WalletNft[],
    patch: StreamPatch,
  ): Promise<void> {
    await this.#write('store the NFTs of a balances snapshot', async (tx) => {
      await tx.deleteFrom('balance_snapshot_nfts').where('snapshot_id', '=', snapshotId).execute()
      await insertNfts(tx, snapshotId, nfts)
      await tx
        .updateTable('balance_snapshots')
        .set({ nft_count: nfts.length })
        .where('id', '=', snapshotId)
        .execute()
      await patchStreamRow(tx, walletId, 'balances', patch, 0)
    })
  }

  async hasCompressedActivity(walletId: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('compressed_signatures')
      .select('wallet_id')
      .where('wallet_id', '=', walletId)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  async applyCompressedSnapshot(
    walletId: number,
    takenAtSec: number,
    state: CompressedState,
  ): Promise<number> {
    return this.#write('store the compressed state', async (tx) => {
      const { id } = await tx
        .insertInto('compressed_snapshots')
        .values(compressedSnapshotRow(walletId, takenAtSec, state))
        .returning('id')
        .executeTakeFirstOrThrow()
      const { tokens, accounts } = compressedSnapshotChildRows(id, state)
      for (const rows of chunks(tokens)) {
        await tx
          .insertInto('compressed_snapshot_tokens')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
      for (const rows of chunks(accounts)) {
        await tx
          .insertInto('compressed_snapshot_accounts')
          .values(rows)
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
      return id
    })
  }

  async #write<T>(doing: string, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction().execute(work)
    } catch (error) {
      throw describeStorageError(error, doing)
    }
  }
}

async function insertNfts(
  tx: Transaction<Database>,
  snapshotId: number,
  nfts: readonly WalletNft[],
): Promise<void> {
  for (const rows of chunks(nfts.map((n) => snapshotNftRow(snapshotId, n)))) {
    await tx
      .insertInto('balance_snapshot_nfts')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

/**
 * Applies a patch to a stream's row inside a page's transaction: only the columns the
 * patch names change; pages are added to, and items too unless the patch sets them.
 */
async function patchStreamRow(
  tx: Transaction<Database>,
  walletId: number,
  stream: StreamName,
  patch: StreamPatch,
  addItems: number,
): Promise<void> {
  const flag = (value: boolean | undefined): number | undefined =>
    value === undefined ? undefined : value ? 1 : 0
  const set = {
    state: patch.state,
    newest_key: patch.newestKey,
    backfill_cursor: patch.backfillCursor,
    gap_cursor: patch.gapCursor,
    is_backfill_complete: flag(patch.isBackfillComplete),
    last_error: patch.lastError,
    last_error_at_sec:
      patch.lastError === undefined
        ? undefined
        : patch.lastError
          ? Math.floor(Date.now() / 1000)
          : null,
    is_paused: flag(patch.isPaused),
    top_read_at_sec: patch.topReadAtSec,
    last_success_sec: patch.succeededAtSec,
  }
  const from = patch.continuesBackfillFrom
  const [result] = await tx
    .updateTable('sync_streams')
    .set(Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined)))
    .set({
      pages_fetched: sql`pages_fetched + ${patch.addPages ?? 0}`,
      items_stored:
        patch.items === undefined ? sql`items_stored + ${addItems}` : sql`${patch.items}`,
    })
    .where('wallet_id', '=', walletId)
    .where('stream', '=', stream)
    .$if(from !== undefined, (q) =>
      q.where(sql<boolean>`backfill_cursor is not distinct from ${from ?? null}`),
    )
    .execute()
  if (from !== undefined && Number(result?.numUpdatedRows ?? 0) === 0) throw cursorMovedError()
  for (const write of keptAsideWrites(tx, walletId, stream, patch)) await write.execute()
}

function transferKey(...parts: string[]): string {
  return parts.join('\u0000')
}

function* chunks<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) yield rows.slice(i, i + ROWS_PER_INSERT)
}
