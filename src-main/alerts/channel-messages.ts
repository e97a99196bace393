import { createHmac } from 'node:crypto'
import { alertSourceText } from '@shared/domain/alert-words'
import { walletWord } from '@shared/domain/transaction-words'
import type { AlertView } from '@shared/ipc/alert-schemas'
import type { NotifyFormat } from '@shared/ipc/notify-schemas'

// What each outbound format sends for an alert (README, "Alert channels": the json body
// and how a receiver checks its signature). An alert's words hold text from the chain and
// from people (token symbols and names, labels, rule names), already plain one-line text;
// here, at the last step, each format gets it so that it cannot be turned against the
// reader: Slack's control characters escaped (no mention, no disguised link), Discord's
// markdown escaped and its mentions off, Telegram's plain text; the json format carries the
// fields as they are, for the receiver to show as it shows text.

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
/** Discord's message flag that keeps links from unfolding into previews (1 << 2). */
const DISCORD_SUPPRESS_EMBEDS = 4

/** The idempotency key of an alert: stable across retries and processes. */
export function idempotencyKeyOf(alert: { id: number; isTest?: boolean }, nowSec: number): string {
  return alert.isTest === true ? `heliograph-test-${nowSec}` : `heliograph-alert-${alert.id}`
}

/** An alert's one-line title: its rule (or health condition, in words), and the wallet's name. */
export function alertTitle(alert: SentAlert): string {
  const who =
    alert.wallet === null ? null : walletWord({ address: alert.wallet, label: alert.walletLabel })
  const what = alertSourceText(alert)
  return who === null ? what : `${what} · ${who}`
}

/** What an alert says under its title: its text, and how many matches a cool-down gathered. */
export function alertBody(alert: Pick<SentAlert, 'text' | 'matchCount'>): string {
  return `${alert.text}${alert.matchCount > 1 ? ` (latest of ${alert.matchCount} matches)` : ''}`
}

/** The plain text chat channels show: title, then the alert's own text. */
export function chatText(alert: SentAlert): string {
  return `${alertTitle(alert)}\n${alertBody(alert)}`
}

/** Cuts a text to `maxChars`, with "…" (never leaving half of an escape behind). */
function capped(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `${text.slice(0, maxChars - 1).replace(/\\+$|&[a-z]*$/, '')}…`
}

/**
 * Slack's text: `&`, `<` and `>` escaped, as Slack asks of text it must not parse, so no
 * `<!channel>`, `<@U…>` or `<url|text>` in a name pings anyone or disguises a link.
 */
export function slackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/**
 * Discord's content: every markdown character escaped with a backslash (Discord shows it
 * as the character), so `[x](https://evil.example)` is no masked link, `<@…>` no mention
 * and `# title` no heading; mentions are also turned off in the request.
 */
export function discordText(text: string): string {
  return text.replace(/[\\*_~`|[\]()<>#@:-]/g, (c) => `\\${c}`)
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

/** The request for an alert in a channel's format, its text made safe for that format. */
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
      return {
        body: JSON.stringify({ text: capped(slackText(chatText(alert)), SLACK_MAX_CHARS) }),
        headers,
      }
    case 'discord':
      return {
        body: JSON.stringify({
          content: capped(discordText(chatText(alert)), DISCORD_MAX_CHARS),
          // An address or a name in a text must never ping anyone.
          allowed_mentions: { parse: [] },
          // No link previews: an alert is its text.
          flags: DISCORD_SUPPRESS_EMBEDS,
        }),
        headers,
      }
    case 'telegram':
      // Plain text: without parse_mode nothing in it is markup.
      return {
        body: JSON.stringify({
          chat_id: options.chatId,
          text: capped(chatText(alert), TELEGRAM_MAX_CHARS),
          disable_web_page_preview: true,
        }),
        headers,
      }
  }
}
