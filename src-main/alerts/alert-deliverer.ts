import { nowSec as clockNowSec, type Cancel, type Clock } from '@shared/clock'
import type { DesktopAlert, NotifyFormat } from '@shared/ipc/notify-schemas'
import type { AlertStore, DueDelivery } from '../db/stores/alert-store'
import { DESKTOP_CHANNEL } from '../db/stores/alert-store'
import type { NotifyChannelStore, StoredNotifyChannel } from '../db/stores/notify-channel-store'
import { alertTitle, channelRequestOf, type SentAlert } from './channel-messages'
import { postToChannel, POST_TIMEOUT_MS, type PostAnswer } from './channel-post'
import type { ChannelSecrets } from './channel-secrets'
import { judgeAttempt, type AttemptVerdict } from './delivery-policy'

/** Shows an alert on this computer's desktop (the Electron shell), or hands it to the renderer (the web shell). */
export type DesktopNotifier = (alert: DesktopAlert) => void

/** The least time between two messages to one channel: chat services answer bursts with 429s. */
const PACE_MS: Record<NotifyFormat, number> = {
  slack: 1000,
  // Telegram: about 1 message a second to one chat.
  telegram: 1000,
  // Discord: a few requests per couple of seconds per webhook.
  discord: 1000,
  json: 0,
}
/** How long an attempt holds its delivery: longer than a send can take, so a killed sender's delivery is retried after it. */
const CLAIM_SEC = Math.ceil(POST_TIMEOUT_MS / 1000) * 4
/** Deliveries taken per pass over the outbox. */
const BATCH = 50
/** How often the outbox is looked at, besides pokes. */
export const DELIVERY_POLL_MS = 2000

/** Sends one alert to one outbound channel now: the answer, or the network error. */
export async function sendToChannel(
  channel: StoredNotifyChannel,
  secrets: ChannelSecrets,
  alert: SentAlert,
  nowSec: number,
): Promise<{ answer: PostAnswer } | { error: Error }> {
  const secret = secrets.get(channel.name)
  if (secret === null)
    return {
      error: new Error(`the channel's URL is not stored here any more; remove it and add it again`),
    }
  const url = new URL(secret.url)
  const request = channelRequestOf(channel.format, alert, {
    nowSec,
    signingSecret: secret.signingSecret,
    chatId: channel.chatId,
  })
  try {
    return {
      answer: await postToChannel(url, request.body, request.headers, {
        allowPrivateNetwork: channel.isPrivateNetworkAllowed,
      }),
    }
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }
}

export interface AlertDelivererOptions {
  /** The outbox of the mirror shown now (it changes with the data source). */
  outbox: () => AlertStore
  /** The outbound channels (kept in the person's own mirror). */
  channels: NotifyChannelStore
  secrets: ChannelSecrets
  /**
   * Shows desktop deliveries; null where this process has no desktop (the CLI): they are
   * then marked delivered without being shown, the alert being in the app's history.
   */
  desktop: DesktopNotifier | null
  clock: Clock
  /** Removes every secret the process holds from a text (errors kept in the delivery log). */
  redact: (text: string) => string
  /** For the retries' jitter; tests pass a fixed one. */
  random?: () => number
}

/**
 * Drains the alert outbox to its channels: each due delivery is taken, sent and its
 * outcome recorded (the delivery log). A delivery is marked delivered only after the
 * receiver's 2xx, so a process killed at any point sends it again after its restart:
 * outside the app at least once, with the same idempotency key; the desktop once.
 */
export class AlertDeliverer {
  readonly #o: AlertDelivererOptions
  readonly #random: () => number
  /** When each channel may next be sent to, on the clock's steady scale. */
  readonly #nextSendMs = new Map<string, number>()
  #running: Promise<void> | null = null
  #isAgainAsked = false
  #timer: Cancel | null = null
  #stopping: AbortController | null = null

  constructor(options: AlertDelivererOptions) {
    this.#o = options
    this.#random = options.random ?? Math.random
  }

  /** Delivers what is due now (what a killed process left too), then looks again every {@link DELIVERY_POLL_MS}. */
  start(): void {
    if (this.#stopping !== null) return
    this.#stopping = new AbortController()
    this.#tick()
  }

  #tick(): void {
    void this.drain()
      .catch(() => {
        // A storage failure here is the mirror's, reported where it is used; try again later.
      })
      .finally(() => {
        if (this.#stopping === null || this.#stopping.signal.aborted) return
        this.#timer = this.#o.clock.setTimeout(() => this.#tick(), DELIVERY_POLL_MS, {
          keepsAlive: false,
        })
      })
  }

  /** Looks at the outbox now (an alert was just written). */
  poke(): void {
    if (this.#stopping === null || this.#stopping.signal.aborted) return
    this.#timer?.()
    this.#tick()
  }

  /** Stops looking and waits for the pass under way. */
  async stop(): Promise<void> {
    this.#stopping?.abort(new Error('stopped'))
    this.#timer?.()
    this.#timer = null
    await this.#running?.catch(() => {})
  }

  /** One pass over the due deliveries; a pass asked for while one runs follows it. */
  drain(): Promise<void> {
    if (this.#running !== null) {
      this.#isAgainAsked = true
      return this.#running
    }
    const run = (async () => {
      do {
        this.#isAgainAsked = false
        while (await this.#pass()) {
          // A full batch: more may be due.
        }
      } while (this.#isAgainAsked)
    })()
    this.#running = run.finally(() => {
      this.#running = null
    })
    return this.#running
  }

  /** Sends one batch; resolves to whether it was full. */
  async #pass(): Promise<boolean> {
    const outbox = this.#o.outbox()
    const due = await outbox.dueDeliveries(this.#nowSec(), BATCH)
    const byChannel = new Map<string, DueDelivery[]>()
    for (const d of due) byChannel.set(d.channel, [...(byChannel.get(d.channel) ?? []), d])
    await Promise.all(
      [...byChannel].map(([channel, list]) => this.#deliverInOrder(outbox, channel, list)),
    )
    return due.length === BATCH && this.#stopping?.signal.aborted !== true
  }

  async #deliverInOrder(
    outbox: AlertStore,
    channelName: string,
    due: DueDelivery[],
  ): Promise<void> {
    const channel = channelName === DESKTOP_CHANNEL ? null : await this.#o.channels.get(channelName)
    for (const d of due) {
      if (this.#stopping?.signal.aborted === true) return
      if (!(await outbox.claimDelivery(d, this.#nowSec() + CLAIM_SEC))) continue
      const [alert] = await outbox.views([d.alertId])
      if (alert === undefined) continue
      if (channelName === DESKTOP_CHANNEL) {
        this.#o.desktop?.({ alertId: alert.id, title: alertTitle(alert), body: alert.text })
        await outbox.recordAttempt(d, { state: 'delivered', atSec: this.#nowSec() })
        continue
      }
      if (channel === null) {
        await outbox.recordAttempt(d, {
          state: 'gave-up',
          error: `no channel named “${channelName}” (removed?); add it with \`heliograph notify add\``,
        })
        continue
      }
      if (!(await this.#waitForPace(channel))) return
      const result = await sendToChannel(channel, this.#o.secrets, alert, this.#nowSec())
      const verdict = judgeAttempt(result, d.attempts + 1, this.#nowSec(), this.#random)
      await outbox.recordAttempt(d, this.#outcomeOf(verdict))
    }
  }

  #outcomeOf(verdict: AttemptVerdict) {
    const now = this.#nowSec()
    switch (verdict.verdict) {
      case 'delivered':
        return { state: 'delivered' as const, atSec: now }
      case 'retry':
        return {
          state: 'failed' as const,
          error: this.#o.redact(verdict.reason),
          nextAttemptAtSec: now + verdict.waitSec,
        }
      case 'give-up':
        return { state: 'gave-up' as const, error: this.#o.redact(verdict.reason) }
    }
  }

  /** Waits until the channel may be sent to; false when stopped meanwhile. */
  async #waitForPace(channel: StoredNotifyChannel): Promise<boolean> {
    const { clock } = this.#o
    const waitMs = (this.#nextSendMs.get(channel.name) ?? 0) - clock.elapsedMs()
    if (waitMs > 0) {
      try {
        await clock.sleep(waitMs, this.#stopping?.signal)
      } catch {
        return false
      }
    }
    this.#nextSendMs.set(channel.name, clock.elapsedMs() + PACE_MS[channel.format])
    return true
  }

  #nowSec(): number {
    return clockNowSec(this.#o.clock)
  }
}
