import { createHmac } from 'node:crypto'
import { shortAddress } from '@shared/domain/wallet-address'
import type { AlertView } from '@shared/ipc/alert-schemas'
import type { NotifyFormat } from '@shared/ipc/notify-schemas'

// What each outbound format sends for an alert (README, "Alert channels": the json body
// and how a receiver checks its signature).

/** The json format's body: the alert as the app shows it, with the key receivers dedupe on. */
export interface JsonAlertBody {
  id: number
  /** The same on every attempt of this alert: `heliograph-alert-<id>`. */
  idempotencyKey: string
  kind: AlertView['kind']
  rule: AlertView['rule']
  healthKind: string | null
  wallet: string | null
  walletLabel: string | null
  signature: string | null
  firedAt: string
  text: string
  amounts: AlertView['amounts']
  matchCount: number
  /** True only for `notify test`. */
  isTest: boolean
}

/** An alert to send: the outbox's view of it, or a test alert. */
export type SentAlert = Omit<AlertView, 'isRead' | 'deliveries'> & { isTest?: boolean }

/** Discord's limit on a message's content; Telegram's on a message's text. */
const DISCORD_MAX_CHARS = 2000
const TELEGRAM_MAX_CHARS = 4096
/** Slack shows long texts cut anyway: alerts stay short. */
const SLACK_MAX_CHARS = 3000

/** The idempotency key of an alert: stable across retries and processes. */
export function idempotencyKeyOf(alert: { id: number; isTest?: boolean }, nowSec: number): string {
  return alert.isTest === true ? `heliograph-test-${nowSec}` : `heliograph-alert-${alert.id}`
}

/** An alert's one-line title: its rule (or health), and the wallet's name. */
export function alertTitle(alert: SentAlert): string {
  const what =
    alert.rule?.name ?? (alert.healthKind !== null ? `Health: ${alert.healthKind}` : 'Heliograph')
  const who = alert.walletLabel ?? (alert.wallet !== null ? shortAddress(alert.wallet) : null)
  return who === null ? what : `${what} · ${who}`
}

/** The plain text chat channels show: title, then the alert's own text. */
export function chatText(alert: SentAlert, maxChars: number): string {
  const text = `${alertTitle(alert)}\n${alert.text}${alert.matchCount > 1 ? ` (${alert.matchCount} matches)` : ''}`
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`
}

/** The json body of an alert. */
export function jsonBodyOf(alert: SentAlert, idempotencyKey: string): JsonAlertBody {
  return {
    id: alert.id,
    idempotencyKey,
    kind: alert.kind,
    rule: alert.rule,
    healthKind: alert.healthKind,
    wallet: alert.wallet,
    walletLabel: alert.walletLabel,
    signature: alert.signature,
    firedAt: alert.firedAt,
    text: alert.text,
    amounts: alert.amounts,
    matchCount: alert.matchCount,
    isTest: alert.isTest === true,
  }
}

/** `sha256=<hex>`: HMAC-SHA256 of `<timestamp>.<body>` under the channel's secret. */
export function signatureOf(secret: string, timestampSec: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSec}.${body}`).digest('hex')}`
}

/** One request to a channel: its body and headers. */
export interface ChannelRequest {
  body: string
  headers: Record<string, string>
}

/**
 * The request for an alert in a channel's format. Chat formats send plain text (no
 * parse_mode: nothing in an alert's text needs escaping then).
 */
export function channelRequestOf(
  format: NotifyFormat,
  alert: SentAlert,
  options: { nowSec: number; signingSecret?: string | undefined; chatId?: string | null },
): ChannelRequest {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  const key = idempotencyKeyOf(alert, options.nowSec)
  switch (format) {
    case 'json': {
      const body = JSON.stringify(jsonBodyOf(alert, key))
      headers['Heliograph-Idempotency-Key'] = key
      headers['Heliograph-Timestamp'] = String(options.nowSec)
      if (options.signingSecret !== undefined)
        headers['Heliograph-Signature'] = signatureOf(options.signingSecret, options.nowSec, body)
      return { body, headers }
    }
    case 'slack':
      return { body: JSON.stringify({ text: chatText(alert, SLACK_MAX_CHARS) }), headers }
    case 'discord':
      return {
        body: JSON.stringify({
          content: chatText(alert, DISCORD_MAX_CHARS),
          // An address or a name in a text must never ping anyone.
          allowed_mentions: { parse: [] },
        }),
        headers,
      }
    case 'telegram':
      return {
        body: JSON.stringify({
          chat_id: options.chatId,
          text: chatText(alert, TELEGRAM_MAX_CHARS),
          disable_web_page_preview: true,
        }),
        headers,
      }
  }
}
