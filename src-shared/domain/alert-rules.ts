import { z } from 'zod'
import { shortAddress, WalletAddressInput } from './wallet-address'

// What an alert rule is, in one place: the CLI's `alerts add`, the IPC channels, the rule
// editor and the evaluator all read rules through these schemas.

/** What a rule watches for. */
export const AlertTrigger = z.enum([
  /** Any new transaction. */
  'activity',
  /** A new transaction that brought the wallet a token (optionally this token, this much). */
  'incoming',
  /** A new transaction that took a token from the wallet. */
  'outgoing',
  /** A holding went below a threshold (crossing, not while it stays below). */
  'balance-below',
  /** A holding went above a threshold. */
  'balance-above',
  /** A mint the wallet never held before arrived. */
  'new-token',
  /** An NFT (a 0-decimal token moving by 1) arrived. */
  'nft-in',
  /** An NFT left. */
  'nft-out',
  /** A transaction of one of these types (SWAP, TRANSFER, NFT_SALE, …). */
  'type',
  /** A failed transaction. */
  'failed',
  /** The first transaction after the wallet was idle for N days. */
  'wakes',
  /** A transfer with an address this wallet never dealt with. */
  'new-counterparty',
  /** N different wallets of the scope received the same token within a window. */
  'cluster',
])
export type AlertTrigger = z.infer<typeof AlertTrigger>

/** The longest cool-down and cluster window: a week. */
export const MAX_ALERT_WINDOW_SEC = 7 * 24 * 3600

const PositiveAmount = z.number().finite().positive()
const NonNegativeAmount = z.number().finite().nonnegative()

/**
 * A trigger's options. Amounts are in the token's own units (decimals applied); `token` is
 * a mint address or a symbol (matched without regard to case). Every field is optional
 * here; `describeRuleProblem` says which a trigger needs.
 */
export const AlertRuleOptions = z.strictObject({
  token: z.string().trim().min(1).max(64).optional(),
  /** incoming/outgoing: at least this much; balance-above: the threshold. */
  min: NonNegativeAmount.optional(),
  /** balance-below: the threshold. */
  max: NonNegativeAmount.optional(),
  /** incoming/outgoing/activity: at least this many US dollars (where a price is known). */
  minUsd: NonNegativeAmount.optional(),
  /** balance-below in US dollars. */
  maxUsd: NonNegativeAmount.optional(),
  /** type: the transaction types that fire. */
  types: z
    .array(z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'a type is written in capitals, e.g. SWAP'))
    .min(1)
    .max(50)
    .optional(),
  /** wakes: idle for at least this many days. */
  idleDays: PositiveAmount.max(3650).optional(),
  /** cluster: how many different wallets. */
  count: z.number().int().min(2).max(1000).optional(),
  /** cluster: within this many seconds. */
  windowSec: z.number().int().min(60).max(MAX_ALERT_WINDOW_SEC).optional(),
})
export type AlertRuleOptions = z.infer<typeof AlertRuleOptions>

/** Which wallets a rule covers: these, these tags' wallets, or (both empty) every one. */
export const AlertRuleScope = z.strictObject({
  wallets: z.array(WalletAddressInput).max(500).default([]),
  tags: z.array(z.string().trim().min(1).max(40)).max(50).default([]),
})
export type AlertRuleScope = z.infer<typeof AlertRuleScope>

/** A channel's name: letters, digits, dot, dash and underscore. */
export const ChannelName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/,
    'a name of letters, digits, ".", "-" or "_" (at most 40)',
  )

/** A rule as a person writes it. */
export const AlertRuleInput = z
  .strictObject({
    name: z.string().trim().min(1).max(80).optional(),
    trigger: AlertTrigger,
    options: AlertRuleOptions.default({}),
    scope: AlertRuleScope.default({ wallets: [], tags: [] }),
    channels: z.array(ChannelName).max(20).default([]),
    cooldownSec: z.number().int().min(0).max(MAX_ALERT_WINDOW_SEC).default(0),
  })
  .superRefine((rule, ctx) => {
    const problem = describeRuleProblem(rule.trigger, rule.options)
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['options'], message: problem })
  })
export type AlertRuleInput = z.input<typeof AlertRuleInput>
export type AlertRuleDefinition = z.output<typeof AlertRuleInput>

/** A stored rule. */
export interface AlertRule extends Omit<AlertRuleDefinition, 'name'> {
  id: number
  name: string
  isMuted: boolean
  createdAtSec: number
}

/**
 * Which options each trigger reads; any other is refused, so no option is silently ignored
 * (the rule editor shows only these fields).
 */
export const OPTIONS_OF: Record<AlertTrigger, readonly (keyof AlertRuleOptions)[]> = {
  activity: ['minUsd'],
  incoming: ['token', 'min', 'minUsd'],
  outgoing: ['token', 'min', 'minUsd'],
  'balance-below': ['token', 'max', 'maxUsd'],
  'balance-above': ['token', 'min', 'minUsd'],
  'new-token': [],
  'nft-in': [],
  'nft-out': [],
  type: ['types'],
  failed: [],
  wakes: ['idleDays'],
  'new-counterparty': [],
  cluster: ['token', 'count', 'windowSec'],
}

/**
 * Why these options do not make a rule of this trigger, or null when they do.
 *
 * @example
 * describeRuleProblem('wakes', {}) // '--when wakes needs --idle-days N'
 * describeRuleProblem('failed', { min: 5 }) // '--when failed takes no --min'
 */
export function describeRuleProblem(
  trigger: AlertTrigger,
  options: AlertRuleOptions,
): string | null {
  const allowed = OPTIONS_OF[trigger]
  for (const key of Object.keys(options) as (keyof AlertRuleOptions)[]) {
    if (options[key] !== undefined && !allowed.includes(key)) {
      return `--when ${trigger} takes no ${OPTION_FLAGS[key]}`
    }
  }
  switch (trigger) {
    case 'balance-below':
      if (options.max === undefined && options.maxUsd === undefined)
        return '--when balance-below needs --max AMOUNT or --max-usd N'
      if (options.max !== undefined && options.token === undefined)
        return '--when balance-below --max needs --token MINT|SYMBOL'
      return null
    case 'balance-above':
      if (options.min === undefined && options.minUsd === undefined)
        return '--when balance-above needs --min AMOUNT or --min-usd N'
      if (options.min !== undefined && options.token === undefined)
        return '--when balance-above --min needs --token MINT|SYMBOL'
      return null
    case 'incoming':
    case 'outgoing':
      if (options.min !== undefined && options.token === undefined)
        return `--when ${trigger} --min needs --token MINT|SYMBOL (amounts of different tokens do not add up)`
      return null
    case 'type':
      return options.types === undefined ? '--when type needs --type SWAP,NFT_SALE,…' : null
    case 'wakes':
      return options.idleDays === undefined ? '--when wakes needs --idle-days N' : null
    case 'cluster':
      return options.count === undefined || options.windowSec === undefined
        ? '--when cluster needs --count N and --window DURATION (e.g. 1h)'
        : null
    default:
      return null
  }
}

/** The CLI flag of each option, for messages. */
export const OPTION_FLAGS: Record<keyof AlertRuleOptions, string> = {
  token: '--token',
  min: '--min',
  max: '--max',
  minUsd: '--min-usd',
  maxUsd: '--max-usd',
  types: '--type',
  idleDays: '--idle-days',
  count: '--count',
  windowSec: '--window',
}

/**
 * A duration as a person writes it ("90s", "15m", "1h", "2d") in seconds, or null.
 *
 * @example
 * parseDuration('1h') // 3600
 * parseDuration('soon') // null
 */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(text.trim())
  if (!match) return null
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? 's') as 's' | 'm' | 'h' | 'd']
  return Math.round(Number(match[1]) * unit)
}

/**
 * A rule's default name, e.g. "outgoing ≥ 10,000 USDC" or "activity".
 */
export function defaultRuleName(rule: Pick<AlertRuleDefinition, 'trigger' | 'options'>): string {
  const o = rule.options
  const token = o.token && o.token.length > 20 ? shortAddress(o.token) : o.token
  const parts: string[] = [rule.trigger]
  if (o.types) parts.push(o.types.join(','))
  if (o.min !== undefined) parts.push(`≥ ${o.min}${token ? ` ${token}` : ''}`)
  else if (token !== undefined) parts.push(token)
  if (o.max !== undefined) parts.push(`< ${o.max}`)
  if (o.minUsd !== undefined) parts.push(`≥ $${o.minUsd}`)
  if (o.maxUsd !== undefined) parts.push(`< $${o.maxUsd}`)
  if (o.idleDays !== undefined) parts.push(`after ${o.idleDays} idle days`)
  if (o.count !== undefined) parts.push(`${o.count} wallets`)
  return parts.join(' ')
}

/** The health conditions that stop or slow syncing; each becomes a health alert. */
export const HealthKind = z.enum([
  'budget-80',
  'budget-100',
  'monthly-credits-spent',
  'key-rejected',
  'rate-limited',
  'unreachable',
  'disk-full',
  'database-locked',
  'postgres-unreachable',
  // Items of the service's answers the app could not read, kept aside (syncing goes on).
  'service-shape',
])
export type HealthKind = z.infer<typeof HealthKind>
