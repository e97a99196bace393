import { countText, formatCount } from '@shared/domain/display-text'
import type { ApprovalNeeded } from '@shared/ipc/history-load-schemas'
import type { OlderHistoryTarget } from '@shared/ipc/history-load-schemas'
import type { SyncProgress } from '@shared/ipc/sync-schemas'
import { AppError } from '@shared/ipc/ipc-errors'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { cliContext, setExitCode } from './cli-context'
import { printErrorLine, printLine } from './terminal-output'

/** Exit code of a load refused for asking first, or stopped at the budget (as `sync`'s). */
const EXIT_ASKED_OR_BUDGET = 2

/** The options of `sync --deeper`. */
interface DeeperOptions {
  to?: number
  transactions?: number
  all?: boolean
  yes?: boolean
  estimate?: boolean
  quiet?: boolean
  once?: boolean
  wallet?: string
}

/** Refuses `--to`, `--transactions` or `--all` without `--deeper`, naming what they go with. */
export function assertOnlyWithDeeper(opts: DeeperOptions): void {
  const stray = [
    opts.to !== undefined && '--to',
    opts.transactions !== undefined && '--transactions',
    opts.all && '--all',
  ].filter((flag): flag is string => typeof flag === 'string')
  if (stray.length > 0)
    throw new AppError(
      `${stray.join(', ')} go${stray.length === 1 ? 'es' : ''} with --deeper ADDRESS (loading older history).`,
    )
}

/**
 * Whether the person agrees to a load that asks first: `--yes` already said so, or they
 * answer yes on their terminal. A script (no terminal) is not asked.
 */
export async function isAgreedOnTerminal(asked: ApprovalNeeded): Promise<boolean> {
  const ask = cliContext().ask
  if (!ask) return false
  return ask(
    `${asked.summary} would take more than a tenth of the ${formatCount(asked.leftThisMonth)} credits left this month. Start it?`,
  )
}

/**
 * `sync --deeper ADDRESS [--to DATE | --transactions N | --all]`: loads older history of a
 * watched wallet, its estimate printed first (`--estimate` stops there). A load that asks
 * first needs `--yes` or a yes on the terminal. Progress on stderr; Ctrl-C cancels after
 * the page in flight; run again to go on where it stopped.
 */
export async function loadOlderHistory(
  globals: GlobalOptions,
  address: string,
  opts: DeeperOptions,
): Promise<void> {
  const target = targetOf(opts)
  if (opts.once || opts.wallet)
    throw new AppError('--deeper runs one load of one wallet: drop --once and --wallet.')
  const core = await openCore(globals, { command: 'sync --deeper', use: 'change' })
  const stopListening = cliContext().onStopSignal(() => {
    stopListening()
    void callCore(core, 'sync:cancel', { address }).catch(() => {})
  })
  try {
    const plan = await callCore(core, 'sync:older-plan', {
      address,
      ...(target ? { target } : {}),
    })
    printErrorLine(`${address}: ${plan.summary}`)
    if (plan.isNothingToLoad) return
    if (plan.isFirstSyncPending)
      throw new AppError(
        `The first sync of ${address} has not finished (${formatCount(plan.held.transactions)} transactions so far): it comes first (\`heliograph sync --once\`).`,
      )
    printErrorLine(`  ${plan.breakdown}`)
    if (opts.estimate) return
    let approvedCredits: number | undefined
    if (plan.ask.isAsked) {
      const asked: ApprovalNeeded = {
        address,
        kind: 'older',
        credits: plan.cost.credits.high,
        leftThisMonth: plan.ask.leftThisMonth ?? 0,
        summary: `Loading older history of ${address} (up to ${formatCount(plan.cost.credits.high)} credits)`,
      }
      if (!opts.yes && !(await isAgreedOnTerminal(asked))) {
        printErrorLine(
          `${asked.summary} would take more than a tenth of the ${formatCount(asked.leftThisMonth)} credits left this month, so it asks first: run again with --yes to agree to it.`,
        )
        setExitCode(EXIT_ASKED_OR_BUDGET)
        return
      }
      approvedCredits = asked.credits
    }
    if (!opts.quiet) printOlderProgress(core, address)
    const result = await callCore(core, 'sync:older', {
      address,
      ...(target ? { target } : {}),
      ...(approvedCredits === undefined ? {} : { approvedCredits }),
    })
    printLine(`${address}: ${result.summary}`)
    const { state } = result.outcome
    setExitCode(
      state === 'ok'
        ? 0
        : state === 'budget'
          ? EXIT_ASKED_OR_BUDGET
          : state === 'cancelled'
            ? 130
            : 1,
    )
  } finally {
    stopListening()
    await core.close()
  }
}

/** The target the flags name (at most one of them), or undefined: go on, else the next 1,000. */
function targetOf(opts: DeeperOptions): OlderHistoryTarget | undefined {
  const named = [opts.to !== undefined, opts.transactions !== undefined, opts.all === true]
  if (named.filter(Boolean).length > 1)
    throw new AppError('Give one of --to, --transactions and --all with --deeper.')
  if (opts.to !== undefined) return { kind: 'to', sinceSec: opts.to }
  if (opts.transactions !== undefined) return { kind: 'transactions', count: opts.transactions }
  if (opts.all) return { kind: 'all' }
  return undefined
}

/** Prints the load's progress on stderr: transactions and transfers as their pages are stored. */
function printOlderProgress(core: Awaited<ReturnType<typeof openCore>>, address: string): void {
  let lastMs = 0
  core.events.subscribe((event, payload) => {
    if (event !== 'sync:progress') return
    const p = payload as SyncProgress
    if (p.address !== address) return
    const now = cliContext().clock.nowMs()
    if (p.phase !== 'done' && now - lastMs < 1_000) return
    lastMs = now
    const done = p.phase === 'done' ? `done, ${formatCount(p.creditsSpent)} credits` : 'loading'
    printErrorLine(
      `  ${p.stream}: ${formatCount(p.items)} older, ${countText(p.pages, 'page')}, ${done}`,
    )
  })
}
