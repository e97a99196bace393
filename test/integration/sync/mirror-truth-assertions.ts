import type { Kysely } from 'kysely'
import type { Database } from '../../../src-main/db/schema'
import { expect } from 'vitest'
import { decimalText } from '@shared/domain/exact-amount'
import { transactionDirections } from '../../../src-main/db/ingest/transaction-directions'
import { readMirror, transferKey } from '../../helpers/mirror-contents'
import { readWalletTruth, simulatorCredits } from '../../helpers/sim-truth'

/**
 * Then-step shared by the sync stories: the mirror holds the simulator's truth of one
 * wallet item for item — every transaction and balance change exactly once with its
 * fields, transfers and compression signatures as exact sets with no duplicate, the newest
 * balances snapshot equal to the holdings now — and the ledger holds every credit the
 * simulator charged the key.
 */
export async function expectMirrorEqualsTruth(
  db: Kysely<Database>,
  simUrl: string,
  address: string,
): Promise<void> {
  await expectWalletEqualsTruth(db, simUrl, address)
  expect((await readMirror(db, address)).ledgerCredits, 'ledger credits = simulator counter').toBe(
    await simulatorCredits(simUrl),
  )
}

/**
 * The wallet half of {@link expectMirrorEqualsTruth}: its rows equal the simulator's
 * truth, without the ledger (which a worker killed mid-call leaves one call short).
 */
export async function expectWalletEqualsTruth(
  db: Kysely<Database>,
  simUrl: string,
  address: string,
): Promise<void> {
  const truth = await readWalletTruth(simUrl, address)
  const mirror = await readMirror(db, address)

  expect(mirror.transactions.length, 'transactions stored').toBe(truth.history.length)
  const bySignature = new Map(mirror.transactions.map((t) => [t.signature, t]))
  expect(bySignature.size, 'distinct transaction signatures').toBe(truth.history.length)
  for (const entry of truth.history) {
    expect(bySignature.get(entry.signature), entry.signature).toEqual({
      signature: entry.signature,
      slot: entry.slot,
      block_time_sec: entry.timestamp,
      fee_text: decimalText(entry.fee),
      fee_payer: entry.feePayer,
      error: entry.error,
      ...transactionDirections(entry, address),
    })
  }

  const truthChanges = truth.history
    .flatMap((e) =>
      e.balanceChanges.map((c, ordinal) => ({
        signature: e.signature,
        ordinal,
        mint: c.mint,
        amount_text: decimalText(c.amount),
        decimals: c.decimals,
      })),
    )
    .sort((a, b) =>
      a.signature === b.signature ? a.ordinal - b.ordinal : a.signature < b.signature ? -1 : 1,
    )
  expect(mirror.changes).toEqual(truthChanges)

  expect(mirror.transfers.map(transferKey).sort()).toEqual(truth.transfers.map(transferKey).sort())
  const compressed = (kind: string) =>
    mirror.compressed
      .filter((c) => c.kind === kind)
      .map((c) => c.signature)
      .sort()
  expect(compressed('owner')).toEqual([...truth.compressedOwner].sort())
  expect(compressed('token-owner')).toEqual([...truth.compressedTokenOwner].sort())

  // Balances: every non-zero holding with its exact amount, nothing the wallet does not hold;
  // NFTs: every one the wallet owns, from all of DAS getAssetsByOwner's pages.
  expect(mirror.hasSnapshot, 'a balances snapshot was taken').toBe(true)
  const held = (list: { mint: string; text: string }[]) =>
    list
      .filter((b) => !/^-?0(\.0*)?$/.test(b.text))
      .map((b) => `${b.mint} ${b.text}`)
      .sort()
  expect(
    held(mirror.balances.map((b) => ({ mint: b.mint, text: b.balance_text }))),
    'balances snapshot = holdings now',
  ).toEqual(held(truth.balances))
  expect([...mirror.nftMints].sort(), 'NFTs in the snapshot').toEqual([...truth.nftMints].sort())
  const owned = new Set(truth.nftMints)
  expect(
    mirror.nftMints.filter((m) => !owned.has(m)),
    'NFTs the wallet does not own',
  ).toEqual([])
}

/** Calls and credits of one operation as the simulator counted them for the `demo` key. */
export async function simulatorCalls(simUrl: string, operation: string): Promise<number> {
  const response = await fetch(`${simUrl}/__sim/credits?key=demo`)
  const body = (await response.json()) as { byOperation: Record<string, { calls: number }> }
  return body.byOperation[operation]?.calls ?? 0
}

/** Billed calls of one operation for one wallet, as the engine's ledger recorded them. */
export async function ledgerCalls(
  db: Kysely<Database>,
  operation: string,
  address?: string,
): Promise<number> {
  let query = db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('operation', '=', operation)
    .where('credits', '>', 0)
  if (address !== undefined) query = query.where('wallet_address', '=', address)
  return Number((await query.executeTakeFirstOrThrow()).n)
}
