import type { Kysely } from 'kysely'
import { DuplicateError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { describeStorageError } from '../storage-errors'
import type { Database, WalletsTable } from '../schema'

function toWatchedWallet(row: Omit<WalletsTable, 'id'>, tags: string[]): WatchedWallet {
  return {
    address: row.address,
    label: row.label,
    position: row.position,
    addedAtSec: row.added_at_sec,
    tags,
  }
}

const COLUMNS = ['id', 'address', 'label', 'position', 'added_at_sec'] as const

/** Each wallet's tags, sorted, by wallet id (of the given wallets, or of all). */
async function tagsByWallet(
  db: Kysely<Database>,
  walletId?: number,
): Promise<Map<number, string[]>> {
  let query = db.selectFrom('wallet_tags').select(['wallet_id', 'tag']).orderBy('tag')
  if (walletId !== undefined) query = query.where('wallet_id', '=', walletId)
  const byWallet = new Map<number, string[]>()
  for (const row of await query.execute()) {
    const tags = byWallet.get(row.wallet_id) ?? []
    tags.push(row.tag)
    byWallet.set(row.wallet_id, tags)
  }
  return byWallet
}

/** Every watched wallet in sidebar order, with its tags. */
export async function listWatchedWallets(db: Kysely<Database>): Promise<WatchedWallet[]> {
  const rows = await db
    .selectFrom('wallets')
    .select(COLUMNS)
    .orderBy('position')
    .orderBy('id')
    .execute()
  const tags = await tagsByWallet(db)
  return rows.map((row) => toWatchedWallet(row, tags.get(row.id) ?? []))
}

/** One watched wallet, or NotFoundError naming the address. */
export async function getWatchedWallet(
  db: Kysely<Database>,
  address: string,
): Promise<WatchedWallet> {
  const row = await db
    .selectFrom('wallets')
    .select(COLUMNS)
    .where('address', '=', address)
    .executeTakeFirst()
  if (!row) throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
  const tags = await tagsByWallet(db, row.id)
  return toWatchedWallet(row, tags.get(row.id) ?? [])
}

/**
 * Adds a wallet at the end of the watchlist. A blank label is stored as none.
 *
 * @example
 * await addWatchedWallet(db, { address: 'So111…112', label: 'Treasury' }, nowSec)
 */
export async function addWatchedWallet(
  db: Kysely<Database>,
  input: { address: string; label?: string | undefined },
  nowSec: number,
): Promise<WatchedWallet> {
  return db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('wallets')
      .select(['address', 'label'])
      .where('address', '=', input.address)
      .executeTakeFirst()
    if (existing) {
      const as = existing.label ? ` as “${existing.label}”` : ''
      throw new DuplicateError(`Wallet ${input.address} is already on the watchlist${as}.`, {
        address: input.address,
      })
    }
    const { next } = await tx
      .selectFrom('wallets')
      .select((eb) => eb.fn.coalesce(eb(eb.fn.max('position'), '+', 1), eb.lit(0)).as('next'))
      .executeTakeFirstOrThrow()
    const row = {
      address: input.address,
      label: blankToNull(input.label),
      position: Number(next),
      added_at_sec: nowSec,
    }
    try {
      await tx.insertInto('wallets').values(row).execute()
    } catch (error) {
      throw describeStorageError(error, `add wallet ${input.address}`)
    }
    return toWatchedWallet(row, [])
  })
}

/** Sets or clears (empty string) a wallet's label. */
export async function renameWatchedWallet(
  db: Kysely<Database>,
  input: { address: string; label: string },
): Promise<WatchedWallet> {
  const result = await db
    .updateTable('wallets')
    .set({ label: blankToNull(input.label) })
    .where('address', '=', input.address)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) {
    throw new NotFoundError(`Wallet ${input.address} is not on the watchlist.`, {
      address: input.address,
    })
  }
  return getWatchedWallet(db, input.address)
}

/** Removes a wallet from the watchlist, and its tags with it (they have no foreign key). */
export async function removeWatchedWallet(db: Kysely<Database>, address: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('wallet_tags')
      .where(
        'wallet_id',
        'in',
        tx.selectFrom('wallets').select('id').where('address', '=', address),
      )
      .execute()
    const result = await tx.deleteFrom('wallets').where('address', '=', address).executeTakeFirst()
    if (result.numDeletedRows === 0n) {
      throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
    }
  })
}

function blankToNull(label: string | undefined): string | null {
  const trimmed = label?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
