import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '@shared/api/operations'
import type { ConfirmedTransaction } from '@shared/api/rpc-transaction'
import type { HistoryEntry, TransferEntry, WalletBalance, WalletNft } from '@shared/api/wallet-rest'
import {
  EnhancedTransaction,
  WebhookDelivery,
  deliveredTransaction,
} from '@shared/api/webhook-delivery'
import { decimalText, rawFromDecimalText } from '@shared/domain/exact-amount'
import {
  balanceChangeRows,
  snapshotItemRow,
  snapshotNftRow,
  snapshotRow,
  transactionRow,
  transferRow,
} from '../../../src-main/db/ingest/page-rows'
import {
  deliveredView,
  walletView,
  type TransactionView,
} from '../../../src-main/sync/transaction-derivation'

// The corpus of published answers (test/fixtures/service, sources in its index.json):
// the service makers' SDK tests and documentation, and mainnet answers captured in public
// repositories. Each is read by the app's schema for its operation, with nothing kept
// aside, and goes through the derivations that turn it into mirror rows.

const dir = resolve(import.meta.dirname, '../../fixtures/service')

interface Fixture {
  file: string
  operation: OperationName | 'webhook.enhanced' | 'webhook.raw'
  kind: 'sdk-test-mock' | 'docs-example' | 'docs-schema-least' | 'captured-mainnet'
  source: { url?: string; repository?: string; path?: string; commit?: string; line?: number }
  what: string
  envelope?: 'json-rpc'
  wallet?: string
  derivation?: { declines?: string; rentLamports?: number; why: string }
}

const index = JSON.parse(readFileSync(resolve(dir, 'index.json'), 'utf8')) as {
  fixtures: Fixture[]
}
const fixtures = index.fixtures

/** The fixture's answer as the service sent it (a JSON-RPC reply's result). */
function answerOf(f: Fixture): unknown {
  const raw = JSON.parse(readFileSync(resolve(dir, f.file), 'utf8')) as unknown
  return f.envelope === 'json-rpc' ? (raw as { result: unknown }).result : raw
}

function of(operation: Fixture['operation']): Fixture[] {
  return fixtures.filter((f) => f.operation === operation)
}

/** Every number of a row is a number (no NaN, no Infinity). */
function expectFinite(row: Record<string, unknown>): void {
  for (const [column, value] of Object.entries(row))
    if (typeof value === 'number') expect(Number.isFinite(value), column).toBe(true)
}

/** A raw amount as the mirror keeps it: integer text. */
function expectRaw(raw: string | null): void {
  expect(raw).toMatch(/^-?\d+$/)
}

/** A decimal amount as raw integer units. */
function rawOf(amount: number, decimals: number): bigint {
  return BigInt(rawFromDecimalText(decimalText(amount), decimals) as string)
}

/** A history entry's rows, checked as the writer would store them. */
function expectEntryRows(entry: HistoryEntry, wallet: string): ReturnType<typeof transactionRow> {
  const row = transactionRow(1, wallet, entry)
  expectFinite(row)
  for (const change of balanceChangeRows(1, 1, entry)) {
    expectFinite(change)
    expect(change.mint).not.toBe('SOL')
    expect(change.mint.length).toBeGreaterThanOrEqual(32)
    expectRaw(change.amount_raw)
  }
  return row
}

/** The transfers account for every balance change, the fee the wallet paid and its rent aside. */
function expectTransfersAddUp(
  wallet: string,
  entry: HistoryEntry,
  transfers: readonly TransferEntry[],
  rentLamports: number,
): void {
  const moved = new Map<string, bigint>()
  for (const t of transfers) {
    expectFinite(transferRow(1, t))
    expectRaw(t.amountRaw)
    expect(rawOf(t.amount, t.decimals)).toBe(BigInt(t.amountRaw))
    const signed = t.direction === 'in' ? BigInt(t.amountRaw) : -BigInt(t.amountRaw)
    moved.set(t.mint, (moved.get(t.mint) ?? 0n) + signed)
  }
  const kept = (entry.feePayer === wallet ? rawOf(entry.fee, 9) : 0n) + BigInt(rentLamports)
  const mints = new Set([...moved.keys(), ...entry.balanceChanges.map((c) => c.mint)])
  for (const mint of mints) {
    const change = entry.balanceChanges.find((c) => c.mint === mint)
    const raw =
      (change ? rawOf(change.amount, change.decimals) : 0n) + (mint === NATIVE_SOL_MINT ? kept : 0n)
    expect(moved.get(mint) ?? 0n, mint).toBe(raw)
  }
}

/** The view a derivation gives, held to what the index says of the fixture. */
function expectView(f: Fixture, view: TransactionView, wallet: string): void {
  if (f.derivation?.declines !== undefined) {
    expect(view).toEqual({ ok: false, why: f.derivation.declines })
    return
  }
  if (!view.ok) throw new Error(`${f.file}: the derivation declines: ${view.why}`)
  expectEntryRows(view.entry, wallet)
  expectTransfersAddUp(wallet, view.entry, view.transfers, f.derivation?.rentLamports ?? 0)
}

/** The symbols the mirror would know: every fungible mint named, NFTs not. */
function symbolsOf(mints: Iterable<[string, number]>): Map<string, string> {
  const symbols = new Map<string, string>([[NATIVE_SOL_MINT, 'SOL']])
  for (const [mint, decimals] of mints) if (decimals !== 0) symbols.set(mint, 'TOKEN')
  return symbols
}

describe('the corpus of published answers', () => {
  it('names each answer’s source: a URL, or a repository, path and commit', () => {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.json') && f !== 'index.json',
    )
    expect(fixtures.map((f) => f.file).sort()).toEqual(files.sort())
    for (const f of fixtures) {
      expect(existsSync(resolve(dir, f.file))).toBe(true)
      expect(f.file.startsWith(`${f.operation}/`)).toBe(true)
      expect(f.what.length).toBeGreaterThan(10)
      const { url, repository, path, commit } = f.source
      if (url === undefined) {
        expect(repository).toMatch(/^[\w.-]+\/[\w.-]+$/)
        expect(path).toBeTruthy()
        expect(commit).toMatch(/^[0-9a-f]{40}$/)
      } else expect(url).toMatch(/^https:\/\//)
    }
  })

  it('holds one for every operation of the registry, and three or more where the mirror is made', () => {
    for (const name of OPERATION_NAMES) expect(of(name).length, name).toBeGreaterThanOrEqual(1)
    for (const name of [
      'wallet.history',
      'wallet.transfers',
      'wallet.balances',
      'webhook.enhanced',
      'rpc.getTransaction',
    ] as const)
      expect(of(name).length, name).toBeGreaterThanOrEqual(3)
    // Swaps through wrapped SOL, an NFT sale and Token-2022 are among them.
    const whats = fixtures.map((f) => f.what).join('\n')
    for (const needle of ['wrapped-SOL account', 'NFT sale', 'Token-2022'])
      expect(whats).toContain(needle)
  })

  it('holds no visible template: no <placeholder> anywhere', () => {
    for (const f of fixtures)
      expect(readFileSync(resolve(dir, f.file), 'utf8'), f.file).not.toMatch(/"<[a-z ]+>"/i)
  })

  describe.each(fixtures.filter((f) => f.operation in OPERATIONS))('$file', (f) => {
    it('is read by its operation’s schema, nothing kept aside', () => {
      const schema = OPERATIONS[f.operation as OperationName].response
      const read = schema.safeParse(answerOf(f))
      if (!read.success) throw new Error(`${f.file}: ${read.error.message}`)
      const keptAside = (read.data as { keptAside?: unknown[] }).keptAside ?? []
      expect(keptAside).toEqual([])
      // One form past the edge: native SOL is its mint, never "SOL".
      expect(JSON.stringify(read.data)).not.toContain('"mint":"SOL"')
    })
  })

  it('history: every entry makes rows with mints, exact amounts and the fee netted', () => {
    for (const f of of('wallet.history')) {
      const page = OPERATIONS['wallet.history'].response.parse(answerOf(f))
      const wallet = f.wallet as string
      for (const entry of page.data) {
        const row = expectEntryRows(entry, wallet)
        const feeOnly =
          entry.feePayer === wallet &&
          entry.balanceChanges.every((c) => c.mint === NATIVE_SOL_MINT && c.amount === -entry.fee)
        if (feeOnly) expect([row.has_leg_in, row.has_leg_out, row.kind]).toEqual([0, 0, 'UNKNOWN'])
      }
      // A page without a cursor is the end of paging.
      if (!page.pagination.hasMore) expect(page.pagination.nextCursor).toBeNull()
    }
  })

  it('transfers: every transfer makes a row whose raw amount is its amount', () => {
    for (const f of of('wallet.transfers')) {
      const page = OPERATIONS['wallet.transfers'].response.parse(answerOf(f))
      for (const t of page.data) {
        expectFinite(transferRow(1, t))
        expect(rawOf(t.amount, t.decimals)).toBe(BigInt(t.amountRaw))
      }
    }
  })

  it('balances: an unpriced holding is stored unpriced and left out of the total', () => {
    let unpriced = 0
    for (const f of of('wallet.balances')) {
      const answer = OPERATIONS['wallet.balances'].response.parse(answerOf(f))
      const balances: WalletBalance[] = answer.balances
      const nfts: WalletNft[] = answer.nfts ?? []
      for (const b of balances) {
        const row = snapshotItemRow(1, b)
        expectFinite(row)
        if (b.pricePerToken === null) {
          unpriced += 1
          expect([row.price_usd, row.usd_value]).toEqual([null, null])
        }
      }
      for (const n of nfts) expect(snapshotNftRow(1, n).mint.length).toBeGreaterThan(0)
      const priced = balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0)
      expect(snapshotRow(1, 0, balances, nfts).total_usd).toBe(priced)
    }
    expect(unpriced).toBeGreaterThan(0)
  })

  it('getTransaction: each wallet view adds up, or declines for the reason the index gives', () => {
    for (const f of of('rpc.getTransaction')) {
      const tx = OPERATIONS['rpc.getTransaction'].response.parse(
        answerOf(f),
      ) as ConfirmedTransaction
      const meta = tx.meta
      const balances = [...(meta?.preTokenBalances ?? []), ...(meta?.postTokenBalances ?? [])]
      const symbols = symbolsOf(balances.map((b) => [b.mint, b.uiTokenAmount.decimals]))
      expectView(f, walletView(f.wallet as string, tx, symbols), f.wallet as string)
    }
  })

  it('enhanced deliveries: each is read whole and its view adds up, or declines as indexed', () => {
    for (const f of of('webhook.enhanced')) {
      const events = EnhancedTransaction.array().parse(answerOf(f))
      expect(WebhookDelivery.safeParse(answerOf(f)).success).toBe(true)
      for (const event of events) {
        if (f.wallet === undefined) continue
        const mints = [
          ...event.tokenTransfers.map((t): [string, number] => [t.mint, t.decimals ?? -1]),
          ...(event.accountData ?? []).flatMap((a) =>
            a.tokenBalanceChanges.map((c): [string, number] => [c.mint, c.rawTokenAmount.decimals]),
          ),
        ]
        expectView(f, deliveredView(f.wallet, event, symbolsOf(mints)), f.wallet)
      }
    }
    // The published NFT sale carries no transactionError: read as no error, its sale read.
    const [sale] = EnhancedTransaction.array().parse(
      answerOf(fixtures.find((f) => f.file.includes('nft-sale')) as Fixture),
    )
    expect(sale?.transactionError).toBeNull()
    expect(sale?.events.nft).toMatchObject({ amount: 72_000_000_000, source: 'MAGIC_EDEN' })
  })

  it('raw deliveries: each names its signature and the addresses it touched', () => {
    for (const f of of('webhook.raw')) {
      for (const event of WebhookDelivery.parse(answerOf(f))) {
        const { signature, addresses } = deliveredTransaction(event)
        expect(signature.length).toBeGreaterThan(60)
        expect(addresses.size).toBeGreaterThan(1)
      }
    }
  })
})
