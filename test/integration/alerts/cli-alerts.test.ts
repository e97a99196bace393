import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertRuleView, AlertTrial, AlertView } from '../../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { readWalletTruth } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Alert rules from the command line, evaluated on what `sync` writes: a rule on one
// wallet fires once for its new transaction, a rule whose threshold is not met fires
// nothing, a second sync fires nothing again, and `alerts try` counts on the stored past
// what the simulator's truth says it should.

describe('CLI: alerts add, list, history and try', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let w1: string
  let w2: string

  const json = async <T>(args: string[]): Promise<T> => {
    const run = await runCli([...base, ...args, '--json'])
    expect(run.code, run.stderr).toBe(0)
    return JSON.parse(run.stdout) as T
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    w1 = sim.chain.walletByProfile('casual').address
    w2 = sim.chain.walletByProfile('failed-transactions').address
    for (const [address, label] of [
      [w1, 'Casual'],
      [w2, 'Failing'],
    ] as const) {
      expect((await runCli([...base, 'watch', 'add', address, '--label', label])).code).toBe(0)
    }
    const once = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(once.code, once.stderr).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('refuses a rule that cannot be right, naming the flag, with exit 2, and saves nothing', async () => {
    const stranger = testAddress(4242)
    const cases: [string[], RegExp][] = [
      [['--when', 'wakes'], /--when wakes needs --idle-days N\./],
      [['--when', 'soon'], /--when must be one of activity, incoming/],
      [['--when', 'failed', '--min', '5'], /--when failed takes no --min/],
      [['--when', 'incoming', '--min', 'lots'], /--min must be a number \(got “lots”\)/],
      [
        ['--when', 'activity', '--wallet', 'not-an-address'],
        /--wallet “not-an-address”: Address is 14 characters long/,
      ],
      [
        ['--when', 'activity', '--wallet', stranger],
        new RegExp(`--wallet ${stranger}: not on the watchlist`),
      ],
      [
        ['--when', 'cluster', '--count', '3', '--window', 'an hour'],
        /--window “an hour” is not a duration/,
      ],
      [['--when', 'activity', '--notify', 'ops'], /--notify ops: no alert channel is named “ops”/],
      [
        ['--when', 'type', '--type', 'SWAPPY'],
        /--type “SWAPPY”: not a transaction type; did you mean SWAP\?/,
      ],
      [
        ['--when', 'outgoing', '--token', 'NOPE', '--min', '5'],
        /--token “NOPE”: no token the mirror has seen is called that/,
      ],
      [['--when', 'activity', '--tag', 'a b'], /--tag “a b”: Tag “a b” contains a space/],
      [
        ['--when', 'balance-below', '--token', 'SOL', '--max', '5', '--max-usd', '3'],
        /--when balance-below takes --max or --max-usd, not both/,
      ],
      [
        ['--when', 'activity', '--cooldown', '10'],
        /--cooldown “10” needs a unit: 10s, 10m, 10h or 10d/,
      ],
      [
        ['--when', 'wakes', '--idle-days', '-3'],
        /--idle-days must be a number more than 0 and at most 3,650 \(got -3\)/,
      ],
      [
        ['--when', 'value-change', '--pct', '10'],
        /--when value-change needs --pct N and --window DURATION/,
      ],
    ]
    for (const [flags, message] of cases) {
      const run = await runCli([...base, 'alerts', 'add', ...flags])
      expect(run.code, flags.join(' ')).toBe(2)
      expect(run.stderr, flags.join(' ')).toMatch(message)
    }
    expect(await json<AlertRuleView[]>(['alerts', 'list'])).toEqual([])
    // The trial refuses the same rules in the same words.
    const tried = await runCli([
      ...base,
      'alerts',
      'try',
      '--when',
      'type',
      '--type',
      'SWAPPY',
      '--days',
      '30',
    ])
    expect(tried.code).toBe(2)
    expect(tried.stderr).toMatch(/--type “SWAPPY”: not a transaction type/)
    // And the feed's type filter is checked as a rule's is.
    const feed = await runCli([...base, 'feed', '--type', 'SWAPPY'])
    expect(feed.code).toBe(2)
    expect(feed.stderr).toMatch(/--type “SWAPPY”: not a transaction type; did you mean SWAP\?/)
    const missing = await runCli([...base, 'alerts', 'remove', '99'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/No alert rule has id 99/)
  })

  it('fires once for a new transaction of the rule’s wallet, not for an unmet threshold, and never twice', async () => {
    const activity = await json<AlertRuleView>([
      'alerts',
      'add',
      '--when',
      'activity',
      '--wallet',
      w1,
      '--name',
      'Casual moves',
    ])
    const unmet = await json<AlertRuleView>([
      'alerts',
      'add',
      '--when',
      'incoming',
      '--wallet',
      w2,
      '--min-usd',
      '1000000000',
    ])
    expect(activity).toMatchObject({ name: 'Casual moves', trigger: 'activity', isMuted: false })
    expect(unmet.name).toBe('incoming ≥ $1000000000')
    expect((await json<AlertRuleView[]>(['alerts', 'list'])).map((r) => r.id)).toEqual([
      activity.id,
      unmet.id,
    ])

    const [signature] = sim.addActivity(sim.chain.walletByProfile('casual'), 1)
    sim.inject(sim.chain.walletByProfile('failed-transactions'), { kind: 'token-airdrop' })
    const sync = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(sync.code, sync.stderr).toBe(0)

    const history = await json<AlertView[]>(['alerts', 'history'])
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({
      kind: 'rule',
      rule: { id: activity.id, name: 'Casual moves' },
      wallet: w1,
      walletLabel: 'Casual',
      signature,
      matchCount: 1,
      isRead: false,
    })
    expect(history[0]?.text).toMatch(/^Casual /)
    expect(history[0]?.deliveries.map((d) => d.channel)).toEqual(['desktop'])

    const again = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(again.code, again.stderr).toBe(0)
    expect(await json<AlertView[]>(['alerts', 'history'])).toHaveLength(1)

    const muted = await runCli([...base, 'alerts', 'mute', String(activity.id)])
    expect(muted.code, muted.stderr).toBe(0)
    sim.addActivity(sim.chain.walletByProfile('casual'), 2)
    expect((await runCli([...base, 'sync', '--once', '--quiet'])).code).toBe(0)
    expect(await json<AlertView[]>(['alerts', 'history'])).toHaveLength(1)
  })

  it('tries a rule on the stored past: as many alerts as the truth has transactions, for no credits', async () => {
    const truth = await readWalletTruth(sim.url, w2)
    const oldest = Math.min(...truth.history.map((h) => h.timestamp ?? Infinity))
    const days = 365
    // Every transaction of the wallet lies well inside the window, so the count is exact.
    expect(Date.now() / 1000 - oldest).toBeLessThan((days - 5) * 86_400)
    const failed = truth.history.filter((h) => h.error !== null).length
    expect(failed).toBeGreaterThan(0)

    const byOptions = await json<AlertTrial>([
      'alerts',
      'try',
      '--when',
      'failed',
      '--wallet',
      w2,
      '--days',
      String(days),
    ])
    expect(byOptions).toMatchObject({
      days,
      fired: failed,
      matches: failed,
      transactionsExamined: truth.txCount,
    })
    expect(byOptions.alerts.every((a) => a.wallet === w2 && a.signature !== null)).toBe(true)
    const casual = await readWalletTruth(sim.url, w1)

    const [rule] = await json<AlertRuleView[]>(['alerts', 'list'])
    const byId = await json<AlertTrial>(['alerts', 'try', String(rule?.id), '--days', String(days)])
    expect(byId).toMatchObject({ fired: casual.txCount, transactionsExamined: casual.txCount })

    const gathered = await json<AlertTrial>([
      'alerts',
      'try',
      '--when',
      'activity',
      '--wallet',
      w1,
      '--cooldown',
      '7d',
      '--days',
      String(days),
    ])
    expect(gathered.matches).toBe(casual.txCount)
    expect(gathered.fired).toBeLessThan(casual.txCount)
    expect(gathered.alerts.reduce((n, a) => n + a.matchCount, 0)).toBe(casual.txCount)
  })
})
