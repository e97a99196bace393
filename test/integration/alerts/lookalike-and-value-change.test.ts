import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertRuleView, AlertTrial, AlertView } from '../../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { readWalletTruth } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// What no tracker has, tried as a user would: a rule for address poisoning (a new
// counterparty that starts and ends like one the wallet sent to) and one for a move of the
// holdings' value within a window, each added from the command line, each firing once on
// the simulator's scenario (a poisoner's dust; a large airdrop), and each predicted by
// `alerts try` on the same past.

describe('CLI: lookalike and value-change rules', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]
  let wallet: string

  const json = async <T>(args: string[]): Promise<T> => {
    const run = await runCli([...base, ...args, '--json'])
    expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0)
    return JSON.parse(run.stdout) as T
  }
  const sync = async () => {
    const run = await runCli([...base, 'sync', '--once', '--quiet'])
    expect(run.code, run.stderr).toBe(0)
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7 })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    wallet = sim.chain.walletByProfile('casual').address
    expect((await runCli([...base, 'watch', 'add', wallet, '--label', 'Casual'])).code).toBe(0)
    await sync()
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('fires once for a poisoner’s dust and for a jump of the holdings, and alerts try predicts both', async () => {
    const lookalike = await json<AlertRuleView>([
      'alerts',
      'add',
      '--when',
      'lookalike',
      '--wallet',
      wallet,
    ])
    const value = await json<AlertRuleView>([
      'alerts',
      'add',
      '--when',
      'value-change',
      '--pct',
      '10',
      '--window',
      '24h',
      '--wallet',
      wallet,
    ])
    expect(value.options).toEqual({ pct: 10, windowSec: 86_400 })

    // The poisoner imitates the last address the wallet sent to: same first and last four.
    const poisoned = sim.inject(sim.chain.walletByProfile('casual'), { kind: 'address-poisoning' })
    const truth = await readWalletTruth(sim.url, wallet)
    const dust = truth.transfers.find((t) => t.signature === poisoned.signature)
    expect(dust).toBeDefined()
    const poisoner = dust?.counterparty ?? ''
    const imitated = truth.transfers.find(
      (t) =>
        t.counterparty !== poisoner &&
        t.counterparty.slice(0, 4) === poisoner.slice(0, 4) &&
        t.counterparty.slice(-4) === poisoner.slice(-4),
    )
    expect(imitated, 'the poisoner imitates a counterparty of the wallet').toBeDefined()
    // A million dollars of a new token: the holdings' value jumps far past 10%.
    sim.inject(sim.chain.walletByProfile('casual'), {
      kind: 'token-airdrop',
      issue: { symbol: 'BIG', name: 'Big Coin' },
      amountRaw: 1_000_000n * 10n ** 6n,
    })
    await sync()
    await sync()

    const history = await json<AlertView[]>(['alerts', 'history'])
    const fromLookalike = history.filter((a) => a.rule?.id === lookalike.id)
    expect(fromLookalike).toHaveLength(1)
    expect(fromLookalike[0]).toMatchObject({ wallet, signature: poisoned.signature })
    expect(fromLookalike[0]?.text).toContain(
      `Casual dealt with a lookalike address: ${poisoner} looks like ${imitated?.counterparty}`,
    )
    const fromValue = history.filter((a) => a.rule?.id === value.id)
    expect(fromValue).toHaveLength(1)
    expect(fromValue[0]).toMatchObject({ wallet, signature: null })
    expect(fromValue[0]?.text).toMatch(
      /^Casual's holdings rose [\d.]+% within 1 d: \$[\d,.]+ → \$[\d,.]+$/,
    )

    // The trial, on the same past, predicts the same alerts.
    const triedLookalike = await json<AlertTrial>([
      'alerts',
      'try',
      String(lookalike.id),
      '--days',
      '30',
    ])
    expect(triedLookalike.fired).toBe(1)
    expect(triedLookalike.alerts[0]).toMatchObject({
      wallet,
      signature: poisoned.signature,
      text: fromLookalike[0]?.text,
    })
    const triedValue = await json<AlertTrial>(['alerts', 'try', String(value.id), '--days', '30'])
    expect(triedValue.fired).toBe(1)
    expect(triedValue.alerts[0]?.text).toBe(fromValue[0]?.text)
    // And by its options, before saving.
    const unsaved = await json<AlertTrial>([
      'alerts',
      'try',
      '--when',
      'lookalike',
      '--wallet',
      wallet,
      '--days',
      '30',
    ])
    expect(unsaved.fired).toBe(1)
  })
})
