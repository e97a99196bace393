import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli, startCliInProcess } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// Given two wallets synced from the simulator, when `heliograph feed` runs, then it prints
// both wallets' transactions newest first as JSON rows a script can read, filters by
// wallet, tag and type, refuses bad flag values naming the flag, and with --follow prints
// a transaction that a sync wrote after it started, until SIGTERM ends it with 0.

interface JsonRow {
  signature: string
  wallet: string
  walletLabel: string | null
  slot: number
  time: string | null
  kind: string
  summary: string
  amounts: { mint: string; symbol: string | null; amount: string; usd: number | null }[]
  usd: number | null
  isFailed: boolean
}

describe('CLI: feed', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let casual: string
  let trader: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    casual = sim.chain.walletByProfile('casual').address
    trader = sim.chain.walletByProfile('active-trader').address
    expect((await runCli([...base, 'watch', 'add', casual, '--label', 'Casual'])).code).toBe(0)
    expect((await runCli([...base, 'watch', 'add', trader])).code).toBe(0)
    expect((await runCli([...base, 'watch', 'tag', trader, 'Desk'])).code).toBe(0)
    const once = await runCli([...base, 'sync', '--once', '--quiet', '--max-transactions', '300'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  const feed = async (...args: string[]): Promise<JsonRow[]> => {
    const run = await runCli([...base, 'feed', '--json', ...args])
    expect(run.code, run.stderr).toBe(0)
    return JSON.parse(run.stdout) as JsonRow[]
  }

  it('--json prints both wallets’ transactions newest first, with the documented fields', async () => {
    const rows = await feed('--limit', '200')
    expect(rows).toHaveLength(200)
    expect(new Set(rows.map((r) => r.wallet))).toEqual(new Set([casual, trader]))
    for (const [i, row] of rows.entries()) {
      expect(Object.keys(row).sort()).toEqual([
        'amounts',
        'isFailed',
        'kind',
        'signature',
        'slot',
        'summary',
        'time',
        'usd',
        'wallet',
        'walletLabel',
      ])
      if (i > 0) expect(row.slot).toBeLessThanOrEqual(rows[i - 1]!.slot)
      expect(row.walletLabel).toBe(row.wallet === casual ? 'Casual' : null)
      if (row.time !== null) expect(row.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/)
      expect(row.summary).not.toBe('')
      for (const a of row.amounts) expect(a.amount).toMatch(/^-?\d+(\.\d+)?$/)
    }
    // Sums in words: something was received, sent or swapped, with symbols.
    expect(rows.some((r) => /^(Received|Sent|Swapped) \S+ \S+/.test(r.summary))).toBe(true)
    expect(rows.some((r) => r.usd !== null && r.usd > 0)).toBe(true)
  })

  it('filters by wallet, tag and type', async () => {
    const own = await feed('--wallet', casual, '--limit', '50')
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((r) => r.wallet === casual)).toBe(true)
    const desk = await feed('--tag', 'DESK', '--limit', '50')
    expect(desk.length).toBeGreaterThan(0)
    expect(desk.every((r) => r.wallet === trader)).toBe(true)
    const swaps = await feed('--type', 'swap', '--limit', '50')
    expect(swaps.every((r) => r.kind === 'SWAP')).toBe(true)
    const ins = await feed('--direction', 'in', '--limit', '50')
    expect(ins.every((r) => r.amounts.some((a) => !a.amount.startsWith('-')))).toBe(true)
  })

  it('prints lines a person reads without --json', async () => {
    const run = await runCli([...base, 'feed', '--wallet', casual, '--limit', '3'])
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines).toHaveLength(3)
    for (const line of lines)
      expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\dZ {2}Casual {2}[A-Z_]+ {2}\S/)
  })

  it('refuses bad values, naming the flag, with exit 2', async () => {
    const cases: [string[], RegExp, number][] = [
      [
        ['--min-usd', 'lots'],
        /--min-usd must be a number of US dollars, 0 or more \(got “lots”\)/,
        2,
      ],
      [['--limit', '0'], /--limit must be a whole number from 1 to 200 \(got “0”\)/, 2],
      [['--tag', 'two words'], /--tag “two words”: Tag “two words” contains a space/, 2],
      [['--type', 'sw ap'], /--type “sw ap”: a type is a word/, 2],
      [['--type', 'SWAPPY'], /--type “SWAPPY”: not a transaction type; did you mean SWAP\?/, 2],
      [['--wallet', 'nope'], /--wallet “nope”: /, 2],
      // commander's own refusal of a value outside the choices
      [['--direction', 'up'], /--direction/, 1],
      [['--token', 'NOSUCHTOKEN'], /No token “NOSUCHTOKEN” in the mirror/, 2],
    ]
    for (const [args, message, code] of cases) {
      const run = await runCli([...base, 'feed', ...args])
      expect(run.code, args.join(' ')).toBe(code)
      expect(run.stderr).toMatch(message)
    }
  })

  it('--follow prints a transaction written after it started, and SIGTERM ends it with 0', async () => {
    const clock = new VirtualClock()
    const following = startCliInProcess(
      [...base, 'feed', '--follow', '--json', '--wallet', casual, '--limit', '2'],
      {
        clock,
      },
    )
    await waitFor(() => following.stdout.split('\n').filter(Boolean).length >= 2)
    const [signature] = sim.addActivity(sim.chain.walletByProfile('casual'), 1)
    const synced = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(synced.code, synced.stderr).toBe(0)
    expect(following.stdout).not.toContain(signature)
    // The next read, a second later on the run's clock, finds it.
    await clock.advance(1_000)
    await waitFor(() => following.stdout.includes(signature!))
    const lines = following.stdout.trim().split('\n')
    const last = JSON.parse(lines.at(-1)!) as JsonRow
    expect(last).toMatchObject({ signature, wallet: casual, walletLabel: 'Casual' })
    expect(lines).toHaveLength(3)
    following.signal('SIGTERM')
    expect(await following.exited).toBe(0)
  })
})

/** Waits for output of a run doing real I/O (the mirror's reads) between clock steps. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await sleep(10)
  expect(condition()).toBe(true)
}
