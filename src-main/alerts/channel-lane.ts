import { nowSec as clockNowSec, type Cancel, type Clock } from '@shared/clock'
import type { DesktopAlert, NotifyFormat } from '@shared/ipc/notify-schemas'
import type { AlertStore, DeliveryOutcome, DueDelivery } from '../db/stores/alert-store'
import { DESKTOP_CHANNEL } from '../db/stores/alert-store'
import type { NotifyChannelStore, StoredNotifyChannel } from '../db/stores/notify-channel-store'
import { alertBody, alertTitle, channelRequestOf, type SentAlert } from './channel-messages'
import { postToChannel, POST_TIMEOUT_MS, type PostAnswer } from './channel-post'
import type { ChannelSecrets } from './channel-secrets'
import { judgeAttempt, type AttemptVerdict } from './delivery-policy'

/** Shows an alert on this computer's desktop (the Electron shell), or hands it to the renderer (the web shell). */
export type DesktopNotifier = (alert: DesktopAlert) => void

/** The least time between two messages to one channel: chat services answer bursts with 429s. */
export const PACE_MS: Record<NotifyFormat, number> = {
  slack: 1000,
  // Telegram: about 1 message a second to one chat.
  telegram: 1000,
  // Discord: a few requests per couple of seconds per webhook.
  discord: 1000,
  json: 0,
}
/** How long an attempt holds its delivery: longer than a send can take, so a killed sender's delivery is retried after it. */
const CLAIM_SEC = Math.ceil(POST_TIMEOUT_MS / 1000) * 4
/** Desktop deliveries taken per read (they are shown at once, unpaced). */
const DESKTOP_BATCH = 50

/** Sends one alert to one outbound channel now: the answer, or the network error. */
export async function sendToChannel(
  channel: StoredNotifyChannel,
  secrets: ChannelSecrets,
  alert: SentAlert,
  nowSec: number,
  signal?: AbortSignal,
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
        ...(signal ? { signal } : {}),
      }),
    }
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }
}

/** Where deliveries are read and sent: what a deliverer is built from. */
export interface DeliveryPlaces {
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
  /** Told of alerts as they reach the app (their desktop delivery): the bell and the Alerts page. */
  onShown?: (alertIds: number[]) => void
}

/** What every lane of a deliverer shares. */
export interface LaneContext extends DeliveryPlaces {
  /** For the retries' jitter. */
  random: () => number
  /** Aborts when the deliverer stops: no new attempt starts, and a send under way is cut. */
  signal: AbortSignal
  /** Whether the deliverer runs on its own (then a lane that must wait wakes itself). */
  isStarted: () => boolean
}

/**
 * One channel's queue: its due deliveries, health alerts first, sent one at a time with the
 * channel's own pacing, backoff and Retry-After. A receiver that hangs, fails or asks to
 * wait holds only its own lane; the others go on.
 */
export class ChannelLane {
  readonly #name: string
  readonly #c: LaneContext
  #running: Promise<void> | null = null
  #isAgainAsked = false
  /** When the next message may go, on the clock's steady scale (pacing). */
  #nextSendMs = 0
  /** Until when the channel is left alone (its backoff or the wait it asked for). */
  #waitUntilMs = 0
  /** Failed attempts in a row (429, 5xx, no answer): the channel's backoff grows with them. */
  #failuresInRow = 0
  #wake: Cancel | null = null

  constructor(name: string, context: LaneContext) {
    this.#name = name
    this.#c = context
  }

  /** Sends what is due now on this channel; a run asked for while one is under way follows it. */
  run(): Promise<void> {
    if (this.#running !== null) {
      this.#isAgainAsked = true
      return this.#running
    }
    const run = (async () => {
      do {
        this.#isAgainAsked = false
        await this.#drain()
      } while (this.#isAgainAsked && !this.#c.signal.aborted)
    })()
    this.#running = run.finally(() => {
      this.#running = null
    })
    return this.#running
  }

  /** Cancels a pending wake-up and waits for the run under way. */
  async stop(): Promise<void> {
    this.#wake?.()
    this.#wake = null
    await this.#running?.catch(() => {})
  }

  async #drain(): Promise<void> {
    const outbox = this.#c.outbox()
    if (this.#name === DESKTOP_CHANNEL) return this.#showAll(outbox)
    const channel = await this.#c.channels.get(this.#name)
    for (;;) {
      if (this.#c.signal.aborted || this.#isWaiting()) return
      // One at a time, read afresh after the pace's wait: a health alert raised meanwhile goes next.
      let [due] = await outbox.dueDeliveries(this.#nowSec(), this.#name, 1)
      if (due === undefined) return
      if (channel === null) {
        if (await outbox.claimDelivery(due, this.#nowSec() + CLAIM_SEC))
          await outbox.recordAttempt(due, {
            state: 'gave-up',
            error: `no channel named “${this.#name}” (removed?); add it with \`heliograph notify add\``,
          })
        continue
      }
      const waited = await this.#waitForPace(PACE_MS[channel.format])
      if (waited === 'stopped') return
      if (waited === 'waited') [due] = await outbox.dueDeliveries(this.#nowSec(), this.#name, 1)
      if (due === undefined) return
      await this.#attempt(outbox, channel, due)
    }
  }

  /** Whether the channel must be left alone for now; arms a wake-up for when it may be tried. */
  #isWaiting(): boolean {
    const waitMs = this.#waitUntilMs - this.#c.clock.elapsedMs()
    if (waitMs <= 0) return false
    if (this.#c.isStarted() && this.#wake === null)
      this.#wake = this.#c.clock.setTimeout(
        () => {
          this.#wake = null
          void this.run()
        },
        waitMs,
        { keepsAlive: false },
      )
    return true
  }

  async #attempt(outbox: AlertStore, channel: StoredNotifyChannel, due: DueDelivery) {
    if (!(await outbox.claimDelivery(due, this.#nowSec() + CLAIM_SEC))) return
    const [alert] = await outbox.views([due.alertId])
    if (alert === undefined) return
    const result = await sendToChannel(
      channel,
      this.#c.secrets,
      alert,
      this.#nowSec(),
      this.#c.signal,
    )
    this.#nextSendMs = this.#c.clock.elapsedMs() + PACE_MS[channel.format]
    // Stopped mid-send: the claim runs out and the next run sends it again.
    if (this.#c.signal.aborted) return
    const verdict = judgeAttempt(
      result,
      due.attempts + 1,
      this.#nowSec(),
      this.#c.random,
      this.#failuresInRow + 1,
    )
    if (verdict.verdict === 'delivered') this.#failuresInRow = 0
    if (verdict.verdict === 'retry') {
      this.#failuresInRow += 1
      // No request to this channel, for any alert, before its wait ends.
      this.#waitUntilMs = this.#c.clock.elapsedMs() + verdict.waitSec * 1000
    }
    await outbox.recordAttempt(due, this.#outcomeOf(verdict))
  }

  /** Shows the due alerts on the desktop (or hands them to the pages): once, unpaced. */
  async #showAll(outbox: AlertStore): Promise<void> {
    for (;;) {
      if (this.#c.signal.aborted) return
      const due = await outbox.dueDeliveries(this.#nowSec(), this.#name, DESKTOP_BATCH)
      if (due.length === 0) return
      const shown: number[] = []
      for (const d of due) {
        if (!(await outbox.claimDelivery(d, this.#nowSec() + CLAIM_SEC))) continue
        const [alert] = await outbox.views([d.alertId])
        if (alert === undefined) continue
        this.#c.desktop?.({ alertId: alert.id, title: alertTitle(alert), body: alertBody(alert) })
        await outbox.recordAttempt(d, { state: 'delivered', atSec: this.#nowSec() })
        shown.push(alert.id)
      }
      if (shown.length > 0) this.#c.onShown?.(shown)
      if (due.length < DESKTOP_BATCH) return
    }
  }

  #outcomeOf(verdict: AttemptVerdict): DeliveryOutcome {
    const now = this.#nowSec()
    switch (verdict.verdict) {
      case 'delivered':
        return { state: 'delivered', atSec: now }
      case 'retry':
        return {
          state: 'failed',
          error: this.#c.redact(verdict.reason),
          nextAttemptAtSec: now + verdict.waitSec,
        }
      case 'give-up':
        return { state: 'gave-up', error: this.#c.redact(verdict.reason) }
    }
  }

  /** Waits until the channel's pace allows a message: whether it had to, or was stopped meanwhile. */
  async #waitForPace(paceMs: number): Promise<'now' | 'waited' | 'stopped'> {
    const { clock } = this.#c
    const waitMs = this.#nextSendMs - clock.elapsedMs()
    if (waitMs <= 0 || paceMs <= 0) return 'now'
    try {
      await clock.sleep(waitMs, this.#c.signal)
      return 'waited'
    } catch {
      return 'stopped'
    }
  }

  #nowSec(): number {
    return clockNowSec(this.#c.clock)
  }
}
