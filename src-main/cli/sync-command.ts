import type { Command } from 'commander'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { AppError, SyncStoppedError } from '@shared/ipc/ipc-errors'
import { countText } from '@shared/domain/display-text'
import type { SyncProgress, WalletSyncOutcome, WatchChange } from '@shared/ipc/sync-schemas'
import { callCore, openCore, openHoldingCore, type CliCore, type GlobalOptions } from './cli-core'
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

function parseCount(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000) {
    throw new AppError(
      `--max-transactions must be a whole number from 1 to 10,000,000 (got “${text}”).`,
    )
  }
  return n
}

function parseEvery(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 15 || n > 86_400)
    throw new AppError(
      `--every must be a whole number of seconds from 15 to 86400 (got “${text}”).`,
    )
  return n
}

function parseSince(text: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text)
  if (Number.isNaN(ms))
    throw new AppError(`--since must be a date such as 2025-01-31 (got “${text}”).`)
  return Math.floor(ms / 1000)
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
      parseCount,
    )
    .option(
      '--since <date>',
      'limit the backfill to transactions since DATE (YYYY-MM-DD, UTC; stored per wallet)',
      parseSince,
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
      }) => {
        const globals = program.opts<GlobalOptions>()
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
          }
          if (opts.estimate) return
          if (stopSignal !== null) {
            await watchUntilStopped(core, chosen, opts.every, stopSignal.signal)
            return
          }
          let worst = 0
          /** Prints a wallet's outcome; false when the run must stop (budget, cancel). */
          const report = (outcome: WalletSyncOutcome): boolean => {
            const wallet = chosen.find((w) => w.address === outcome.address)
            printLine(describeOutcome(wallet ? walletName(wallet) : outcome.address, outcome))
            if (outcome.state === 'budget') {
              printErrorLine(
                outcome.streams.find((s) => s.state === 'budget')?.error ??
                  'Credit budget reached.',
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
            try {
              for (const wallet of chosen) {
                const outcome = await callCore(core, 'sync:run', { address: wallet.address })
                if (!report(outcome)) break
              }
            } catch (error) {
              // Stopped before a call: the budget is still spent. Say why, exit as a budget stop.
              if (!(error instanceof SyncStoppedError)) throw error
              printErrorLine(error.message)
              worst = EXIT_BUDGET
            }
          }
          // The counterparties each wallet's sync left for a fuller batch-identity call.
          if (worst === 0) await callCore(core, 'sync:name-counterparties', undefined)
          setExitCode(worst)
        } finally {
          stopListening()
          stopSignal?.stop()
          await core.close()
        }
      },
    )
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
  const signal = await stopped
  printErrorLine(`${signal}: stopping after the page in flight…`)
}
