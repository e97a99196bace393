import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TransferEntry } from '@shared/api/wallet-rest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { setMonthlyBudget } from '../../helpers/monthly-budget'

// Issue 48: older history on request. `sync --deeper ADDR --transactions N` prints its
// estimate first, stores N more transactions and their transfers, stops at the budget,
// goes on where it stopped, and writes the ledger under its own name.

interface Held {
  transactions: number
  transfers: Set<string>
  ledger: Record<string, number>
  loads: number
  depth: number | null
}

const read = (dataDir: string): Promise<Held> =>
  readStoredMirror({ dataDir }, async (db) => {
    const transfers = await db
      .selectFrom('transfers')
      .select(['signature', 'mint', 'direction', 'counterparty', 'amount_raw'])
      .execute()
    const ledger = await db
      .selectFrom('credit_ledger')
      .select(['stream', (eb) => eb.fn.sum<number>('credits').as('credits')])
      .groupBy('stream')
      .execute()
    const history = await db
      .selectFrom('sync_streams')
      .select('depth_limit_count')
      .where('stream', '=', 'history')
      .executeTakeFirstOrThrow()
    return {
      transactions: Number(
        (
          await db
            .selectFrom('transactions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      transfers: new Set(
        transfers.map(
          (t) => `${t.signature} ${t.mint} ${t.direction} ${t.counterparty} ${t.amount_raw}`,
        ),
      ),
      ledger: Object.fromEntries(ledger.map((r) => [r.stream ?? '', Number(r.credits)])),
      loads: (await db.selectFrom('history_loads').selectAll().execute()).length,
      depth: history.depth_limit_count,
    }
  })

describe('CLI: sync --deeper loads older history on request', () => {
  let sim: RunningSimulator
  const temp = makeTempDir()
  let whale: string
  const args = (): string[] => ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    whale = sim.chain.walletByProfile('whale').address
    expect((await cli([...args(), 'watch', 'add', whale, '--label', 'Whale'])).code).toBe(0)
    const first = await cli([...args(), 'sync', '--once', '--quiet'])
    expect(first.code, first.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('--help lists --deeper and its targets', async () => {
    const help = await cli(['sync', '--help'])
    expect(help.stdout).toMatch(/--deeper <address>/)
    expect(help.stdout).toMatch(/--transactions <n>/)
    expect(help.stdout).toMatch(/--to <date>/)
    expect(help.stdout).toMatch(/--all/)
  })

  it('--estimate prints what it would load and cost, and spends nothing', async () => {
    const before = await simulatorCredits(sim.url)
    const run = await cli([
      ...args(),
      'sync',
      '--deeper',
      whale,
      '--transactions',
      '2000',
      '--estimate',
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      /Older history: ≈ [\d,]+ credits \(2,000 more transactions, older than \d{4}-\d\d-\d\d\)/,
    )
    expect(run.stderr).toMatch(/history 2,000 · transfers [\d,]+/)
    expect(await simulatorCredits(sim.url)).toBe(before)
    expect((await read(temp.dir)).transactions).toBe(1_000)
  })

  it('stops at the budget, goes on where it stopped, and ends with 2,000 more and their transfers', async () => {
    const spent = Object.values((await read(temp.dir)).ledger).reduce((a, b) => a + b, 0)
    // Room for a part of the load only; agreeing to it up front (--yes), since it asks.
    await setMonthlyBudget(temp.dir, spent + 1_250)
    const stopped = await cli([
      ...args(),
      'sync',
      '--deeper',
      whale,
      '--transactions',
      '2000',
      '--yes',
    ])
    expect(stopped.code, stopped.stderr).toBe(2)
    expect(stopped.stdout).toMatch(/before it stopped .*run it again to go on/)
    const partway = await read(temp.dir)
    expect(partway.transactions).toBeGreaterThan(1_000)
    expect(partway.transactions).toBeLessThan(3_000)
    expect(partway.loads).toBe(1)

    await setMonthlyBudget(temp.dir, 1_000_000)
    const before = await simulatorCredits(sim.url)
    // No target: the load under way goes on to the 3,000 it was asked for.
    const resumed = await cli([...args(), 'sync', '--deeper', whale])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr.indexOf('Older history: ≈')).toBeLessThan(
      resumed.stderr.indexOf('history: '),
    )
    expect(resumed.stdout).toMatch(/the mirror holds 3,000/)
    const done = await read(temp.dir)
    expect(done.transactions).toBe(3_000)
    expect(done.loads).toBe(0)
    expect(done.depth).toBe(3_000)
    // Its calls are in the ledger under its own name; the first sync's under theirs.
    expect(done.ledger['older-history']).toBe(
      (await simulatorCredits(sim.url)) - before + (partway.ledger['older-history'] ?? 0),
    )
    expect(done.ledger.history).toBe(1_000)

    // Every transfer of the 3,000 newest transactions is held.
    const base = `${sim.url}/__sim/truth/${whale}`
    const { txCount } = (await (await fetch(base)).json()) as { txCount: number }
    const truth = (await (
      await fetch(`${base}/transfers?from=${txCount - 3_000}&limit=3000`)
    ).json()) as {
      transfers: TransferEntry[]
    }
    const missing = truth.transfers.filter(
      (t) =>
        !done.transfers.has(
          `${t.signature} ${t.mint} ${t.direction} ${t.counterparty} ${t.amountRaw}`,
        ),
    )
    expect(missing).toEqual([])

    // A routine sync after it asks only for what is new: nothing older, no older-history credit.
    const again = await cli([...args(), 'sync', '--once', '--quiet'])
    expect(again.code, again.stderr).toBe(0)
    const after = await read(temp.dir)
    expect(after.transactions).toBe(3_000)
    expect(after.ledger['older-history']).toBe(done.ledger['older-history'])
  })

  it('names a wrong target or a missing first sync in words', async () => {
    const both = await cli([...args(), 'sync', '--deeper', whale, '--all', '--transactions', '5'])
    expect(both.code).toBe(1)
    expect(both.stderr).toMatch(/Give one of --to, --transactions and --all/)
    const stray = await cli([...args(), 'sync', '--once', '--transactions', '5'])
    expect(stray.code).toBe(1)
    expect(stray.stderr).toMatch(/--transactions goes with --deeper/)
    const trader = sim.chain.walletByProfile('active-trader').address
    expect((await cli([...args(), 'watch', 'add', trader])).code).toBe(0)
    const early = await cli([...args(), 'sync', '--deeper', trader])
    expect(early.code).toBe(1)
    expect(early.stderr).toMatch(/first sync of .* has not finished/)
  })
})
