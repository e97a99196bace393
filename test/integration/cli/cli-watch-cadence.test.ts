import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PLAN_MONTHLY_CREDITS } from '@shared/api/prices'
import type { WatchCadenceView } from '@shared/ipc/watch-cadence-schemas'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'
import { runCli, type CliRun } from '../../helpers/cli-in-process'

// `heliograph watch cadence` (issue 47): the watching cadence with what each clock costs a
// day for the watchlist, how soon each kind of change is seen, and a way to set each clock;
// through the `watch:cadence` and `watch:set-cadence` channels, as every command goes.

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args)
}

describe('CLI: watch cadence', () => {
  const temp = makeTempDir()
  const run = (...args: string[]) => cli('--data-dir', temp.dir, 'watch', 'cadence', ...args)
  beforeAll(async () => {
    for (let i = 0; i < 3; i++)
      expect((await cli('--data-dir', temp.dir, 'watch', 'add', testAddress(60 + i))).code).toBe(0)
  })
  afterAll(() => temp.remove())

  it('shows each clock with its cost and what it bounds: the default lists token accounts hourly, within half a Free plan', async () => {
    const shown = await run('--json')
    expect(shown.code, shown.stderr).toBe(0)
    const view = JSON.parse(shown.stdout) as WatchCadenceView
    expect(view.cadence).toEqual({
      isWatching: true,
      checkEverySec: 60,
      tokenAccountsEverySec: 3_600,
      compressedEverySec: 600,
      backstopEverySec: 86_400,
    })
    // Three wallets without token accounts: one 1-credit look a minute, two lists an hour
    // each, one 10-credit full check a day each.
    const list = view.clocks.find((c) => c.clock === 'tokenAccountsEverySec')
    expect(list).toEqual({
      clock: 'tokenAccountsEverySec',
      everySec: 3_600,
      runsEverySec: 3_600,
      creditsPerDay: 24 * 3 * 2,
    })
    expect(view.perDay).toBe(1_440 + 144 + 30)
    expect(view.perMonth).toBeLessThanOrEqual(PLAN_MONTHLY_CREDITS.free / 2)
    expect(view.newAccountSeen).toBe(
      'within 1 h while polling at these settings; seconds with webhooks',
    )

    const text = await run()
    expect(text.code).toBe(0)
    expect(text.stdout).toContain(
      'Watching 3 wallets by polling: ≈ 1,614 credits/day (48,420/month), 4.8% of the Free plan',
    )
    expect(text.stdout).toMatch(
      /token-account list +every 1 h +144 credits\/day +\(--token-accounts-every\)/,
    )
    expect(text.stdout).toMatch(
      /within 1 h +Someone opens a new token account for the wallet \(an airdrop\)/,
    )
    expect(text.stdout).toContain(
      'A new token account someone else opens for a wallet (what new-token rules wait on): within 1 h while polling at these settings; seconds with webhooks.',
    )
  })

  it('sets a clock, keeps the others, and shows the new cost and bound', async () => {
    const set = await run('--token-accounts-every', '30m', '--json')
    expect(set.code, set.stderr).toBe(0)
    const view = JSON.parse(set.stdout) as WatchCadenceView
    expect(view.cadence).toMatchObject({ tokenAccountsEverySec: 1_800, checkEverySec: 60 })
    expect(view.clocks.find((c) => c.clock === 'tokenAccountsEverySec')?.creditsPerDay).toBe(288)
    expect(view.newAccountSeen).toMatch(/^within 30 min while polling/)
    // Kept: the next show reads the same, and the app's settings hold it.
    const again = JSON.parse((await run('--json')).stdout) as WatchCadenceView
    expect(again.cadence.tokenAccountsEverySec).toBe(1_800)
    const off = JSON.parse((await run('--off', '--json')).stdout) as WatchCadenceView
    expect(off.cadence).toMatchObject({ isWatching: false, tokenAccountsEverySec: 1_800 })
    expect((await run()).stdout).toMatch(/^Watching is off/)
    expect((await run('--on', '--token-accounts-every', '1h')).code).toBe(0)
  })

  it('names the option and the bounds of a value it refuses, and changes nothing', async () => {
    const before = (await run('--json')).stdout
    const word = await run('--token-accounts-every', 'hourly')
    expect(word.code).not.toBe(0)
    expect(word.stderr).toMatch(
      /--token-accounts-every takes a duration such as 90s, 15m, 1h or 2d, or seconds \(got “hourly”\)/,
    )
    const short = await run('--balances-every', '5s')
    expect(short.stderr).toMatch(/--balances-every must be from 15 s to 24 h \(got 5 s\)/)
    const long = await run('--full-check-every', '40d')
    expect(long.stderr).toMatch(/--full-check-every must be from 1 h to 30 days \(got 40 days\)/)
    const both = await run('--on', '--off')
    expect(both.stderr).toMatch(/--on and --off: give one of them, not both/)
    // The full check may not come more often than the balance look.
    const inverted = await run('--balances-every', '2h', '--full-check-every', '1h')
    expect(inverted.code).not.toBe(0)
    expect(inverted.stderr).toMatch(/The cadence was not changed: .*full check/i)
    expect((await run('--json')).stdout).toBe(before)
  })

  it('alerts add --help says how soon new-token fires in each mode', async () => {
    const help = await cli('alerts', 'add', '--help')
    expect(help.stdout).toContain(
      'How soon new-token fires: a token the wallet buys is seen within 1 min; a new token account someone else opens for it, within 1 h while polling at the default settings; seconds with webhooks.',
    )
    expect(help.stdout).toContain('`heliograph watch cadence` shows and sets your cadence')
  })
})
