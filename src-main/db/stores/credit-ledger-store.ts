import { sql, type Kysely } from 'kysely'
import type { Database } from '../schema'

/** One row of the ledger: a call to the service and what it cost. */
export interface LedgerEntry {
  atMs: number
  operation: string
  endpointClass: string
  walletAddress: string | null
  /** The stream whose page the call fetched; null or absent for calls of no one stream. */
  stream?: string | null
  credits: number
  status: 'ok' | 'error'
  errorName: string | null
  durationMs: number
  httpStatus: number | null
}

/** A call's `credit_ledger` row (the mirror writer's thread writes the same row). */
export function ledgerRow(entry: LedgerEntry) {
  return {
    at_ms: entry.atMs,
    operation: entry.operation,
    endpoint_class: entry.endpointClass,
    wallet_address: entry.walletAddress,
    stream: entry.stream ?? null,
    credits: entry.credits,
    status: entry.status,
    error_name: entry.errorName,
    duration_ms: entry.durationMs,
    http_status: entry.httpStatus,
  }
}

/** Start of the UTC day and month holding `nowMs`: the budget periods. */
export function budgetPeriodStarts(nowMs: number): { dayStartMs: number; monthStartMs: number } {
  const now = new Date(nowMs)
  return {
    dayStartMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
    monthStartMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
  }
}

/** Ledger totals for the UI and `cli credits`. */
export interface CreditSummary {
  todayCredits: number
  monthCredits: number
  totalCredits: number
  totalCalls: number
  byOperation: { operation: string; calls: number; credits: number; errors: number }[]
  /** Credits per UTC day and endpoint class, oldest first, for the last `days` days. */
  byDay: { day: string; endpointClass: string; credits: number }[]
  /** All-time credits of each wallet's own calls (removed wallets too), most first. */
  byWallet: { address: string; calls: number; credits: number; wasWatched: boolean }[]
  /** All-time credits of calls made for no one wallet (looks over many wallets at once). */
  sharedCredits: number
}

/** All-time credits of one wallet's calls, in all and per stream. */
export interface WalletCredits {
  credits: number
  byStream: Record<string, number>
}

/** The credit ledger: one row per call to the service, with what it cost. */
export class CreditLedgerStore {
  readonly #db: Kysely<Database>
  readonly #recordElsewhere: ((entry: LedgerEntry) => Promise<void>) | null
  /**
   * @param recordElsewhere writes rows on another connection instead (the mirror writer's
   * thread, so that the ledger row of a call never waits for a page transaction's lock).
   */
  constructor(db: Kysely<Database>, recordElsewhere?: (entry: LedgerEntry) => Promise<void>) {
    this.#db = db
    this.#recordElsewhere = recordElsewhere ?? null
  }

  /** Writes one call. */
  async record(entry: LedgerEntry): Promise<void> {
    if (this.#recordElsewhere) return this.#recordElsewhere(entry)
    await this.#db.insertInto('credit_ledger').values(ledgerRow(entry)).execute()
  }

  /** Credits recorded at or after `sinceMs`. */
  async spentSince(sinceMs: number): Promise<number> {
    const row = await this.#db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('credits'), eb.lit(0)).as('total'))
      .where('at_ms', '>=', sinceMs)
      .executeTakeFirstOrThrow()
    return Number(row.total)
  }

  /** All-time credits of each of `addresses`, per stream (the ledger is the one record). */
  async creditsOfWallets(addresses: readonly string[]): Promise<Map<string, WalletCredits>> {
    return creditsOfWallets(this.#db, addresses)
  }

  /**
   * Summarises the ledger.
   *
   * @example
   * const s = await mirror.ledger.summarize(Date.now(), 30)
   * s.todayCredits // 1200
   */
  summarize(nowMs: number, days = 30): Promise<CreditSummary> {
    return summarizeCredits(this.#db, nowMs, days)
  }
}

const DAY_MS = 86_400_000

/** `2026-11-23` for a count of whole UTC days since the epoch. */
function utcDayText(daysSinceEpoch: number): string {
  return new Date(daysSinceEpoch * DAY_MS).toISOString().slice(0, 10)
}

async function summarizeCredits(
  db: Kysely<Database>,
  nowMs: number,
  days: number,
): Promise<CreditSummary> {
  const { dayStartMs, monthStartMs } = budgetPeriodStarts(nowMs)
  const totals = await db
    .selectFrom('credit_ledger')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('credits'), eb.lit(0)).as('total'),
      eb.fn.countAll<number>().as('calls'),
      sql<number>`coalesce(sum(case when at_ms >= ${dayStartMs} then credits end), 0)`.as('today'),
      sql<number>`coalesce(sum(case when at_ms >= ${monthStartMs} then credits end), 0)`.as(
        'month',
      ),
    ])
    .executeTakeFirstOrThrow()
  const byOperation = await db
    .selectFrom('credit_ledger')
    .select((eb) => [
      'operation',
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('credits').as('credits'),
      sql<number>`sum(case when status = 'error' then 1 else 0 end)`.as('errors'),
    ])
    .groupBy('operation')
    .orderBy('credits', 'desc')
    .execute()
  const sinceMs = dayStartMs - (days - 1) * 86_400_000
  const byDay = await db
    .selectFrom('credit_ledger')
    .select((eb) => [
      // Whole UTC days since the epoch: integer division on both engines.
      sql<number>`at_ms / ${sql.lit(DAY_MS)}`.as('day'),
      'endpoint_class as endpointClass',
      eb.fn.sum<number>('credits').as('credits'),
    ])
    .where('at_ms', '>=', sinceMs)
    .groupBy(['day', 'endpoint_class'])
    .orderBy('day')
    .execute()
  const byWallet = await db
    .selectFrom('credit_ledger')
    .select((eb) => [
      'wallet_address',
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('credits').as('credits'),
      // Only a watched wallet is synced: any call besides a look-up means it was watched.
      sql<number>`sum(case when coalesce(stream, '') = 'lookup' then 0 else 1 end)`.as(
        'watchedCalls',
      ),
    ])
    .groupBy('wallet_address')
    .execute()
  return {
    byWallet: byWallet
      .filter((r) => r.wallet_address !== null)
      .map((r) => ({
        address: r.wallet_address as string,
        calls: Number(r.calls),
        credits: Number(r.credits),
        wasWatched: Number(r.watchedCalls) > 0,
      }))
      .sort((a, b) => b.credits - a.credits),
    sharedCredits: Number(byWallet.find((r) => r.wallet_address === null)?.credits ?? 0),
    todayCredits: Number(totals.today),
    monthCredits: Number(totals.month),
    totalCredits: Number(totals.total),
    totalCalls: Number(totals.calls),
    byOperation: byOperation.map((r) => ({
      ...r,
      calls: Number(r.calls),
      credits: Number(r.credits),
      errors: Number(r.errors),
    })),
    byDay: byDay.map((r) => ({ ...r, day: utcDayText(r.day), credits: Number(r.credits) })),
  }
}

/** Reads per-wallet, per-stream credits for the sync status (index credit_ledger_wallet). */
export async function creditsOfWallets(
  db: Kysely<Database>,
  addresses: readonly string[],
): Promise<Map<string, WalletCredits>> {
  const out = new Map<string, WalletCredits>(
    addresses.map((a) => [a, { credits: 0, byStream: {} }]),
  )
  if (addresses.length === 0) return out
  const rows = await db
    .selectFrom('credit_ledger')
    .select((eb) => ['wallet_address', 'stream', eb.fn.sum<number>('credits').as('credits')])
    .where('wallet_address', 'in', addresses)
    .groupBy(['wallet_address', 'stream'])
    .execute()
  for (const r of rows) {
    const wallet = out.get(r.wallet_address as string)
    if (!wallet) continue
    wallet.credits += Number(r.credits)
    if (r.stream !== null) wallet.byStream[r.stream] = Number(r.credits)
  }
  return out
}
