import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { BudgetStatus } from '@shared/domain/budget-status'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'

// `heliograph budget` prints the daily and monthly budgets against what today and the month
// spent, and where the month ends at the watching cadence; `budget set` sets them (0: none)
// and names a wrong value.

describe('CLI: budget', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const casual = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', casual])).code).toBe(0)
    expect((await runCli([...base, 'sync', '--once', '--quiet'])).code).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('budget set --daily 5000 --monthly 0, then budget: the budgets, the spending, the projection', async () => {
    const set = await runCli([...base, 'budget', 'set', '--daily', '5,000', '--monthly', '0'])
    expect(set.code, set.stderr).toBe(0)
    const json = await runCli([...base, 'budget', '--json'])
    const status = JSON.parse(json.stdout) as BudgetStatus
    expect(status).toMatchObject({ dailyBudget: 5000, monthlyBudget: null })
    expect(status.todayCredits).toBeGreaterThan(0)
    expect(status.projection.watchingPerDay).toBeGreaterThan(0)
    expect(status.projection.monthCredits).toBeGreaterThan(status.monthCredits)

    const text = await runCli([...base, 'budget'])
    const spent = status.todayCredits.toLocaleString('en-US')
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      `Daily budget:   5,000 credits (${spent} spent today, ${Math.round((status.todayCredits / 5000) * 100)}%)`,
      `Monthly budget: none (${status.monthCredits.toLocaleString('en-US')} spent this month)`,
    ])
    expect(text.stdout.split('\n')[2]).toMatch(
      /^This month: {5}≈ [\d,]+ credits by the end of \d{4}-\d{2}-\d{2} \(UTC\): [\d,]+ spent \+ ≈ [\d,]+ a day watching for [\d.]+ more days$/,
    )
  })

  it('a wrong or missing value is named, and nothing is changed', async () => {
    const wrong = await runCli([...base, 'budget', 'set', '--daily', '-5'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toBe(
      'heliograph: --daily must be a whole number of credits from 0 (no budget) to 10,000,000,000 (got “-5”).\n',
    )
    const none = await runCli([...base, 'budget', 'set'])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('give --daily, --monthly or both')
    const status = JSON.parse((await runCli([...base, 'budget', '--json'])).stdout) as BudgetStatus
    expect(status.dailyBudget).toBe(5000)
  })
})
