import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AlertDeliverer } from '../../../src-main/alerts/alert-deliverer'
import { ChannelSecrets } from '../../../src-main/alerts/channel-secrets'
import { MemorySecretStore } from '../../../src-main/app/secret-store'
import type { Mirror } from '../../../src-main/db/mirror'
import { openMirror } from '../../../src-main/db/open-mirror'
import type { NewAlert } from '../../../src-main/db/stores/alert-store'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// Delivery per channel: each channel drains its own queue with its own pacing, backoff and
// Retry-After. A receiver that never answers, or asks to wait, holds only its own channel;
// health alerts go first in every queue. Real receivers on loopback, a virtual clock.

const START_MS = Date.parse('2026-11-01T00:00:00Z')
const START_SEC = START_MS / 1000

function ruleAlert(n: number, channels: string[]): NewAlert {
  return {
    kind: 'rule',
    ruleId: 1,
    ruleName: 'Any move',
    healthKind: null,
    walletAddress: 'So11111111111111111111111111111111111111112',
    signature: `sig${n}`,
    firedAtSec: START_SEC,
    text: `Move ${n}`,
    detail: { signatures: [`sig${n}`], amounts: [], transactionKind: 'TRANSFER' },
    deliverAfterSec: START_SEC,
    dedupeKey: `1:sig${n}`,
    channels,
  }
}

function healthAlert(channels: string[]): NewAlert {
  return {
    kind: 'health',
    ruleId: null,
    ruleName: null,
    healthKind: 'key-rejected',
    walletAddress: null,
    signature: null,
    firedAtSec: START_SEC,
    text: 'Syncing stopped: the service rejected the API key (HTTP 401).',
    detail: { signatures: [], amounts: [], transactionKind: null },
    deliverAfterSec: START_SEC,
    dedupeKey: `health:key-rejected:${START_SEC}`,
    channels,
  }
}

const textsOf = (receiver: AlertReceiver): string[] =>
  receiver.received.map((r) => {
    const body = JSON.parse(r.body) as { text: string }
    return body.text
  })

describe('delivery per channel', () => {
  const temp = makeTempDir()
  let mirror: Mirror
  let clock: VirtualClock
  let secrets: ChannelSecrets
  let deliverer: AlertDeliverer
  const receivers: AlertReceiver[] = []

  beforeEach(async () => {
    mirror = await openMirror({ file: join(temp.dir, `m${Math.random()}.sqlite`) })
    clock = new VirtualClock(START_MS)
    secrets = new ChannelSecrets(new MemorySecretStore())
    deliverer = new AlertDeliverer({
      outbox: () => mirror.alerts,
      channels: mirror.notifyChannels,
      secrets,
      desktop: null,
      clock,
      redact: (text) => text,
      random: () => 0.5,
    })
  })
  afterEach(async () => {
    await deliverer.stop()
    for (const r of receivers.splice(0)) await r.close()
    await mirror.close()
  })

  async function channel(
    name: string,
    format: 'json' | 'slack',
    ...answers: Parameters<typeof startAlertReceiver>
  ): Promise<AlertReceiver> {
    const receiver = await startAlertReceiver(...answers)
    receivers.push(receiver)
    await mirror.notifyChannels.add({
      name,
      format,
      urlShown: 'http://127.0.0.1/***',
      chatId: null,
      isPrivateNetworkAllowed: false,
      createdAtSec: START_SEC,
    })
    secrets.set(name, { url: receiver.url })
    return receiver
  }

  it('a receiver that never answers holds only its own channel: the other gets every alert, health too', async () => {
    const stuck = await channel('stuck', 'slack', [], 'hang')
    const ops = await channel('ops', 'json')
    for (let n = 1; n <= 5; n++) await mirror.alerts.insert(ruleAlert(n, ['stuck', 'ops']))
    deliverer.start()

    await expect.poll(() => ops.received.length).toBe(5)
    expect(textsOf(ops)).toEqual(['Move 1', 'Move 2', 'Move 3', 'Move 4', 'Move 5'])
    // The stuck channel got its first message and is still waiting for an answer.
    expect(stuck.received).toHaveLength(1)

    await mirror.alerts.insert(healthAlert(['stuck', 'ops']))
    deliverer.poke()
    await expect.poll(() => ops.received.length).toBe(6)
    expect(JSON.parse(ops.received[5]!.body)).toMatchObject({ healthKind: 'key-rejected' })
    expect(stuck.received).toHaveLength(1)
    const [move1] = await mirror.alerts.views([1])
    expect(move1?.deliveries.find((d) => d.channel === 'ops')?.state).toBe('delivered')
    expect(move1?.deliveries.find((d) => d.channel === 'stuck')?.state).toBe('pending')
  })

  it('sends nothing to a channel before the wait its 429 asked for ends, and goes on after', async () => {
    const team = await channel('team', 'slack', [{ status: 429, headers: { 'Retry-After': '5' } }])
    const ops = await channel('ops', 'json')
    for (let n = 1; n <= 3; n++) await mirror.alerts.insert(ruleAlert(n, ['team', 'ops']))
    deliverer.start()
    await expect.poll(() => team.received.length).toBe(1)
    await expect.poll(() => ops.received.length).toBe(3)

    // Every other alert waits too: no request to the channel until 5 s have passed.
    for (let ms = 0; ms < 4_900; ms += 700) {
      await clock.advance(700)
      expect(team.received).toHaveLength(1)
    }
    await clock.advance(200)
    await expect.poll(() => team.received.length).toBe(2)
    await clock.advance(1_000)
    await expect.poll(() => team.received.length).toBe(3)
    await clock.advance(1_000)
    await expect.poll(() => team.received.length).toBe(4)
    expect(team.received.map((r) => (JSON.parse(r.body) as { text: string }).text)).toEqual([
      'Any move · So11…1112\nMove 1',
      'Any move · So11…1112\nMove 1',
      'Any move · So11…1112\nMove 2',
      'Any move · So11…1112\nMove 3',
    ])
  })

  it('a failing channel backs off as a whole, not once per alert', async () => {
    const down = await channel('down', 'json', [], { status: 503 })
    for (let n = 1; n <= 4; n++) await mirror.alerts.insert(ruleAlert(n, ['down']))
    await deliverer.drain()
    expect(down.received).toHaveLength(1)
    // Ten minutes: the backoff doubles from 30 s (±25%), each wait for the channel as a whole.
    for (let s = 0; s < 600; s += 5) {
      await clock.advance(5_000)
      await deliverer.drain()
    }
    expect(down.received.length).toBeGreaterThanOrEqual(4)
    expect(down.received.length).toBeLessThanOrEqual(6)
    // The oldest alert is retried; the others wait behind it.
    expect(new Set(textsOf(down))).toEqual(new Set(['Move 1']))
  })

  it('a health alert goes ahead of the rule alerts waiting on a paced channel', async () => {
    const team = await channel('team', 'slack')
    for (let n = 1; n <= 4; n++) await mirror.alerts.insert(ruleAlert(n, ['team']))
    const drained = deliverer.drain()
    await expect.poll(() => team.received.length).toBe(1)
    await mirror.alerts.insert(healthAlert(['team']))
    await clock.advance(1_000)
    await expect.poll(() => team.received.length).toBe(2)
    expect((JSON.parse(team.received[1]!.body) as { text: string }).text).toMatch(
      /Syncing stopped: the service rejected the API key/,
    )
    for (let i = 0; i < 3; i++) await clock.advance(1_000)
    await drained
    expect(team.received).toHaveLength(5)
  })
})
