import { newTokenSeenText } from '@shared/domain/watch-bounds'
import { DEFAULT_WATCH_CADENCE } from '../app/app-settings'
import type { Command } from 'commander'
import {
  AlertRuleInput,
  AlertTrigger,
  describeDurationProblem,
  parseDuration,
  type AlertRuleOptions,
} from '@shared/domain/alert-rules'
import { alertSourceText, deliveryWords, durationText } from '@shared/domain/alert-words'
import { countText } from '@shared/domain/display-text'
import { AppError, InvalidInputError } from '@shared/ipc/ipc-errors'
import type { AlertTryInput } from '@shared/ipc/alert-schemas'
import {
  MAX_ALERT_HISTORY,
  MAX_TRY_DAYS,
  type AlertRuleView,
  type AlertTrial,
  type AlertView,
} from '@shared/ipc/alert-schemas'
import { describeInputIssues } from '@shared/validation/input-issues'
import { callCore, openCore, type CliCore, type FolderUse, type GlobalOptions } from './cli-core'
import { printJson, printLine, refusingBadInput } from './terminal-output'

/** A rule's options as commander hands them over (every value still text). */
interface RuleFlags {
  when?: string
  wallet?: string[]
  tag?: string[]
  token?: string
  min?: string
  max?: string
  minUsd?: string
  maxUsd?: string
  type?: string
  idleDays?: string
  count?: string
  pct?: string
  window?: string
  cooldown?: string
  notify?: string[]
  name?: string
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

/** A number flag as a number; its range is the rule's to check (the same words everywhere). */
function parseNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const n = Number(text.replaceAll(',', ''))
  if (text.trim() === '' || !Number.isFinite(n))
    throw new InvalidInputError(`${flag} must be a number (got “${text}”).`, { flag })
  return n
}

function parseDurationFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const problem = describeDurationProblem(text)
  if (problem !== null) throw new InvalidInputError(`${flag} “${text}” ${problem}.`, { flag })
  return parseDuration(text) ?? undefined
}

/** The rule the flags describe, checked as the core checks it; each problem names its flag. */
function ruleFromFlags(flags: RuleFlags): AlertRuleInput {
  if (flags.when === undefined)
    throw new InvalidInputError(`--when is needed: one of ${AlertTrigger.options.join(', ')}.`, {
      flag: '--when',
    })
  const trigger = AlertTrigger.safeParse(flags.when)
  if (!trigger.success)
    throw new InvalidInputError(
      `--when must be one of ${AlertTrigger.options.join(', ')} (got “${flags.when}”).`,
      { flag: '--when' },
    )
  const options: AlertRuleOptions = {
    token: flags.token,
    min: parseNumber('--min', flags.min),
    max: parseNumber('--max', flags.max),
    minUsd: parseNumber('--min-usd', flags.minUsd),
    maxUsd: parseNumber('--max-usd', flags.maxUsd),
    types: flags.type?.split(',').map((t) => t.trim().toUpperCase()),
    idleDays: parseNumber('--idle-days', flags.idleDays),
    count: parseNumber('--count', flags.count),
    pct: parseNumber('--pct', flags.pct),
    windowSec: parseDurationFlag('--window', flags.window),
  }
  const rule = {
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    trigger: trigger.data,
    options: Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    scope: { wallets: flags.wallet ?? [], tags: flags.tag ?? [] },
    channels: flags.notify ?? [],
    cooldownSec: parseDurationFlag('--cooldown', flags.cooldown) ?? 0,
  }
  const parsed = AlertRuleInput.safeParse(rule)
  if (!parsed.success) throw new InvalidInputError(describeInputIssues(parsed.error))
  return rule
}

function addRuleFlags(command: Command): Command {
  return command
    .option('--when <trigger>', `what fires it: ${AlertTrigger.options.join(', ')}`)
    .option('--wallet <address>', 'a wallet it covers (repeatable; default: every wallet)', collect)
    .option('--tag <tag>', 'the wallets with this tag (repeatable)', collect)
    .option('--token <mint|symbol>', 'only this token')
    .option('--min <amount>', 'at least this much of --token (incoming, outgoing, balance-above)')
    .option('--max <amount>', 'balance-below: the threshold in --token')
    .option('--min-usd <n>', 'at least this many US dollars')
    .option('--max-usd <n>', 'balance-below: the threshold in US dollars')
    .option('--type <types>', 'type: transaction types, comma-separated (SWAP,NFT_SALE,…)')
    .option('--idle-days <n>', 'wakes: idle for at least this many days')
    .option('--count <n>', 'cluster: how many different wallets')
    .option('--pct <n>', 'value-change: by at least this many percent, up or down')
    .option('--window <duration>', 'cluster, value-change: within this long (e.g. 1h, 24h)')
    .option('--cooldown <duration>', 'gather alerts within this long into one (e.g. 10m)')
}

function ruleLine(r: AlertRuleView): string {
  const scope =
    r.scope.wallets.length === 0 && r.scope.tags.length === 0
      ? 'every wallet'
      : [
          ...(r.scope.wallets.length ? [countText(r.scope.wallets.length, 'wallet')] : []),
          ...r.scope.tags.map((t) => `tag ${t}`),
        ].join(', ')
  const notify = r.channels.length ? `notify ${r.channels.join(', ')}` : 'in the app only'
  const muted = r.isMuted ? '  (muted)' : ''
  return `${r.id}  ${r.name}  [${r.trigger}; ${scope}; ${notify}${r.cooldownSec ? `; cool-down ${durationText(r.cooldownSec)}` : ''}]${muted}`
}

/** An ISO-8601 time as the command line writes times: "2026-11-01 12:03:10 UTC". */
function utcText(iso: string): string {
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC')
}

function alertLine(a: AlertView): string {
  const delivered = a.deliveries.map((d) => `${d.channel} ${deliveryWords(d, utcText)}`).join(', ')
  const gathered = a.matchCount > 1 ? ` (${a.matchCount} matches)` : ''
  return `${a.id}  ${utcText(a.firedAt)}  ${alertSourceText(a)}: ${a.text}${gathered}${delivered ? `  (${delivered})` : ''}`
}

function parseId(text: string): number {
  const id = Number(text)
  if (!Number.isInteger(id) || id < 1)
    throw new AppError(
      `A rule id is a whole number such as 3 (got “${text}”; \`heliograph alerts list\` shows them).`,
    )
  return id
}

function parseBounded(flag: string, text: string, max: number): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new AppError(`${flag} must be a whole number from 1 to ${max} (got “${text}”).`)
  return n
}

/**
 * `alerts add|list|remove|mute|unmute|history|try`: the rules that say what matters, and
 * what they fired. Rules run on what sync writes, for no credits.
 */
export function registerAlertCommands(program: Command): void {
  const alerts = program.command('alerts').description('alert rules and the alerts they fired')
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()
  const run = async <T>(command: string, use: FolderUse, work: (core: CliCore) => Promise<T>) => {
    const core = await openCore(globals(), { command: `alerts ${command}`, use })
    try {
      return await work(core)
    } finally {
      await core.close()
    }
  }

  addRuleFlags(alerts.command('add').description('add a rule'))
    .option(
      '--notify <channel>',
      'an alert channel to tell (repeatable; see `heliograph notify`)',
      collect,
    )
    .option('--name <text>', 'a name for the rule')
    .option('--json', 'print the rule as JSON')
    .addHelpText(
      'after',
      `\nHow soon new-token fires: ${newTokenSeenText(DEFAULT_WATCH_CADENCE, 'the default settings')}.` +
        '\n`heliograph watch cadence` shows and sets your cadence, with what each clock costs.',
    )
    .action((flags: RuleFlags & { json?: boolean }) =>
      refusingBadInput(async () => {
        const input = ruleFromFlags(flags)
        const rule = await run('add', 'change', (core) => callCore(core, 'alerts:add-rule', input))
        if (flags.json) printJson(rule)
        else printLine(`Added rule ${ruleLine(rule)}`)
      }),
    )

  alerts
    .command('list')
    .description('list the rules')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rules = await run('list', 'read', (core) => callCore(core, 'alerts:rules', undefined))
      if (opts.json) return printJson(rules)
      if (rules.length === 0)
        printLine('No alert rules. Add one with `heliograph alerts add --when activity`.')
      for (const r of rules) printLine(ruleLine(r))
    })

  alerts
    .command('remove <id>')
    .description('remove a rule (the alerts it fired stay in the history)')
    .action(async (id: string) => {
      await run('remove', 'change', (core) =>
        callCore(core, 'alerts:remove-rule', { id: parseId(id) }),
      )
      printLine(`Removed rule ${id}`)
    })

  for (const [name, isMuted] of [
    ['mute', true],
    ['unmute', false],
  ] as const) {
    alerts
      .command(`${name} <id>`)
      .description(isMuted ? 'stop a rule firing, keeping it' : 'let a muted rule fire again')
      .action(async (id: string) => {
        const rule = await run(name, 'change', (core) =>
          callCore(core, 'alerts:mute-rule', { id: parseId(id), isMuted }),
        )
        printLine(`${isMuted ? 'Muted' : 'Unmuted'} rule ${ruleLine(rule)}`)
      })
  }

  alerts
    .command('history')
    .description('the alerts fired, newest first, with each channel’s delivery')
    .option('--json', 'print JSON')
    .option('--limit <n>', `how many (1–${MAX_ALERT_HISTORY}, default 50)`)
    .action(async (opts: { json?: boolean; limit?: string }) => {
      const limit =
        opts.limit === undefined ? 50 : parseBounded('--limit', opts.limit, MAX_ALERT_HISTORY)
      const page = await run('history', 'read', (core) =>
        callCore(core, 'alerts:history', { limit }),
      )
      if (opts.json) return printJson(page.alerts)
      if (page.alerts.length === 0) printLine('No alerts yet.')
      for (const a of page.alerts) printLine(alertLine(a))
    })

  addRuleFlags(
    alerts
      .command('try [id]')
      .description(
        'how often a rule (saved, or given by options) would have fired on the mirror’s past',
      ),
  )
    .requiredOption('--days <n>', `how far back (1–${MAX_TRY_DAYS})`)
    .option('--json', 'print JSON')
    .action((id: string | undefined, flags: RuleFlags & { days: string; json?: boolean }) =>
      refusingBadInput(async () => {
        if (id !== undefined && flags.when !== undefined)
          throw new InvalidInputError('Give a rule id or --when with its options, not both.')
        const input: AlertTryInput = {
          rule: id !== undefined ? { id: parseId(id) } : ruleFromFlags(flags),
          days: parseBounded('--days', flags.days, MAX_TRY_DAYS),
        }
        const trial = await run('try', 'read', (core) => callCore(core, 'alerts:try', input))
        if (flags.json) return printJson(trial)
        printTrial(trial)
      }),
    )
}

/** A trial in lines: how often, then the would-be alerts as a live run would send them. */
function printTrial(trial: AlertTrial): void {
  printLine(
    `Over the last ${countText(trial.days, 'day')}: would have fired ${countText(trial.fired, 'alert')} (${countText(trial.matches, 'match', 'matches')} in ${countText(trial.transactionsExamined, 'transaction')}${trial.snapshotsExamined ? ` and ${countText(trial.snapshotsExamined, 'balances snapshot')}` : ''}); no credits spent.`,
  )
  for (const a of trial.alerts) {
    printLine(
      `  ${utcText(a.at)}  ${a.text}${a.matchCount > 1 ? ` (+${a.matchCount - 1} gathered)` : ''}`,
    )
  }
}
