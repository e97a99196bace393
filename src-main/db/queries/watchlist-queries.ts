import type { Kysely } from 'kysely'
import { DuplicateError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { describeStorageError } from '../storage-errors'
import type { Database, WalletsTable } from '../schema'

function toWatchedWallet(row: Omit<WalletsTable, 'id'>): WatchedWallet {
  return {
    address: row.address,
    label: row.label,
    position: row.position,
    addedAtSec: row.added_at_sec,
  }
}

const COLUMNS = ['address', 'label', 'position', 'added_at_sec'] as const

/** Every watched wallet in sidebar order. */
export async function listWatchedWallets(db: Kysely<Database>): Promise<WatchedWallet[]> {
  const rows = await db
    .selectFrom('wallets')
    .select(COLUMNS)
    .orderBy('position')
    .orderBy('id')
    .execute()
  return rows.map(toWatchedWallet)
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
  return toWatchedWallet(row)
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
    return toWatchedWallet(row)
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

/** Removes a wallet from the watchlist. */
export async function removeWatchedWallet(db: Kysely<Database>, address: string): Promise<void> {
  const result = await db.deleteFrom('wallets').where('address', '=', address).executeTakeFirst()
  if (result.numDeletedRows === 0n) {
    throw new NotFoundError(`Wallet ${address} is not on the watchlist.`, { address })
  }
}

function blankToNull(label: string | undefined): string | null {
  const trimmed = label?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}
