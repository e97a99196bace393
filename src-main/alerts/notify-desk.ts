import type { Clock } from '@shared/clock'
import { nowSec as clockNowSec } from '@shared/clock'
import { AppError, DuplicateError, NotFoundError } from '@shared/ipc/ipc-errors'
import type { NotifyAddInput } from '@shared/ipc/notify-schemas'
import { type NotifyChannelView, type NotifyTestResult } from '@shared/ipc/notify-schemas'
import type { z } from 'zod'
import type { NotifyChannelStore, StoredNotifyChannel } from '../db/stores/notify-channel-store'
import { sendToChannel } from './channel-lane'
import { checkChannelUrl, shownChannelUrl } from './channel-address'
import type { SentAlert } from './channel-messages'
import type { ChannelSecrets } from './channel-secrets'
import { judgeAttempt } from './delivery-policy'
import { callerRole } from '../sync/spender'

/** Telegram's Bot API: every bot's messages go to sendMessage under its token. */
const TELEGRAM_API = 'https://api.telegram.org'

export interface NotifyDeskOptions {
  channels: NotifyChannelStore
  secrets: ChannelSecrets
  clock: Clock
  redact: (text: string) => string
}

/**
 * Managing outbound alert channels (`notify add|list|remove|test`, the Settings section):
 * the checks a new channel passes, where its secrets go, and the test alert.
 */
export class NotifyDesk {
  readonly #o: NotifyDeskOptions
  constructor(options: NotifyDeskOptions) {
    this.#o = options
  }

  async list(): Promise<NotifyChannelView[]> {
    return (await this.#o.channels.list()).map((c) => this.#view(c))
  }

  /** Checks and adds a channel; its URL and secret go to the secret store, never the mirror. */
  async add(input: z.output<typeof NotifyAddInput>): Promise<NotifyChannelView> {
    if ((await this.#o.channels.get(input.name)) !== null)
      throw new DuplicateError(
        `A channel named “${input.name}” exists; remove it first or choose another name.`,
      )
    const fullUrl = await this.#urlOf(input)
    if (input.secret !== undefined && input.format !== 'json')
      throw new AppError(`--secret signs json bodies only; ${input.format} does not take one.`)
    const channel: StoredNotifyChannel = {
      name: input.name,
      format: input.format,
      urlShown:
        input.format === 'telegram'
          ? `${TELEGRAM_API}/bot***/sendMessage`
          : shownChannelUrl(fullUrl),
      chatId: input.format === 'telegram' ? (input.chatId ?? null) : null,
      isPrivateNetworkAllowed: input.allowPrivateNetwork,
      createdAtSec: clockNowSec(this.#o.clock),
    }
    // The secret first: a channel in the mirror without its URL could not send.
    this.#o.secrets.set(input.name, {
      url: fullUrl.href,
      ...(input.secret !== undefined ? { signingSecret: input.secret } : {}),
    })
    if (!(await this.#o.channels.add(channel)))
      throw new DuplicateError(`A channel named “${input.name}” exists.`)
    return this.#view(channel)
  }

  async #urlOf(input: z.output<typeof NotifyAddInput>): Promise<URL> {
    if (input.format === 'telegram') {
      if (input.botToken === undefined || input.chatId === undefined)
        throw new AppError('A telegram channel takes --bot-token and --chat-id (and no --url).')
      if (input.url !== undefined)
        throw new AppError(
          'A telegram channel takes --bot-token and --chat-id, not --url: its URL is the Bot API’s.',
        )
      if (!/^\d+:[A-Za-z0-9_-]{20,}$/.test(input.botToken))
        throw new AppError(
          '--bot-token does not look like a Telegram bot token (digits, a colon, then letters and digits).',
        )
      return new URL(`${TELEGRAM_API}/bot${input.botToken}/sendMessage`)
    }
    if (input.botToken !== undefined || input.chatId !== undefined)
      throw new AppError(
        `--bot-token and --chat-id are for telegram channels, not ${input.format}.`,
      )
    if (input.url === undefined) throw new AppError(`A ${input.format} channel needs --url.`)
    return checkChannelUrl(input.url, {
      allowPrivateNetwork: input.allowPrivateNetwork,
      // A team account may not point a channel at the server itself; the person at it may.
      isThisMachinesUser: callerRole() === null,
    })
  }

  async remove(name: string): Promise<void> {
    if (!(await this.#o.channels.remove(name)))
      throw new NotFoundError(`No channel named “${name}”.`, { name })
    this.#o.secrets.remove(name)
  }

  /** Sends a test alert to a channel now and says what came of it. */
  async test(name: string): Promise<NotifyTestResult> {
    const channel = await this.#o.channels.get(name)
    if (channel === null) throw new NotFoundError(`No channel named “${name}”.`, { name })
    const nowSec = clockNowSec(this.#o.clock)
    const alert: SentAlert = {
      id: 0,
      kind: 'rule',
      rule: null,
      healthKind: null,
      wallet: null,
      walletLabel: null,
      signature: null,
      firedAt: new Date(nowSec * 1000).toISOString(),
      text: `Test alert from Heliograph to the channel “${name}”: it works.`,
      matchCount: 1,
      amounts: [],
      isTest: true,
    }
    const result = await sendToChannel(channel, this.#o.secrets, alert, nowSec)
    // One attempt, never retried: whatever is not delivered is reported as it is.
    const verdict = judgeAttempt(result, 1, nowSec, () => 0)
    return {
      name,
      isDelivered: verdict.verdict === 'delivered',
      status: verdict.status,
      error: verdict.verdict === 'delivered' ? null : this.#o.redact(verdict.reason),
    }
  }

  #view(c: StoredNotifyChannel): NotifyChannelView {
    return {
      name: c.name,
      format: c.format,
      urlShown: c.urlShown,
      chatId: c.chatId,
      isPrivateNetworkAllowed: c.isPrivateNetworkAllowed,
      isSigned: this.#o.secrets.get(c.name)?.signingSecret !== undefined,
      createdAt: new Date(c.createdAtSec * 1000).toISOString(),
    }
  }
}
