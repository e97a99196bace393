import { z } from 'zod'
import { ChannelName } from '../domain/alert-rules'

// Outbound alert channels as the app, the CLI and the team server see them: never their
// secrets (a Slack or Discord URL's path, a Telegram bot token, an HMAC secret).

/** How an outbound channel's messages are shaped. */
export const NotifyFormat = z.enum(['json', 'slack', 'discord', 'telegram'])
export type NotifyFormat = z.infer<typeof NotifyFormat>

/** One outbound channel, as listed: the URL with its secret parts removed. */
export const NotifyChannelView = z.object({
  name: z.string(),
  format: NotifyFormat,
  /** Scheme and host, the path redacted: `https://hooks.slack.com/***`. */
  urlShown: z.string(),
  /** Telegram's chat id; null for the other formats. */
  chatId: z.string().nullable(),
  /** Whether an admin allowed this channel to reach a private-network address. */
  isPrivateNetworkAllowed: z.boolean(),
  /** Whether a signing secret is set (json). */
  isSigned: z.boolean(),
  /** ISO-8601 UTC. */
  createdAt: z.string(),
})
export type NotifyChannelView = z.infer<typeof NotifyChannelView>

const Secret = z.string().trim().min(1).max(500)

/**
 * A channel to add. `url` for json, slack and discord; Telegram takes `botToken` and
 * `chatId` instead (its URL is the Bot API's sendMessage). `secret` signs json bodies.
 */
export const NotifyAddInput = z.strictObject({
  name: ChannelName,
  format: NotifyFormat,
  url: z.string().trim().min(1).max(2000).optional(),
  secret: Secret.optional(),
  botToken: Secret.optional(),
  chatId: z
    .string()
    .trim()
    .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{4,64})$/, 'a numeric chat id or an @channel name')
    .optional(),
  /** Lets the URL reach a private-network address (10/8, 192.168/16, …): an admin's choice. */
  allowPrivateNetwork: z.boolean().default(false),
})
export type NotifyAddInput = z.input<typeof NotifyAddInput>

/** A channel by its name. */
export const NotifyNameInput = z.strictObject({ name: ChannelName })
export type NotifyNameInput = z.input<typeof NotifyNameInput>

/** What sending a test alert to a channel gave. */
export const NotifyTestResult = z.object({
  name: z.string(),
  isDelivered: z.boolean(),
  /** The receiver's HTTP status; null when no answer came. */
  status: z.number().int().nullable(),
  /** Why it was not delivered (secrets removed); null when it was. */
  error: z.string().nullable(),
})
export type NotifyTestResult = z.infer<typeof NotifyTestResult>

/** A desktop notification of an alert, pushed to a renderer that shows it (the web shell). */
export const DesktopAlert = z.object({
  alertId: z.number().int(),
  title: z.string(),
  body: z.string(),
})
export type DesktopAlert = z.infer<typeof DesktopAlert>
