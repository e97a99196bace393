import { z } from 'zod'
import { describeLabelProblem, describeTagProblem } from '../ipc/watchlist-schemas'
import { formatCount } from './display-text'
import { describeAddressProblem, shortAddress } from './wallet-address'

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
  /**
   * A new counterparty whose address looks like one a watched wallet dealt with before
   * (the same first and last four characters): the address-poisoning pattern.
   */
  'lookalike',
  /** The wallet's (or a token's) US-dollar value moved by at least a share within a window. */
  'value-change',
])
export type AlertTrigger = z.infer<typeof AlertTrigger>

/** Whether a trigger reads balances snapshots (else new transactions). */
export function isSnapshotTrigger(trigger: AlertTrigger): boolean {
  return trigger === 'balance-below' || trigger === 'balance-above' || trigger === 'value-change'
}

/** The longest cool-down and cluster window: a week. */
export const MAX_ALERT_WINDOW_SEC = 7 * 24 * 3600

/**
 * What each number option accepts: the schema and the command line's and editor's messages
 * read these, so a value is refused with the same range wherever it is typed.
 */
export const NUMBER_RANGES = {
  min: { min: 0 },
  max: { min: 0 },
  minUsd: { min: 0 },
  maxUsd: { min: 0 },
  idleDays: { min: 0, isMinExcluded: true, max: 3650 },
  count: { min: 2, max: 1000, isWholeNumber: true },
  pct: { min: 0, isMinExcluded: true, max: 1000 },
} as const satisfies Record<string, NumberRange>

/** A number option's accepted values. */
export interface NumberRange {
  min: number
  /** The minimum itself is refused ("more than 0"). */
  isMinExcluded?: boolean
  max?: number
  isWholeNumber?: boolean
}

/** A number option: one with a {@link NUMBER_RANGES} entry. */
export type NumberOption = keyof typeof NUMBER_RANGES

/**
 * What a number option accepts, in words: "a number of 0 or more", "a number more than 0
 * and at most 3,650", "a whole number from 2 to 1,000".
 */
export function numberRangeText(range: NumberRange): string {
  const noun = range.isWholeNumber === true ? 'a whole number' : 'a number'
  if (range.max === undefined)
    return range.isMinExcluded === true
      ? `${noun} more than ${formatCount(range.min)}`
      : `${noun} of ${formatCount(range.min)} or more`
  return range.isMinExcluded === true
    ? `${noun} more than ${formatCount(range.min)} and at most ${formatCount(range.max)}`
    : `${noun} from ${formatCount(range.min)} to ${formatCount(range.max)}`
}

/** Why `value` is outside `range` ("must be …"), or null when it is inside. */
export function describeNumberProblem(value: number, range: NumberRange): string | null {
  const isOutside =
    !Number.isFinite(value) ||
    (range.isMinExcluded === true ? value <= range.min : value < range.min) ||
    (range.max !== undefined && value > range.max) ||
    (range.isWholeNumber === true && !Number.isInteger(value))
  return isOutside ? `must be ${numberRangeText(range)}` : null
}

/** The shortest cluster or value-change window. */
export const MIN_ALERT_WINDOW_SEC = 60

/**
 * A trigger's options. Amounts are in the token's own units (decimals applied); `token` is
 * a mint address or a symbol (matched without regard to case). Every field is optional
 * here; {@link AlertRuleInput} checks them (`describeRuleProblem` says which a trigger needs).
 */
export const AlertRuleOptions = z.strictObject({
  token: z.string().optional(),
  /** incoming/outgoing: at least this much; balance-above: the threshold. */
  min: z.number().optional(),
  /** balance-below: the threshold. */
  max: z.number().optional(),
  /** incoming/outgoing/activity: at least this many US dollars (where a price is known). */
  minUsd: z.number().optional(),
  /** balance-below in US dollars. */
  maxUsd: z.number().optional(),
  /** type: the transaction types that fire. */
  types: z.array(z.string()).optional(),
  /** wakes: idle for at least this many days. */
  idleDays: z.number().optional(),
  /** cluster: how many different wallets. */
  count: z.number().optional(),
  /** value-change: by at least this many percent (up or down). */
  pct: z.number().optional(),
  /** cluster, value-change: within this many seconds. */
  windowSec: z.number().optional(),
})
export type AlertRuleOptions = z.infer<typeof AlertRuleOptions>

/** Which wallets a rule covers: these, these tags' wallets, or (both empty) every one. */
export const AlertRuleScope = z.strictObject({
  wallets: z.array(z.string()).default([]),
  tags: z.array(z.string()).default([]),
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

/** Most wallets, tags, channels and types one rule names. */
const MAX_LISTED = { wallets: 500, tags: 50, channels: 20, types: 50 } as const

/** One thing wrong with a rule: the command line's flag it came from, and a sentence. */
export interface RuleProblem {
  flag: string
  message: string
  path: (string | number)[]
}

/**
 * Everything wrong with a rule as written, each naming its command-line flag (the rule
 * editor says its field instead): the one set of checks the command line, the editor and
 * the core's channels read.
 */
export function describeRuleProblems(rule: z.output<typeof RuleShape>): RuleProblem[] {
  const problems: RuleProblem[] = []
  const add = (flag: string, path: (string | number)[], text: string) =>
    problems.push({
      flag,
      path,
      message: `${flag}${text.startsWith(':') ? '' : ' '}${text}${/[.!?]$/.test(text) ? '' : '.'}`,
    })
  const o = rule.options
  if (rule.name !== undefined) {
    const name = rule.name.trim()
    const hidden = describeLabelProblem(name, 'A rule name')
    if (name === '') add('--name', ['name'], 'is empty; leave it out for the default name')
    else if ([...name].length > 80)
      add('--name', ['name'], `is ${[...name].length} characters long; at most 80`)
    else if (hidden !== null) add('--name', ['name'], `: ${hidden}`)
  }
  for (const key of Object.keys(NUMBER_RANGES) as NumberOption[]) {
    const value = o[key]
    if (value === undefined) continue
    const problem = describeNumberProblem(value, NUMBER_RANGES[key])
    if (problem !== null) add(OPTION_FLAGS[key], ['options', key], `${problem} (got ${value})`)
  }
  if (o.windowSec !== undefined && !isWithin(o.windowSec, MIN_ALERT_WINDOW_SEC))
    add('--window', ['options', 'windowSec'], 'must be from 1m to 7d')
  if (!isWithin(rule.cooldownSec, 0))
    add('--cooldown', ['cooldownSec'], 'must be at most 7d (none: leave it out)')
  if (o.token !== undefined && (o.token.trim() === '' || o.token.length > 64))
    add('--token', ['options', 'token'], 'must be a mint address or a symbol')
  o.types?.forEach((type, i) => {
    if (!/^[A-Z][A-Z0-9_]{0,39}$/.test(type))
      add('--type', ['options', 'types', i], `“${type}”: a type is a word in capitals, e.g. SWAP`)
  })
  rule.scope.wallets.forEach((address, i) => {
    const problem = describeAddressProblem(address.trim())
    if (problem !== null)
      add('--wallet', ['scope', 'wallets', i], `“${address}”: Address ${problem}.`)
  })
  rule.scope.tags.forEach((tag, i) => {
    const problem = describeTagProblem(tag.trim())
    if (problem !== null) add('--tag', ['scope', 'tags', i], `“${tag}”: ${problem}`)
  })
  rule.channels.forEach((channel, i) => {
    if (!ChannelName.safeParse(channel).success)
      add(
        '--notify',
        ['channels', i],
        `“${channel}”: a channel's name is letters, digits, ".", "-" or "_" (at most 40)`,
      )
  })
  for (const [list, most] of Object.entries(MAX_LISTED) as [keyof typeof MAX_LISTED, number][]) {
    const count =
      list === 'types'
        ? (o.types?.length ?? 0)
        : list === 'channels'
          ? rule.channels.length
          : rule.scope[list].length
    const flag = { wallets: '--wallet', tags: '--tag', channels: '--notify', types: '--type' }[list]
    if (count > most) add(flag, [], `is given ${count} times; at most ${most}`)
  }
  const triggerProblem = describeRuleProblem(rule.trigger, o)
  if (triggerProblem !== null)
    problems.push({ flag: '--when', path: ['options'], message: `${triggerProblem}.` })
  return problems
}

const isWithin = (sec: number, min: number): boolean =>
  Number.isInteger(sec) && sec >= min && sec <= MAX_ALERT_WINDOW_SEC

/** A rule's fields and their types, unchecked (see {@link AlertRuleInput}). */
const RuleShape = z.strictObject({
  name: z.string().optional(),
  trigger: AlertTrigger,
  options: AlertRuleOptions.default({}),
  scope: AlertRuleScope.default({ wallets: [], tags: [] }),
  channels: z.array(z.string()).default([]),
  cooldownSec: z.number().default(0),
})

/**
 * A rule as a person writes it: each problem named by its flag (describeRuleProblems);
 * once checked, the name, addresses and channels trimmed and the tags lower-cased.
 */
export const AlertRuleInput = RuleShape.superRefine((rule, ctx) => {
  for (const p of describeRuleProblems(rule))
    ctx.addIssue({ code: 'custom', path: p.path, message: p.message })
}).transform((rule) => ({
  ...rule,
  ...(rule.name !== undefined ? { name: rule.name.trim() } : {}),
  options: {
    ...rule.options,
    ...(rule.options.token !== undefined ? { token: rule.options.token.trim() } : {}),
  },
  scope: {
    wallets: rule.scope.wallets.map((w) => w.trim()),
    tags: rule.scope.tags.map((t) => t.trim().toLowerCase()),
  },
  channels: rule.channels.map((c) => c.trim()),
}))
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
  lookalike: [],
  'value-change': ['token', 'pct', 'windowSec'],
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
      if (options.max !== undefined && options.maxUsd !== undefined)
        return '--when balance-below takes --max or --max-usd, not both (two thresholds contradict)'
      if (options.max !== undefined && options.token === undefined)
        return '--when balance-below --max needs --token MINT|SYMBOL'
      return null
    case 'balance-above':
      if (options.min === undefined && options.minUsd === undefined)
        return '--when balance-above needs --min AMOUNT or --min-usd N'
      if (options.min !== undefined && options.minUsd !== undefined)
        return '--when balance-above takes --min or --min-usd, not both (two thresholds contradict)'
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
    case 'value-change':
      return options.pct === undefined || options.windowSec === undefined
        ? '--when value-change needs --pct N and --window DURATION (e.g. 24h)'
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
  pct: '--pct',
  windowSec: '--window',
}

/**
 * A duration as a person writes it, with its unit ("90s", "15m", "1h", "2d"), in seconds;
 * null when it is not one. A bare number is refused: "10" could be seconds or minutes.
 *
 * @example
 * parseDuration('1h') // 3600
 * parseDuration('10') // null
 */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text.trim())
  if (!match) return null
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as 's' | 'm' | 'h' | 'd']
  return Math.round(Number(match[1]) * unit)
}

/** Why a typed duration is not one, in words (after "--cooldown “10”"), or null. */
export function describeDurationProblem(text: string): string | null {
  if (parseDuration(text) !== null) return null
  return /^\s*\d+(?:\.\d+)?\s*$/.test(text)
    ? `needs a unit: ${text.trim()}s, ${text.trim()}m, ${text.trim()}h or ${text.trim()}d`
    : 'is not a duration; write e.g. 90s, 15m, 1h or 2d'
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
  if (o.pct !== undefined) parts.push(`± ${o.pct}%`)
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
])
export type HealthKind = z.infer<typeof HealthKind>
