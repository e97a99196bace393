import type { Command } from 'commander'
import { parseDuration } from '@shared/domain/alert-rules'
import { formatCount, formatShare } from '@shared/domain/display-text'
import { spanText } from '@shared/domain/watch-bounds'
import { AppError } from '@shared/ipc/ipc-errors'
import { WatchCadence } from '@shared/ipc/settings-schemas'
import type { WatchCadenceChange, WatchCadenceView } from '@shared/ipc/watch-cadence-schemas'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { counted, tableLines } from './table-columns'
import { printJson, printLine } from './terminal-output'

/** Each clock: its option, and what it is called in a person's words. */
const CLOCK_OPTIONS = [
  { clock: 'checkEverySec', flag: '--balances-every', name: 'balance look' },
  { clock: 'tokenAccountsEverySec', flag: '--token-accounts-every', name: 'token-account list' },
  { clock: 'compressedEverySec', flag: '--compressed-every', name: 'compressed balances' },
  { clock: 'backstopEverySec', flag: '--full-check-every', name: 'full check' },
] as const

/**
 * A clock's option: a duration ("90s", "15m", "1h", "2d", or seconds) within the setting's
 * bounds, refused naming the option.
 */
function durationOption(option: (typeof CLOCK_OPTIONS)[number]): (text: string) => number {
  const field = WatchCadence.shape[option.clock]
  const least = field.minValue ?? 1
  const most = field.maxValue ?? Number.MAX_SAFE_INTEGER
  return (text) => {
    const sec = parseDuration(text)
    if (sec === null)
      throw new AppError(
        `${option.flag} takes a duration such as 90s, 15m, 1h or 2d, or seconds (got “${text}”).`,
      )
    if (sec < least || sec > most)
      throw new AppError(
        `${option.flag} must be from ${spanText(least)} to ${spanText(most)} (got ${spanText(sec)}).`,
      )
    return sec
  }
}

interface CadenceOptions {
  json?: boolean
  on?: boolean
  off?: boolean
  balancesEvery?: number
  tokenAccountsEvery?: number
  compressedEvery?: number
  fullCheckEvery?: number
}

/** The change the options ask for, or null when they ask for none (then the cadence is shown). */
function changeOf(opts: CadenceOptions): WatchCadenceChange | null {
  if (opts.on && opts.off) throw new AppError('--on and --off: give one of them, not both.')
  const change = {
    ...(opts.on ? { isWatching: true } : {}),
    ...(opts.off ? { isWatching: false } : {}),
    ...(opts.balancesEvery !== undefined ? { checkEverySec: opts.balancesEvery } : {}),
    ...(opts.tokenAccountsEvery !== undefined
      ? { tokenAccountsEverySec: opts.tokenAccountsEvery }
      : {}),
    ...(opts.compressedEvery !== undefined ? { compressedEverySec: opts.compressedEvery } : {}),
    ...(opts.fullCheckEvery !== undefined ? { backstopEverySec: opts.fullCheckEvery } : {}),
  }
  return Object.keys(change).length === 0 ? null : change
}

/** A plan as its maker names it: "Free", "Developer". */
function planName(plan: WatchCadenceView['plan']): string {
  return `${plan.charAt(0).toUpperCase()}${plan.slice(1)}`
}

/** The cadence, what it costs and what it bounds, as lines for a terminal. */
export function cadenceLines(view: WatchCadenceView): string[] {
  const credits = (n: number) => formatCount(Math.round(n))
  const perDay = (n: number) => counted(Math.round(n), 'credit/day', 'credits/day')
  const share =
    view.shareOfMonth === null
      ? ''
      : `, ${formatShare(view.shareOfMonth)} of ${view.shareOf === 'plan' ? `the ${planName(view.plan)} plan` : 'the monthly budget'}`
  const wallets = view.wallets === 1 ? '1 wallet' : `${formatCount(view.wallets)} wallets`
  const how = view.mode === 'webhook' ? 'webhook deliveries, polling slowed' : 'polling'
  const lines = [
    view.cadence.isWatching
      ? `Watching ${wallets} by ${how}: ≈ ${credits(view.perDay)} credits/day (${credits(view.perMonth)}/month)${share}`
      : 'Watching is off: nothing is spent until you sync (--on turns it on).',
  ]
  if (view.fittedLine) lines.push(view.fittedLine)
  lines.push(
    ...tableLines(
      [
        ...view.clocks.map((c) => {
          const option = CLOCK_OPTIONS.find((o) => o.clock === c.clock)
          return [
            option?.name ?? c.clock,
            `every ${spanText(c.everySec)}`,
            perDay(c.creditsPerDay),
            `(${option?.flag ?? ''})`,
            c.runsEverySec === c.everySec ? '' : `runs every ${spanText(c.runsEverySec)} now`,
          ]
        }),
        ['syncs of changes', '', perDay(view.changeSyncsPerDay), '', ''],
        ...(view.webhooksPerDay > 0
          ? [['webhook deliveries, checks', '', perDay(view.webhooksPerDay), '', '']]
          : []),
      ],
      '  ',
    ),
    'How soon each kind of change reaches the mirror, polling at these settings:',
  )
  const width = Math.max(...view.changes.map((c) => `within ${spanText(c.withinSec)}`.length))
  for (const c of view.changes) {
    lines.push(`  ${`within ${spanText(c.withinSec)}`.padEnd(width)}  ${c.change}`)
    lines.push(`  ${' '.repeat(width)}  found by ${c.foundBy}; with webhooks: ${c.withWebhooks}`)
  }
  lines.push(
    `A new token account someone else opens for a wallet (what new-token rules wait on): ${view.newAccountSeen}.`,
  )
  return lines
}

/** `watch cadence`: show the watching cadence with its cost and bounds, or change a clock. */
export function registerWatchCadenceCommand(watch: Command, globals: () => GlobalOptions): void {
  const command = watch
    .command('cadence')
    .description(
      'show how often watching looks, what each clock costs a day and how soon each kind of change is seen; set a clock with its option',
    )
    .option('--json', 'print JSON')
    .option('--on', 'keep watched wallets current (watching on)')
    .option('--off', 'stop watching (nothing is spent until you sync)')
  for (const o of CLOCK_OPTIONS)
    command.option(
      `${o.flag} <duration>`,
      `${o.name} every DURATION (90s, 15m, 1h, 2d)`,
      durationOption(o),
    )
  command.action(async (opts: CadenceOptions) => {
    const change = changeOf(opts)
    const core = await openCore(globals(), {
      command: 'watch cadence',
      use: change === null ? 'read' : 'change',
      data: 'own',
    })
    let view: WatchCadenceView
    try {
      view =
        change === null
          ? await callCore(core, 'watch:cadence', undefined)
          : await callCore(core, 'watch:set-cadence', change)
    } finally {
      await core.close()
    }
    if (opts.json) printJson(view)
    else for (const line of cadenceLines(view)) printLine(line)
  })
}
