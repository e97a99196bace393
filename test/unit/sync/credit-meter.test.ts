import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqliteMirror, type SqliteMirror } from '../../../src-main/db/sqlite/mirror'
import type { LedgerEntry } from '../../../src-main/db/stores/credit-ledger-store'
import {
  BudgetExceededError,
  CreditMeter,
  type CreditBudget,
} from '../../../src-main/sync/credit-meter'
import { makeTempDir } from '../../helpers/temp-dir'

// The meter on a real SQLite ledger: every call reserves its price before it starts, so
// calls running in parallel can never take spending past a budget together.

const NOON_JUNE_15 = Date.UTC(2025, 5, 15, 12)

function entry(credits: number, atMs: number): LedgerEntry {
  return {
    atMs,
    operation: 'wallet.history',
    endpointClass: 'das-enhanced',
    walletAddress: null,
    credits,
    status: 'ok',
    errorName: null,
    durationMs: 5,
    httpStatus: 200,
  }
}

describe('credit meter', () => {
  let temp: ReturnType<typeof makeTempDir>
  let mirror: SqliteMirror
  let nowMs: number
  let budget: CreditBudget
  const meter = () =>
    new CreditMeter(
      mirror.ledger,
      async () => budget,
      () => nowMs,
    )
  const ledgerTotal = () =>
    (
      mirror.database.sqlite
        .prepare('select coalesce(sum(credits), 0) as n from credit_ledger')
        .get() as {
        n: number
      }
    ).n

  beforeEach(async () => {
    temp = makeTempDir('heliograph-meter-')
    mirror = await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
    nowMs = NOON_JUNE_15
    budget = { dailyCredits: null, monthlyCredits: null }
  })
  afterEach(async () => {
    await mirror.close()
    temp.remove()
  })

  it('lets only as many parallel calls start as the budget pays for', async () => {
    budget = { dailyCredits: 300, monthlyCredits: null }
    const m = meter()
    // Five 100-credit calls start together; each records its cost when it answers.
    const calls = Array.from({ length: 5 }, async () => {
      const release = await m.reserve(100)
      await new Promise((resolve) => setTimeout(resolve, 10))
      m.record(entry(100, nowMs))
      release()
    })
    const settled = await Promise.allSettled(calls)
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3)
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected')
    expect(refused).toHaveLength(2)
    for (const r of refused) expect(r.reason).toBeInstanceOf(BudgetExceededError)
    await m.idle()
    expect(ledgerTotal()).toBe(300)
    expect(await m.spent()).toEqual({ day: 300, month: 300 })
  })

  it('gives a reservation back when its call costs nothing (a 429 or 5xx)', async () => {
    budget = { dailyCredits: 200, monthlyCredits: null }
    const m = meter()
    const first = await m.reserve(100)
    await m.reserve(100)
    await expect(m.reserve(100)).rejects.toThrow(BudgetExceededError)
    first() // refused by the service: nothing recorded
    first() // releasing twice frees it once
    await expect(m.reserve(100)).resolves.toBeTypeOf('function')
    await expect(m.reserve(100)).rejects.toThrow(BudgetExceededError)
  })

  it('says which budget stopped it, how much is spent, and when it resets', async () => {
    budget = { dailyCredits: null, monthlyCredits: 1_000 }
    const m = meter()
    // 950 credits earlier this month (not today).
    m.record(entry(950, Date.UTC(2025, 5, 2)))
    expect(await m.spent()).toEqual({ day: 0, month: 950 })
    const error = await m.reserve(100).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BudgetExceededError)
    expect(error).toMatchObject({
      period: 'monthly',
      spent: 950,
      limit: 1_000,
      nextCallCredits: 100,
    })
    expect((error as Error).message).toMatch(/monthly credit budget is reached: 950 of 1,000/)
    await expect(m.reserve(50)).resolves.toBeTypeOf('function')
  })

  it('reads what other processes spent from the shared ledger', async () => {
    const other = meter()
    other.record(entry(400, nowMs))
    await other.idle()
    budget = { dailyCredits: 500, monthlyCredits: null }
    const fresh = meter()
    expect((await fresh.spent()).day).toBe(400)
    await expect(fresh.reserve(100)).resolves.toBeTypeOf('function')
    await expect(fresh.reserve(10)).rejects.toThrow(BudgetExceededError)
  })

  it('counts a call recorded first thing exactly once', async () => {
    const m = meter()
    m.record(entry(100, nowMs))
    expect(await m.spent()).toEqual({ day: 100, month: 100 })
  })

  it('starts a new day at 00:00 UTC, counting a call that answers after midnight once', async () => {
    budget = { dailyCredits: 1_000, monthlyCredits: null }
    nowMs = Date.UTC(2025, 5, 15, 23, 59, 59, 900)
    const m = meter()
    m.record(entry(900, nowMs))
    const release = await m.reserve(100) // reserved before midnight…
    nowMs = Date.UTC(2025, 5, 16, 0, 0, 0, 100)
    m.record(entry(100, nowMs)) // …answered after it
    release()
    expect(await m.spent()).toEqual({ day: 100, month: 1_000 })
  })

  it('does not hold a call back until the calls before it are in the ledger', async () => {
    // As the app runs it: ledger rows are written on the mirror writer's thread, behind
    // the pages it is writing; here another process holds the write lock instead.
    const path = join(temp.dir, 'heliograph.sqlite')
    await mirror.close()
    mirror = await openSqliteMirror(path, { writeIn: 'worker' })
    const m = meter()
    expect(await m.spent()).toEqual({ day: 0, month: 0 })
    const lock = new BetterSqlite3(path, { timeout: 0 })
    lock.exec('begin immediate')
    try {
      m.record(entry(100, nowMs))
      // Answered while the row still waits for the lock, and counting it.
      expect(await m.spent()).toEqual({ day: 100, month: 100 })
      expect(ledgerTotal()).toBe(0)
    } finally {
      lock.exec('rollback')
      lock.close()
    }
    await m.idle()
    expect(ledgerTotal()).toBe(100)
    expect(await meter().spent()).toEqual({ day: 100, month: 100 })
  })

  it('reports a ledger write that failed, without failing the call that was already paid', async () => {
    const m = meter()
    await mirror.close()
    m.record(entry(100, nowMs))
    await expect(m.idle()).rejects.toThrow()
    mirror = await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
  })
})
