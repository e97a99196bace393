import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BalanceAtResult } from '@shared/ipc/wallet-schemas'
import type { CreditsOverview } from '@shared/ipc/sync-schemas'
import { DEMO_SEED } from '../../../src-main/app/demo-data'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'
import { testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'

// Issue 14: balances at a date are exportable through the export pipeline, from the mirror
// (free) or the service (credits said first), and the service is asked about fungible
// mints only unless NFTs are asked for: the ledger, the plan and the simulator agree.

type CsvRow = Record<string, string>

const HEADER = ['Date (UTC)', 'Wallet', 'Wallet label', 'Mint', 'Symbol', 'Amount']

/** The plan line's figures: mints asked, credits, and NFT mints left out or included. */
function planOf(stderr: string): { mints: number; credits: number; nftMints: number } {
  const m =
    /(?:Asking the service:|from the service,) (\d+) mint\(s\) × balance-at = ([\d,]+) credits/.exec(
      stderr,
    )
  expect(m, stderr).not.toBeNull()
  const nfts = /(\d[\d,]*) NFT mints? (?:not asked|included)/.exec(stderr)
  return {
    mints: Number(m![1]),
    credits: Number(m![2]!.replace(/,/g, '')),
    nftMints: nfts ? Number(nfts[1]!.replace(/,/g, '')) : 0,
  }
}

describe.each(ENGINES)(
  'CLI: export --kind balances --at, and balance-at asking fungible mints only (on %s)',
  (engine) => {
    const temp = makeTempDir()
    let sim: RunningSimulator
    let mirror: TestMirror | undefined
    let base: string[]
    let offline: string[]
    let collector: string
    let holder: string
    let trader: string
    let date: string

    /** `balance-at` of the collector on the day, asked of the service. */
    const askCollector = (...more: string[]) =>
      cli([
        ...base,
        'balance-at',
        collector,
        '--date',
        date,
        '--source',
        'service',
        '--json',
        ...more,
      ])

    const ledgerCredits = async (): Promise<number> =>
      (JSON.parse((await cli([...offline, 'credits', '--json'])).stdout) as CreditsOverview)
        .totalCredits

    beforeAll(async () => {
      sim = await startSimulator({ seed: DEMO_SEED, clock: { mode: 'manual' } })
      mirror = await testMirror(engine, temp.dir)
      base = [...mirror.cliArgs, '--service', sim.url, '--api-key', 'demo']
      offline = [...mirror.cliArgs, '--data-source', 'service']
      collector = sim.chain.walletByProfile('nft-collector').address
      holder = sim.chain.walletByProfile('compressed-holder').address
      trader = sim.chain.walletByProfile('active-trader').address
      expect((await cli([...base, 'watch', 'add', collector, '--label', 'Collector'])).code).toBe(0)
      expect((await cli([...base, 'watch', 'add', holder])).code).toBe(0)
      expect((await cli([...base, 'watch', 'add', trader, '--label', 'Trader'])).code).toBe(0)
      // The trader keeps only its newest transactions: its history does not reach far back.
      const limited = await cli([
        ...base,
        'sync',
        '--once',
        '--quiet',
        '--wallet',
        trader,
        '--max-transactions',
        '20',
      ])
      expect(limited.code, limited.stderr).toBe(0)
      const run = await cli([...base, 'sync', '--once', '--quiet'])
      expect(run.code, run.stderr).toBe(0)
      date = new Date((sim.chain.clock.nowSec() - 3 * 86_400) * 1000).toISOString().slice(0, 10)
    }, 180_000)
    afterAll(async () => {
      await sim.close()
      await mirror?.drop()
      temp.remove()
    })

    const exportBalancesAt = (out: string, ...more: string[]) =>
      cli([
        ...base,
        'export',
        '--kind',
        'balances',
        '--at',
        date,
        '--wallet',
        collector,
        '--wallet',
        holder,
        '--out',
        out,
        ...more,
      ])

    const rowsOf = (file: string): CsvRow[] =>
      parse(readFileSync(file, 'utf8'), { columns: true }) as CsvRow[]

    it('from the mirror: one file whose rows equal balance-at --json for every wallet', async () => {
      const out = join(temp.dir, 'at-local.csv')
      const before = await simulatorCredits(sim.url)
      const run = await exportBalancesAt(out)
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toMatch(/rebuilt from the mirror \(free\)/)
      expect(await simulatorCredits(sim.url)).toBe(before)
      expect(readFileSync(out, 'utf8').split(/\r?\n/)[0]).toBe(HEADER.join(','))
      const rows = rowsOf(out)
      for (const [address, label] of [
        [collector, 'Collector'],
        [holder, ''],
      ] as const) {
        const shown = await cli([...offline, 'balance-at', address, '--date', date, '--json'])
        expect(shown.code, shown.stderr).toBe(0)
        const answer = JSON.parse(shown.stdout) as BalanceAtResult
        expect(answer.balances.length).toBeGreaterThan(0)
        const mine = rows.filter((r) => r.Wallet === address)
        expect(
          mine.map((r) => ({ mint: r.Mint, symbol: r.Symbol || null, amount: r.Amount })),
        ).toEqual(answer.balances)
        for (const r of mine) {
          expect(r['Date (UTC)']).toBe(date)
          // No label: the name the service knows, where it knows one.
          if (label) expect(r['Wallet label']).toBe(label)
        }
      }
      expect(run.stdout).toMatch(new RegExp(`Exported ${rows.length} balances`))
      // A saved document's usual mode, as every export to a chosen path.
      expect(statSync(out).mode & 0o777).toBe(0o644 & ~process.umask())
    }, 60_000)

    it('from the service: the same rows; ledger = plan = simulator counter; --estimate spends nothing', async () => {
      const estimateOut = join(temp.dir, 'at-estimate.csv')
      const before = await simulatorCredits(sim.url)
      const ledgerBefore = await ledgerCredits()
      const estimate = await exportBalancesAt(estimateOut, '--source', 'service', '--estimate')
      expect(estimate.code, estimate.stderr).toBe(0)
      const plan = planOf(estimate.stderr)
      expect(plan.credits).toBe(plan.mints * 100)
      expect(existsSync(estimateOut)).toBe(false)
      expect(await simulatorCredits(sim.url)).toBe(before)
      expect(await ledgerCredits()).toBe(ledgerBefore)

      const out = join(temp.dir, 'at-service.csv')
      const run = await exportBalancesAt(out, '--source', 'service')
      expect(run.code, run.stderr).toBe(0)
      // The cost is said before anything is asked.
      expect(planOf(run.stderr).credits).toBe(plan.credits)
      const spent = (await simulatorCredits(sim.url)) - before
      expect(spent).toBe(plan.credits)
      expect((await ledgerCredits()) - ledgerBefore).toBe(plan.credits)
      // On a day the mirror covers, the service and the mirror agree, NFTs (not asked) included.
      expect(rowsOf(out)).toEqual(rowsOf(join(temp.dir, 'at-local.csv')))
    }, 60_000)

    it('refuses a day the mirror does not cover, naming the wallet; the service is then asked only on request', async () => {
      const out = join(temp.dir, 'at-uncovered.csv')
      const before = await simulatorCredits(sim.url)
      const run = await cli([
        ...base,
        'export',
        '--kind',
        'balances',
        '--at',
        '2024-01-01',
        '--out',
        out,
      ])
      expect(run.code).not.toBe(0)
      expect(run.stderr).toMatch(/cannot rebuild balances on 2024-01-01 for Trader \(/)
      expect(run.stderr).toContain(trader)
      expect(run.stderr).toMatch(/does not reach back/)
      expect(run.stderr).not.toMatch(/Collector/)
      expect(run.stderr).toMatch(/--source service: [\d,]+ credits/)
      expect(existsSync(out)).toBe(false)
      expect(await simulatorCredits(sim.url)).toBe(before)
    })

    it('names the path and the reason when it cannot write the file', async () => {
      const out = join(temp.dir, 'no-such-folder', 'x.csv')
      const run = await exportBalancesAt(out)
      expect(run.code).not.toBe(0)
      expect(run.stderr).toContain(`Cannot write the export to ${out}: the folder does not exist`)
    })

    it('refuses --at with another kind and a date that is not one', async () => {
      const out = join(temp.dir, 'bad.csv')
      const wrongKind = await cli([
        ...offline,
        'export',
        '--kind',
        'transfers',
        '--at',
        date,
        '--out',
        out,
      ])
      expect(wrongKind.code).not.toBe(0)
      expect(wrongKind.stderr).toMatch(/--at .*--kind balances/)
      const badDate = await cli([
        ...offline,
        'export',
        '--kind',
        'balances',
        '--at',
        '2025-02-30',
        '--out',
        out,
      ])
      expect(badDate.code).not.toBe(0)
      expect(badDate.stderr).toMatch(/--at: expected a real calendar date/)
    })

    it('balance-at asks the service about the collector’s fungible mints only: ledger = plan = simulator counter', async () => {
      const shown = JSON.parse((await cli([...offline, 'show', collector, '--json'])).stdout) as {
        holdings: { nfts: unknown[] }
      }
      const before = await simulatorCredits(sim.url)
      const ledgerBefore = await ledgerCredits()
      const run = await askCollector()
      expect(run.code, run.stderr).toBe(0)
      const plan = planOf(run.stderr)
      // Every NFT held now is among those not asked; the few fungible mints are.
      expect(plan.nftMints).toBeGreaterThanOrEqual(shown.holdings.nfts.length)
      expect(shown.holdings.nfts.length).toBe(173)
      expect(plan.mints).toBeLessThan(10)
      expect(plan.credits).toBe(plan.mints * 100)
      expect((await simulatorCredits(sim.url)) - before).toBe(plan.credits)
      expect((await ledgerCredits()) - ledgerBefore).toBe(plan.credits)
      const answer = JSON.parse(run.stdout) as BalanceAtResult
      expect(Object.keys(answer)).toEqual(
        expect.arrayContaining(['address', 'date', 'source', 'balances']),
      )
      expect(answer.nfts).toEqual({ mints: plan.nftMints, answeredBy: 'mirror' })
      const local = JSON.parse(
        (await cli([...offline, 'balance-at', collector, '--date', date, '--json'])).stdout,
      ) as BalanceAtResult
      expect(answer.balances).toEqual(local.balances)
    }, 60_000)

    // 170 balance-at calls at the plan's pace (about 90 s): the service's side, which the
    // engine does not change; on PostgreSQL the fungible case above compares the mirror.
    it.skipIf(engine === 'postgres')(
      '--include-nfts asks the NFT mints too, and costs them: ledger = plan = simulator counter',
      async () => {
        const estimate = await cli([
          ...offline,
          'balance-at',
          collector,
          '--date',
          date,
          '--include-nfts',
          '--estimate',
        ])
        const fungibleOnly = await cli([
          ...offline,
          'balance-at',
          collector,
          '--date',
          date,
          '--estimate',
        ])
        const withNfts = planOf(estimate.stderr)
        const without = planOf(fungibleOnly.stderr)
        expect(withNfts.mints).toBe(without.mints + without.nftMints)
        expect(withNfts.credits).toBe(withNfts.mints * 100)
        expect(estimate.stderr).toMatch(/NFT mints included/)

        const before = await simulatorCredits(sim.url)
        const ledgerBefore = await ledgerCredits()
        const run = await askCollector('--include-nfts')
        expect(run.code, run.stderr).toBe(0)
        expect(planOf(run.stderr).credits).toBe(withNfts.credits)
        expect((await simulatorCredits(sim.url)) - before).toBe(withNfts.credits)
        expect((await ledgerCredits()) - ledgerBefore).toBe(withNfts.credits)
        const answer = JSON.parse(run.stdout) as BalanceAtResult
        expect(answer.nfts?.answeredBy).toBe('service')
        const local = JSON.parse(
          (await cli([...offline, 'balance-at', collector, '--date', date, '--json'])).stdout,
        ) as BalanceAtResult
        expect(answer.balances).toEqual(local.balances)
      },
      180_000,
    )
  },
)
