import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertView } from '../../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { runCli, startCliInProcess } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// Issue 30's "tried as a user would": a rule on one wallet with an outbound channel to a
// receiver on loopback fires once for that wallet's new transaction while
// `heliograph sync --every 15` runs; a rule whose threshold is not met fires nothing for
// the other wallet's activity; `alerts history --json` holds what fired and where it went.
// The rule also tells a Slack-format channel whose receiver never answers: that one channel
// waits, and the json receiver still gets the alert within the cadence.

const CADENCE_SEC = 15
const STEP_MS = 250

async function advance(clock: VirtualClock, ms: number): Promise<void> {
  const endMs = clock.nowMs() + ms
  while (clock.nowMs() < endMs) {
    await clock.advance(Math.min(STEP_MS, endMs - clock.nowMs()))
    await sleep(5)
  }
}

async function advanceUntil(clock: VirtualClock, condition: () => boolean, limitMs: number) {
  const startMs = clock.nowMs()
  while (!condition()) {
    if (clock.nowMs() - startMs > limitMs) throw new Error(`not within ${limitMs} virtual ms`)
    await advance(clock, STEP_MS)
  }
}

describe('alerts as a user tries them: sync --every, a rule per wallet, a receiver', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let receiver: AlertReceiver
  let stuck: AlertReceiver
  let base: string[]
  const cli = async (...args: string[]) => {
    const run = await runCli([...base, ...args])
    expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(0)
    return run.stdout
  }

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5 })
    receiver = await startAlertReceiver()
    stuck = await startAlertReceiver([], 'hang')
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    await cli('watch', 'add', sim.chain.walletByProfile('casual').address, '--label', 'W1')
    await cli('watch', 'add', sim.chain.walletByProfile('idle').address, '--label', 'W2')
    await cli('sync', '--once', '--quiet')
    await cli('notify', 'add', 'ops', '--format', 'json', '--url', receiver.url, '--secret', 'k3y')
    await cli('notify', 'add', 'stuck', '--format', 'slack', '--url', stuck.url)
  })
  afterAll(async () => {
    await receiver.close()
    await stuck.close()
    await sim.close()
    temp.remove()
  })

  it('fires once for W1’s new transaction, to the receiver, and nothing for W2 under the threshold', async () => {
    const w1 = sim.chain.walletByProfile('casual')
    const w2 = sim.chain.walletByProfile('idle')
    await cli(
      'alerts',
      'add',
      '--when',
      'activity',
      '--wallet',
      w1.address,
      '--notify',
      'stuck',
      '--notify',
      'ops',
    )
    await cli(
      'alerts',
      'add',
      '--when',
      'incoming',
      '--wallet',
      w2.address,
      '--min-usd',
      '1000000000',
      '--notify',
      'ops',
    )
    const clock = new VirtualClock()
    let airdrop: { signature: string } | undefined
    let w1Signature: string | undefined
    const watching = startCliInProcess(
      [...base, 'sync', '--quiet', '--every', String(CADENCE_SEC)],
      {
        clock,
      },
    )
    try {
      for (let tries = 0; !watching.stderr.includes('Watching 2 wallets'); tries++) {
        if (tries > 600) throw new Error(`never started watching:\n${watching.stderr}`)
        await sleep(10)
      }
      const [signature] = sim.addActivity(w1, 1)
      w1Signature = signature
      airdrop = sim.inject(w2, { kind: 'token-airdrop' })
      await advanceUntil(clock, () => receiver.received.length > 0, 4 * CADENCE_SEC * 1_000)
      // Another few cadences: W2's airdrop is synced too, and nothing else arrives.
      await advance(clock, 4 * CADENCE_SEC * 1_000)
      expect(receiver.received).toHaveLength(1)
      const body = JSON.parse(receiver.received[0]?.body ?? '{}') as {
        wallet: string
        signature: string
        idempotencyKey: string
      }
      expect(body).toMatchObject({ wallet: w1.address, signature })
      expect(receiver.received[0]?.headers['heliograph-idempotency-key']).toBe(body.idempotencyKey)

      const history = JSON.parse(await cli('alerts', 'history', '--json')) as AlertView[]
      expect(history).toHaveLength(1)
      expect(history[0]).toMatchObject({ wallet: w1.address, signature })
      expect(history[0]?.deliveries.find((d) => d.channel === 'ops')?.state).toBe('delivered')
      // The stuck receiver got the alert and never answered: only its own delivery waits.
      await expect.poll(() => stuck.received.length).toBe(1)
      expect(history[0]?.deliveries.find((d) => d.channel === 'stuck')?.state).not.toBe('delivered')
    } finally {
      watching.signal('SIGTERM')
      expect(await watching.exited).toBe(0)
    }
    // The feed holds both wallets' new transactions: W2's was seen, and its rule stayed quiet.
    const feed = JSON.parse(await cli('feed', '--json', '--limit', '20')) as {
      signature: string
      wallet: string
    }[]
    expect(feed).toContainEqual(
      expect.objectContaining({ signature: w1Signature, wallet: w1.address }),
    )
    expect(feed).toContainEqual(
      expect.objectContaining({ signature: airdrop?.signature, wallet: w2.address }),
    )
  })
})
