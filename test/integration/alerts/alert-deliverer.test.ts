import { createHmac, timingSafeEqual } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AlertDeliverer } from '../../../src-main/alerts/alert-deliverer'
import { ChannelSecrets } from '../../../src-main/alerts/channel-secrets'
import { FIRST_BACKOFF_SEC, MAX_DELIVERY_ATTEMPTS } from '../../../src-main/alerts/delivery-policy'
import { MemorySecretStore } from '../../../src-main/app/secret-store'
import type { Mirror } from '../../../src-main/db/mirror'
import { openMirror } from '../../../src-main/db/open-mirror'
import type { NewAlert } from '../../../src-main/db/stores/alert-store'
import type { DesktopAlert } from '../../../src-shared/ipc/notify-schemas'
import { startAlertReceiver, type AlertReceiver } from '../../helpers/alert-receiver'
import { makeTempDir } from '../../helpers/temp-dir'
import { VirtualClock } from '../../helpers/virtual-clock'

// The deliverer against a real receiver on loopback, on a virtual clock: what is
// delivered, retried, waited for and given up, and what the receiver can check.

const SECRET = 'whsec-test-5e3c7a'
const START_MS = Date.parse('2026-11-01T00:00:00Z')

function alertFor(channels: string[], n = 1): NewAlert {
  return {
    kind: 'rule',
    ruleId: 7,
    ruleName: 'Treasury outflows',
    healthKind: null,
    walletAddress: 'So11111111111111111111111111111111111111112',
    signature: `sig${n}`,
    firedAtSec: START_MS / 1000,
    text: `Sent 12,000 USDC to sunny.sol (${n})`,
    detail: { signatures: [`sig${n}`], amounts: [], transactionKind: 'TRANSFER' },
    deliverAfterSec: START_MS / 1000,
    dedupeKey: `7:sig${n}`,
    channels,
  }
}

describe('alert deliverer', () => {
  const temp = makeTempDir()
  let mirror: Mirror
  let receiver: AlertReceiver
  let clock: VirtualClock
  let secrets: ChannelSecrets
  let shown: DesktopAlert[]
  let deliverer: AlertDeliverer

  beforeEach(async () => {
    mirror = await openMirror({ file: join(temp.dir, `m${Math.random()}.sqlite`) })
    receiver = await startAlertReceiver()
    clock = new VirtualClock(START_MS)
    secrets = new ChannelSecrets(new MemorySecretStore())
    shown = []
    deliverer = new AlertDeliverer({
      outbox: () => mirror.alerts,
      channels: mirror.notifyChannels,
      secrets,
      desktop: (alert) => shown.push(alert),
      clock,
      redact: (text) => text.split(SECRET).join('***'),
      random: () => 0.5,
    })
  })
  afterEach(async () => {
    await deliverer.stop()
    await receiver.close()
    await mirror.close()
  })

  async function addChannel(name: string, format: 'json' | 'slack' | 'discord' | 'telegram') {
    await mirror.notifyChannels.add({
      name,
      format,
      urlShown: 'http://127.0.0.1/***',
      chatId: format === 'telegram' ? '4242' : null,
      isPrivateNetworkAllowed: false,
      createdAtSec: START_MS / 1000,
    })
    secrets.set(name, {
      url: receiver.url,
      ...(format === 'json' ? { signingSecret: SECRET } : {}),
    })
  }

  async function deliveryOf(alertId: number, channel: string) {
    const [view] = await mirror.alerts.views([alertId])
    return view?.deliveries.find((d) => d.channel === channel)
  }

  it('signs the json body so the receiver can verify it, and marks it delivered after the 2xx', async () => {
    await addChannel('ops', 'json')
    const id = (await mirror.alerts.insert(alertFor(['ops']))) as number
    await deliverer.drain()

    expect(receiver.received).toHaveLength(1)
    const [post] = receiver.received
    const timestamp = post!.headers['heliograph-timestamp'] as string
    const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${post!.body}`).digest('hex')}`
    const sent = post!.headers['heliograph-signature'] as string
    expect(timingSafeEqual(Buffer.from(sent), Buffer.from(expected))).toBe(true)
    expect(Number(timestamp)).toBe(START_MS / 1000)
    expect(post!.headers['content-type']).toBe('application/json')
    const body = JSON.parse(post!.body) as Record<string, unknown>
    expect(body).toMatchObject({
      id,
      idempotencyKey: `heliograph-alert-${id}`,
      kind: 'rule',
      rule: { id: 7, name: 'Treasury outflows' },
      wallet: 'So11111111111111111111111111111111111111112',
      signature: 'sig1',
      text: 'Sent 12,000 USDC to sunny.sol (1)',
      matchCount: 1,
      isTest: false,
    })
    expect(post!.headers['heliograph-idempotency-key']).toBe(`heliograph-alert-${id}`)
    expect(await deliveryOf(id, 'ops')).toMatchObject({ state: 'delivered', attempts: 1 })
    // The desktop channel: shown once, delivered.
    expect(shown.map((s) => s.alertId)).toEqual([id])
    expect(await deliveryOf(id, 'desktop')).toMatchObject({ state: 'delivered' })

    await clock.advance(3_600_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)
    expect(shown).toHaveLength(1)
  })

  it('retries a 500 after a backoff with the same idempotency key, then is delivered', async () => {
    await addChannel('ops', 'json')
    receiver.answers.push({ status: 500, body: 'upstream down' })
    const id = (await mirror.alerts.insert(alertFor(['ops']))) as number
    await deliverer.drain()
    expect(await deliveryOf(id, 'ops')).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: 'HTTP 500: upstream down',
    })

    // Not before the backoff (30 s, jittered by ±25%).
    await clock.advance((FIRST_BACKOFF_SEC * 0.75 - 1) * 1000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)

    await clock.advance(FIRST_BACKOFF_SEC * 0.5 * 1000 + 2000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(2)
    const keys = receiver.received.map((r) => r.headers['heliograph-idempotency-key'])
    expect(keys).toEqual([`heliograph-alert-${id}`, `heliograph-alert-${id}`])
    expect(await deliveryOf(id, 'ops')).toMatchObject({
      state: 'delivered',
      attempts: 2,
      lastError: null,
    })
  })

  it('waits as long as a 429’s Retry-After asks', async () => {
    await addChannel('team', 'slack')
    receiver.answers.push({ status: 429, headers: { 'Retry-After': '300' } })
    const id = (await mirror.alerts.insert(alertFor(['team']))) as number
    await deliverer.drain()
    expect(await deliveryOf(id, 'team')).toMatchObject({ state: 'failed', attempts: 1 })

    await clock.advance(299_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)

    await clock.advance(1_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(2)
    expect(JSON.parse(receiver.received[1]!.body)).toEqual({
      text: 'Treasury outflows · So11…1112\nSent 12,000 USDC to sunny.sol (1)',
    })
    expect(await deliveryOf(id, 'team')).toMatchObject({ state: 'delivered', attempts: 2 })
  })

  it('honours Telegram’s parameters.retry_after and sends chat_id, text and no preview', async () => {
    await addChannel('phone', 'telegram')
    receiver.answers.push({
      status: 429,
      body: JSON.stringify({ ok: false, error_code: 429, parameters: { retry_after: 45 } }),
    })
    const id = (await mirror.alerts.insert(alertFor(['phone']))) as number
    await deliverer.drain()
    await clock.advance(44_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)
    await clock.advance(1_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(2)
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
      chat_id: '4242',
      disable_web_page_preview: true,
    })
    expect(await deliveryOf(id, 'phone')).toMatchObject({ state: 'delivered' })
  })

  it('gives up on a 400 with the receiver’s reason, and never sends it again', async () => {
    await addChannel('chat', 'discord')
    receiver.answers.push({
      status: 400,
      body: JSON.stringify({ message: `Invalid Webhook Token ${SECRET}` }),
    })
    const id = (await mirror.alerts.insert(alertFor(['chat']))) as number
    await deliverer.drain()
    const delivery = await deliveryOf(id, 'chat')
    expect(delivery).toMatchObject({
      state: 'gave-up',
      attempts: 1,
      lastError: 'HTTP 400: Invalid Webhook Token ***',
    })
    await clock.advance(24 * 3_600_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)
  })

  it(`gives up after ${MAX_DELIVERY_ATTEMPTS} failed attempts`, async () => {
    await addChannel('ops', 'json')
    receiver.answers.push(...Array.from({ length: 20 }, () => ({ status: 503 })))
    const id = (await mirror.alerts.insert(alertFor(['ops']))) as number
    for (let i = 0; i < 20; i++) {
      await deliverer.drain()
      await clock.advance(30 * 60_000)
    }
    expect(receiver.received).toHaveLength(MAX_DELIVERY_ATTEMPTS)
    expect(await deliveryOf(id, 'ops')).toMatchObject({
      state: 'gave-up',
      attempts: MAX_DELIVERY_ATTEMPTS,
      lastError: `HTTP 503 (after ${MAX_DELIVERY_ATTEMPTS} attempts)`,
    })
  })

  it('paces a burst to a chat channel: one message a second', async () => {
    await addChannel('team', 'slack')
    for (let n = 1; n <= 3; n++) await mirror.alerts.insert(alertFor(['team'], n))
    const drained = deliverer.drain()
    await expect.poll(() => receiver.received.length).toBe(1)
    await clock.advance(999)
    expect(receiver.received).toHaveLength(1)
    await clock.advance(1)
    await expect.poll(() => receiver.received.length).toBe(2)
    await clock.advance(1000)
    await drained
    expect(receiver.received).toHaveLength(3)
  })

  it('keeps an alert in its cool-down until deliver_after_sec', async () => {
    await addChannel('ops', 'json')
    await mirror.alerts.insert({ ...alertFor(['ops']), deliverAfterSec: START_MS / 1000 + 600 })
    await deliverer.drain()
    expect(receiver.received).toHaveLength(0)
    await clock.advance(600_000)
    await deliverer.drain()
    expect(receiver.received).toHaveLength(1)
  })

  it('started, delivers what was pending already', async () => {
    await addChannel('ops', 'json')
    await mirror.alerts.insert(alertFor(['ops']))
    deliverer.start()
    await expect.poll(() => receiver.received.length).toBe(1)
  })
})
