import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSettings, writeSettings } from '../../../src-main/app/app-settings'
import { databasePath } from '../../../src-main/app/data-dir'
import { openMirror } from '../../../src-main/db/open-mirror'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { setMonthlyBudget } from '../../helpers/monthly-budget'

// Issue 48: budgets by default, and a first sync that would take more than a tenth of
// what is left this month asks first: refused in a script without --yes (exit 2, naming
// --yes), run with it, and asked on a terminal.

const countOf = (dataDir: string): Promise<number> =>
  readStoredMirror({ dataDir }, async (db) =>
    Number(
      (
        await db
          .selectFrom('transactions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  )

describe('CLI: a first sync that would take more than a tenth of the month left asks first', () => {
  let sim: RunningSimulator
  const temp = makeTempDir()
  let whale: string
  const args = (dir: string): string[] => [
    '--data-dir',
    dir,
    '--service',
    sim.url,
    '--api-key',
    'demo',
  ]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11, clock: { mode: 'manual' } })
    whale = sim.chain.walletByProfile('whale').address
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('a new data folder’s monthly budget is the plan’s monthly credits, and moves with the plan', async () => {
    const dir = `${temp.dir}/fresh`
    expect((await cli([...args(dir), 'watch', 'add', whale])).code).toBe(0)
    const mirror = await openMirror({ file: databasePath(dir) })
    try {
      const fresh = await readSettings(mirror.settings)
      expect(fresh).toMatchObject({ monthlyBudget: 1_000_000, monthlyBudgetFollowsPlan: true })
      const developer = await writeSettings(mirror.settings, { plan: 'developer' }, 1_800_000_000)
      expect(developer.monthlyBudget).toBe(10_000_000)
      // A form that saves every field sends the budget unchanged: it keeps following.
      const resaved = await writeSettings(
        mirror.settings,
        { plan: 'business', monthlyBudget: 10_000_000 },
        1_800_000_000,
      )
      expect(resaved).toMatchObject({ monthlyBudget: 100_000_000, monthlyBudgetFollowsPlan: true })
      const own = await writeSettings(mirror.settings, { monthlyBudget: 250_000 }, 1_800_000_000)
      expect(own).toMatchObject({ monthlyBudget: 250_000, monthlyBudgetFollowsPlan: false })
      expect(
        (await writeSettings(mirror.settings, { plan: 'free' }, 1_800_000_000)).monthlyBudget,
      ).toBe(250_000)
    } finally {
      await mirror.close()
    }
  })

  it('refused without --yes in a script (exit 2, naming --yes), spending nothing; run with it', async () => {
    const dir = `${temp.dir}/script`
    const added = await cli([...args(dir), 'watch', 'add', whale, '--label', 'Whale'])
    expect(added.code, added.stderr).toBe(0)
    // The estimate has a credit figure, and a tenth of 20,000 is less than its high end.
    expect(added.stdout).toMatch(
      /^First sync ≈ [\d,]+ credits \(newest 1,000 transactions, \d+ holdings, names\); older history on request$/m,
    )
    // 22 for the look, 100 for its funder (a wallet of more than a page; its first sync takes it).
    expect(added.stderr).toMatch(/this estimate cost 122 credits/)
    await setMonthlyBudget(dir, 20_000)

    const before = await simulatorCredits(sim.url)
    const refused = await cli([...args(dir), 'sync', '--once', '--quiet'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/more than a tenth of the [\d,]+ credits left this month/)
    expect(refused.stderr).toContain('--yes')
    expect(await simulatorCredits(sim.url)).toBe(before)
    expect(await countOf(dir)).toBe(0)

    const agreed = await cli([...args(dir), 'sync', '--once', '--quiet', '--yes'])
    expect(agreed.code, agreed.stderr).toBe(0)
    expect(await countOf(dir)).toBe(1_000)
    expect((await simulatorCredits(sim.url)) - before).toBeLessThanOrEqual(4_000)
  })

  it('on a terminal the person is asked: no leaves it unsynced, yes runs it', async () => {
    const dir = `${temp.dir}/terminal`
    expect((await cli([...args(dir), 'watch', 'add', whale])).code).toBe(0)
    await setMonthlyBudget(dir, 20_000)
    const questions: string[] = []
    const no = await cli([...args(dir), 'sync', '--once', '--quiet'], {
      ask: async (question) => {
        questions.push(question)
        return false
      },
    })
    expect(no.code).toBe(2)
    expect(questions).toHaveLength(1)
    expect(questions[0]).toMatch(
      /first sync of .* would take more than a tenth of the [\d,]+ credits left/i,
    )
    expect(await countOf(dir)).toBe(0)

    const yes = await cli([...args(dir), 'sync', '--once', '--quiet'], { ask: async () => true })
    expect(yes.code, yes.stderr).toBe(0)
    expect(await countOf(dir)).toBe(1_000)
  })

  it('watch add --yes agrees at once: the sync then runs without asking', async () => {
    const dir = `${temp.dir}/agreed-at-add`
    expect((await cli([...args(dir), 'watch', 'add', whale])).code).toBe(0)
    await setMonthlyBudget(dir, 20_000)
    const other = sim.chain.walletByProfile('active-trader').address
    const added = await cli([...args(dir), 'watch', 'add', other, '--yes'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stderr).toMatch(/Agreed: the first sync may take up to [\d,]+ credits/)
    const run = await cli([...args(dir), 'sync', '--once', '--quiet', '--wallet', other])
    expect(run.code, run.stderr).toBe(0)
    expect(await countOf(dir)).toBe(1_000)
  })
})
