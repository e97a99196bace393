import type { Command } from 'commander'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { AppError, SyncStoppedError } from '@shared/ipc/ipc-errors'
import { countText } from '@shared/domain/display-text'
import { nowSec } from '@shared/clock'
import { healthResolvedLine } from '@shared/domain/health-text'
import type { HealthConditionView, HealthStatus } from '@shared/ipc/health-schemas'
import type { SyncProgress, WalletSyncOutcome, WatchChange } from '@shared/ipc/sync-schemas'
import { ApprovalNeeded, ApprovalNeededError } from '@shared/ipc/history-load-schemas'
import { callCore, openCore, openHoldingCore, type CliCore, type GlobalOptions } from './cli-core'
import { assertOnlyWithDeeper, isAgreedOnTerminal, loadOlderHistory } from './older-history-command'
import { transactionCount, utcDate } from './depth-options'
import { printErrorLine, printLine, walletName } from './terminal-output'
import { cliContext, setExitCode, type StopSignal } from './cli-context'

/** Exit code when a sync stopped at the credit budget (distinct from errors). */
const EXIT_BUDGET = 2

/**
 * Resolves with the signal's name at the first SIGINT or SIGTERM. Signal handlers do not
 * keep Node's event loop alive, and the scheduler's timer is unreferenced so that it never
 * holds a process open by itself: the wait holds one referenced timer until the signal.
 * Listening starts at once (before the core opens), so a signal that comes while watching
 * starts — with the alert deliverer already at work — still closes the core and records
 * what was delivered; `stop()` ends the wait when the run ends another way.
 */
function untilStopSignal(): { signal: Promise<StopSignal>; stop(): void } {
  let stop = (): void => {}
  const signal = new Promise<StopSignal>((resolve) => {
    const keepAlive = setInterval(() => {}, 2 ** 30)
    const stopListening = cliContext().onStopSignal((name) => {
      stop()
      resolve(name)
    })
    stop = () => {
      clearInterval(keepAlive)
      stopListening()
    }
  })
  return { signal, stop }
}

/** The core of a `sync` run; a watching run listens for its stop signal from the start. */
async function openSyncCore(
  globals: GlobalOptions,
  opts: { once?: boolean; estimate?: boolean },
): Promise<{ core: CliCore; stopSignal: ReturnType<typeof untilStopSignal> | null }> {
  const isWatching = opts.once !== true && opts.estimate !== true
  const stopSignal = isWatching ? untilStopSignal() : null
  // --estimate spends nothing: no watching round may start while it prices. Watching is
  // holding the folder; a sync once runs through whatever holds it.
  const extra = { command: 'sync', use: 'create', data: 'own', isWatching } as const
  const core = await (
    isWatching ? openHoldingCore(globals, extra) : openCore(globals, extra)
  ).catch((error: unknown) => {
    stopSignal?.stop()
    throw error
  })
  return { core, stopSignal }
}

function describeOutcome(name: string, o: WalletSyncOutcome): string {
  const parts = o.streams.map((s) => `${s.stream} ${s.state}${s.newItems ? ` +${s.newItems}` : ''}`)
  return `${name}: ${o.state} (${parts.join(', ')})`
}

function parseEvery(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 15 || n > 86_400)
    throw new AppError(
      `--every must be a whole number of seconds from 15 to 86400 (got “${text}”).`,
    )
  return n
}

/** Parses --lease-seconds, naming the option when the value is out of range. */
function parseLeaseSeconds(text: string): number {
  const seconds = Number(text)
  if (!Number.isInteger(seconds) || seconds < 2 || seconds > 600)
    throw new AppError(`--lease-seconds must be a whole number from 2 to 600 (got “${text}”).`)
  return seconds
}

/** `sync [--once] [--wallet ADDR]`: sync watched wallets once, or keep watching them. */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('sync watched wallets: once (--once), or keep them current until stopped')
    .option('--once', 'sync every watched wallet (or --wallet) once and exit')
    .option('--wallet <address>', 'only this wallet')
    .option('--quiet', 'print only the summary')
    .option(
      '--max-transactions <n>',
      'limit the backfill to the newest N transactions (stored per wallet)',
      transactionCount('--max-transactions'),
    )
    .option(
      '--since <date>',
      'limit the backfill to transactions since DATE (YYYY-MM-DD, UTC; stored per wallet)',
      utcDate('--since'),
    )
    .option('--estimate', 'print what the sync would cost and exit without syncing')
    .option(
      '--lease-seconds <n>',
      "with --once on a shared PostgreSQL mirror: how long a worker keeps a wallet unrenewed, so how long a dead worker's wallets wait (2–600; default 30)",
      parseLeaseSeconds,
    )
    .option(
      '--every <seconds>',
      'while watching, look at balances every N seconds (15–86400; saved as the cadence)',
      parseEvery,
    )
    .option(
      '--yes',
      'agree to a first sync or a load of older history that would take more than a tenth of the credits left this month (otherwise asked on a terminal, refused in a script)',
    )
    .option(
      '--deeper <address>',
      'load older history of a watched wallet: its estimate first, then the load (progress; Ctrl-C cancels; run again to go on where it stopped)',
    )
    .option('--to <date>', 'with --deeper: back to DATE (YYYY-MM-DD, UTC)', utcDate('--to'))
    .option(
      '--transactions <n>',
      'with --deeper: N more transactions (default 1000, or the load under way)',
      transactionCount('--transactions'),
    )
    .option('--all', 'with --deeper: all of the older history')
    .action(
      async (opts: {
        once?: boolean
        wallet?: string
        quiet?: boolean
        maxTransactions?: number
        since?: number
        estimate?: boolean
        every?: number
        leaseSeconds?: number
        yes?: boolean
        deeper?: string
        to?: number
        transactions?: number
        all?: boolean
      }) => {
        const globals = program.opts<GlobalOptions>()
        if (opts.deeper !== undefined) {
          await loadOlderHistory(globals, opts.deeper, opts)
          return
        }
        assertOnlyWithDeeper(opts)
        if (opts.wallet && !opts.once)
          throw new AppError('--wallet goes with --once (watching keeps every wallet current).')
        const { core, stopSignal } = await openSyncCore(globals, opts)
        // --once: a signal cancels the sync (exit 130). Watching: a signal ends the wait
        // below, and closing the core finishes the page in flight (exit 0). Only this run's
        // wallets are cancelled: the process holding the folder may be syncing others.
        let chosen: WatchedWallet[] = []
        const cancel = (): void => {
          for (const { address } of chosen)
            void callCore(core, 'sync:cancel', { address }).catch(() => {})
        }
        // The first signal cancels; a second one ends the process as usual.
        const stopListening = opts.once
          ? cliContext().onStopSignal(() => {
              stopListening()
              cancel()
            })
          : () => {}
        try {
          const wallets = await callCore(core, 'watchlist:list', undefined)
          chosen = opts.wallet ? wallets.filter((w) => w.address === opts.wallet) : wallets
          if (opts.wallet && chosen.length === 0)
            throw new AppError(
              `Wallet ${opts.wallet} is not on the watchlist; add it with \`watch add\`.`,
            )
          if (chosen.length === 0)
            throw new AppError('No wallets on the watchlist; add one with `watch add <address>`.')
          if (!opts.quiet) {
            printProgress(core, chosen)
          }
          if (opts.maxTransactions !== undefined || opts.since !== undefined) {
            for (const wallet of chosen) {
              await callCore(core, 'sync:set-depth', {
                address: wallet.address,
                depth: {
                  maxTransactions: opts.maxTransactions ?? null,
                  sinceSec: opts.since ?? null,
                },
              })
            }
          }
          // The cost comes first: a person sees what a sync may spend before it spends it.
          for (const wallet of chosen) {
            const estimate = await callCore(core, 'sync:estimate', { address: wallet.address })
            printErrorLine(`${walletName(wallet)}: ${estimate.summary}`)
            // --yes agrees to each first sync at its estimate, should it ask first.
            if (opts.yes && !opts.estimate && estimate.isFirstSync && estimate.maxCredits !== null)
              await callCore(core, 'sync:approve', {
                address: wallet.address,
                credits: estimate.maxCredits,
              })
          }
          if (opts.estimate) return
          if (stopSignal !== null) {
            await watchUntilStopped(core, chosen, opts.every, stopSignal.signal)
            return
          }
          setExitCode(await syncOnce(core, chosen, opts))
        } finally {
          stopListening()
          stopSignal?.stop()
          await core.close()
        }
      },
    )
}

/**
 * `sync --once`: each chosen wallet once (on a shared mirror, this worker's share).
 * Resolves to the exit code: 2 at the budget or a first sync refused for asking first,
 * 130 when cancelled, 1 when a wallet failed.
 */
async function syncOnce(
  core: CliCore,
  chosen: readonly WatchedWallet[],
  opts: { wallet?: string; leaseSeconds?: number },
): Promise<number> {
  let worst = 0
  /** Prints a wallet's outcome; false when the run must stop (budget, cancel). */
  const report = (outcome: WalletSyncOutcome): boolean => {
    const wallet = chosen.find((w) => w.address === outcome.address)
    printLine(describeOutcome(wallet ? walletName(wallet) : outcome.address, outcome))
    if (outcome.state === 'budget') {
      printErrorLine(
        outcome.streams.find((s) => s.state === 'budget')?.error ?? 'Credit budget reached.',
      )
      worst = EXIT_BUDGET
      return false
    }
    if (outcome.state === 'cancelled') {
      worst = 130
      return false
    }
    if (outcome.state !== 'ok') {
      worst = Math.max(worst, 1)
      const failed = outcome.streams.find((s) => s.error)
      if (failed?.error) printErrorLine(`  ${failed.stream}: ${failed.error}`)
    }
    return true
  }
  try {
    if (core.isSharedMirror && !opts.wallet) {
      // Other workers may share this mirror: each wallet goes to one of them.
      let isStopped = false
      const { syncedElsewhere } = await core.syncShared(
        chosen.map((w) => w.address),
        {
          onOutcome: (outcome) => {
            if (!report(outcome)) isStopped = true
          },
          isCancelled: () => isStopped,
          ...(opts.leaseSeconds ? { leaseTtlMs: opts.leaseSeconds * 1000 } : {}),
        },
      )
      if (syncedElsewhere.length > 0)
        printErrorLine(
          `${countText(syncedElsewhere.length, 'wallet')} synced by another worker on this database.`,
        )
    } else {
      for (const wallet of chosen) {
        const outcome = await runAgreed(core, wallet.address)
        if (outcome === null) worst = EXIT_BUDGET
        else if (!report(outcome)) break
      }
    }
  } catch (error) {
    // Stopped before a call: the budget is still spent, or a first sync asks first. Say
    // why (naming --yes), exit as a budget stop.
    if (!(error instanceof SyncStoppedError) && !(error instanceof ApprovalNeededError)) throw error
    printErrorLine(error.message)
    worst = EXIT_BUDGET
  }
  // The counterparties each wallet's sync left for a fuller batch-identity call.
  if (worst === 0) await callCore(core, 'sync:name-counterparties', undefined)
  return worst
}

/**
 * Syncs one wallet; a first sync that asks first runs once the person agrees on the
 * terminal, else is refused: null, its message (naming --yes) printed.
 */
async function runAgreed(core: CliCore, address: string): Promise<WalletSyncOutcome | null> {
  try {
    return await callCore(core, 'sync:run', { address })
  } catch (error) {
    if (!(error instanceof ApprovalNeededError)) throw error
    const asked = ApprovalNeeded.parse(error.details)
    if (!(await isAgreedOnTerminal(asked))) {
      printErrorLine(error.message)
      return null
    }
    await callCore(core, 'sync:approve', { address, credits: asked.credits })
    return callCore(core, 'sync:run', { address })
  }
}

/** Prints each stream's progress on stderr, at most once a second (a new cost at once). */
function printProgress(core: CliCore, chosen: readonly WatchedWallet[]): void {
  let last = 0
  // A cost still to come is printed as soon as it is known, whatever the throttle.
  const costShown = new Set<string>()
  core.events.subscribe((event, payload) => {
    if (event !== 'sync:progress') return
    const p = payload as SyncProgress
    // The process holding the folder may be syncing other wallets meanwhile.
    const wallet = chosen.find((w) => w.address === p.address)
    if (wallet === undefined) return
    const costKey = `${p.address} ${p.stream}`
    const isNewCost = (p.estimatedRemainingCredits ?? 0) > 0 && !costShown.has(costKey)
    const now = cliContext().clock.nowMs()
    if (p.phase !== 'done' && !isNewCost && now - last < 1_000) return
    last = now
    if (isNewCost) costShown.add(costKey)
    const name = walletName(wallet)
    const toGo =
      p.phase !== 'done' && (p.estimatedRemainingPages ?? 0) > 0
        ? `, ~${countText(p.estimatedRemainingPages ?? 0, 'page')} to go${p.estimatedRemainingCredits === null ? '' : ` (${p.estimatedRemainingCredits.toLocaleString('en-US')} credits)`}`
        : ''
    printErrorLine(
      `  ${name} ${p.stream}: ${p.phase}, ${countText(p.pages, 'page')}, ${p.items} new${toGo}`,
    )
  })
}

/**
 * Prints each health condition as it is raised (what stopped or slowed syncing, and what to
 * do) and as it is resolved, the same lines as the banner and the health alerts; those
 * already raised when watching starts are printed first.
 */
async function printHealthLines(core: CliCore): Promise<void> {
  let shown = new Map<string, HealthConditionView>()
  const print = (conditions: readonly HealthConditionView[]): void => {
    for (const c of conditions) if (!shown.has(c.kind)) printErrorLine(`${c.headline} ${c.action}`)
    const now = nowSec(cliContext().clock)
    for (const [kind, c] of shown)
      if (!conditions.some((x) => x.kind === kind)) printErrorLine(healthResolvedLine(c, now))
    shown = new Map(conditions.map((c) => [c.kind, c]))
  }
  core.events.subscribe((event, payload) => {
    if (event === 'health:changed') print((payload as HealthStatus).conditions)
  })
  print((await callCore(core, 'health:status', undefined)).conditions)
}

/** Watching: saves --every as the cadence, prints each change, and waits for a stop signal. */
async function watchUntilStopped(
  core: CliCore,
  chosen: readonly WatchedWallet[],
  every: number | undefined,
  stopped: Promise<StopSignal>,
): Promise<void> {
  if (every !== undefined) {
    const { watch } = await callCore(core, 'settings:get', undefined)
    await callCore(core, 'settings:update', {
      watch: { ...watch, checkEverySec: every },
    })
  }
  printErrorLine(
    `Watching ${countText(chosen.length, 'wallet')} from ${core.info.dataSource === 'demo' ? 'the built-in demo simulator' : 'the data service'}; Ctrl-C stops.`,
  )
  core.events.subscribe((event, payload) => {
    if (event === 'watch:change') printLine((payload as WatchChange).summary)
  })
  await printHealthLines(core)
  const signal = await stopped
  printErrorLine(`${signal}: stopping after the page in flight…`)
}
