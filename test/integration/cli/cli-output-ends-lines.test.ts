import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli, type CliRun } from '../../helpers/cli-in-process'

// Issue 29, finding 8 (the command line): every output ends with a line break, so the next
// prompt starts on a line of its own; credit and item columns carry thousands separators
// and line up on the right.

/** Where the number before `noun` ends on a line (its column's right edge), or -1. */
function numberEnd(line: string, noun: string): number {
  const m = new RegExp(`[\\d,]*\\d(?= ${noun}s?\\b)`).exec(line)
  return m === null ? -1 : m.index + m[0].length
}

describe('CLI output', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let casual: string
  let trader: string
  const runs: { args: string[]; run: CliRun }[] = []

  const run = async (args: string[]): Promise<CliRun> => {
    const result = await cli(
      args[0] === 'simulator' || args[0] === '--version' ? args : [...base, ...args],
    )
    runs.push({ args, run: result })
    return result
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, live: false, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    casual = sim.chain.walletByProfile('casual').address
    trader = sim.chain.walletByProfile('active-trader').address
    await run(['watch', 'add', casual, '--label', 'Casual'])
    await run(['watch', 'add', trader, '--label', 'Trader'])
    await run(['sync', '--once', '--max-transactions', '1100'])
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  /** Asserts each run so far ended its stdout and stderr with a line break. */
  const expectLinesEnded = (): void => {
    for (const { args, run: r } of runs.splice(0)) {
      if (r.stdout !== '') expect(r.stdout.endsWith('\n'), `stdout of ${args.join(' ')}`).toBe(true)
      if (r.stderr !== '') expect(r.stderr.endsWith('\n'), `stderr of ${args.join(' ')}`).toBe(true)
    }
  }

  it('reading commands end their stdout and stderr with a line break', async () => {
    const today = new Date().toISOString().slice(0, 10)
    await run(['watch', 'list'])
    await run(['status'])
    await run(['credits'])
    await run(['show', casual])
    await run(['totals'])
    await run(['balance-at', casual, '--date', today])
    await run(['balance-at', casual, '--date', '2099-01-01'])
    await run(['export', '--estimate', '--out', 'x.csv'])
    await run(['sync', '--once', '--estimate'])
    expectLinesEnded()
  })

  it('look-ups, refusals, help and version end their output with a line break', async () => {
    const lookup = await run(['lookup', casual])
    const fee = await run(['fee', '--account', casual])
    await run(['no-such-command'])
    await run(['watch', 'add'])
    await run(['simulator', '--help'])
    await run(['simulator', '--what'])
    await run(['--version'])
    expectLinesEnded()
    expect(lookup.stdout).toMatch(/On the watchlist\.\n$/)
    // A one-credit look-up says "1 credit".
    expect(fee.stdout).toMatch(/, 1 credit\):\n/)
  })

  it('credits: calls and credits with thousands separators, right-aligned in one column each', async () => {
    const text = (await run(['credits'])).stdout
    const rows = text.split('\n').filter((l) => /^ {2}\S.*\d+ credits?$/.test(l))
    expect(rows.length).toBeGreaterThan(3)
    // The trader's 1,100 transactions cost 1,100 credits of history alone.
    expect(text).toMatch(/\b\d{1,3},\d{3} credits\n/)
    expect(text).not.toMatch(/\b\d{4,} credits?\b/)
    // Each count column ends at the same place on every row (right-aligned).
    const withCalls = rows.filter((l) => !l.trimStart().startsWith('shared by the watchlist'))
    const callsEnd = new Set(withCalls.map((l) => numberEnd(l, 'call')))
    const creditsEnd = new Set(rows.map((l) => numberEnd(l, 'credit')))
    expect(callsEnd.size, text).toBe(1)
    expect(creditsEnd.size, text).toBe(1)
  })

  it('status: item counts with thousands separators, right-aligned', async () => {
    const text = (await run(['status'])).stdout
    const rows = text.split('\n').filter((l) => /^ {2}\S+ +\S+ +[\d,]+ items?\b/.test(l))
    expect(rows.length).toBeGreaterThanOrEqual(10)
    expect(text).toMatch(/ 1,100 items /)
    const countsEnd = new Set(rows.map((l) => numberEnd(l, 'item')))
    expect(countsEnd.size, text).toBe(1)
  })
})
