import type { Command } from 'commander'
import { AppError } from '../../src-shared/ipc/ipc-errors'
import { shortAddress } from '../../src-shared/domain/wallet-address'
import type { WalletSyncOutcome } from '../sync/sync-engine'
import { callCore, openCore, type GlobalOptions } from './cli-core'

/** Exit code when a sync stopped at the credit budget (distinct from errors). */
export const EXIT_BUDGET = 2

function describeOutcome(name: string, o: WalletSyncOutcome): string {
  const parts = o.streams.map((s) => `${s.stream} ${s.state}${s.newItems ? ` +${s.newItems}` : ''}`)
  return `${name}: ${o.state} (${parts.join(', ')})`
}

/** `sync [--once] [--wallet ADDR]`: sync watched wallets once, or keep watching them. */
export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('sync watched wallets: once (--once), or keep them current until stopped')
    .option('--once', 'sync every watched wallet (or --wallet) once and exit')
    .option('--wallet <address>', 'only this wallet')
    .option('--quiet', 'print only the summary')
    .action(async (opts: { once?: boolean; wallet?: string; quiet?: boolean }) => {
      const globals = program.opts<GlobalOptions>()
      if (opts.wallet && !opts.once)
        throw new AppError('--wallet goes with --once (watching keeps every wallet current).')
      const core = await openCore(globals, { isWatching: !opts.once })
      const stop = (): void => core.session.runtimeIfConnected()?.engine.cancel()
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
      try {
        const wallets = await callCore(core, 'watchlist:list', undefined)
        const chosen = opts.wallet ? wallets.filter((w) => w.address === opts.wallet) : wallets
        if (opts.wallet && chosen.length === 0)
          throw new AppError(
            `Wallet ${opts.wallet} is not on the watchlist; add it with \`watch add\`.`,
          )
        if (chosen.length === 0)
          throw new AppError('No wallets on the watchlist; add one with `watch add <address>`.')
        if (!opts.quiet) {
          let last = 0
          core.events.subscribe((event, payload) => {
            if (event !== 'sync:progress') return
            const p = payload as {
              address: string
              stream: string
              pages: number
              items: number
              phase: string
            }
            const now = Date.now()
            if (p.phase !== 'done' && now - last < 1_000) return
            last = now
            console.error(
              `  ${shortAddress(p.address)} ${p.stream}: ${p.phase}, ${p.pages} pages, ${p.items} new`,
            )
          })
        }
        const runtime = await core.session.runtime()
        if (!opts.once) {
          // Keep watching: the core's scheduler runs until the process is stopped.
          console.error(
            `Watching ${chosen.length} wallet(s) from ${core.info.dataSource === 'demo' ? 'the built-in demo simulator' : 'the data service'}; Ctrl-C stops.`,
          )
          core.events.subscribe((event, payload) => {
            if (event === 'sync:activity') console.log((payload as { summary: string }).summary)
          })
          await new Promise<void>((resolve) => {
            process.once('SIGINT', resolve)
            process.once('SIGTERM', resolve)
          })
          return
        }
        let worst = 0
        for (const wallet of chosen) {
          const outcome = await runtime.engine.syncWallet(wallet.address)
          console.log(describeOutcome(wallet.label ?? wallet.address, outcome))
          if (outcome.state === 'budget') {
            console.error(
              outcome.streams.find((s) => s.state === 'budget')?.error ?? 'Credit budget reached.',
            )
            worst = EXIT_BUDGET
            break
          }
          if (outcome.state === 'cancelled') {
            worst = 130
            break
          }
          if (outcome.state !== 'ok') worst = Math.max(worst, 1)
        }
        process.exitCode = worst
      } finally {
        await core.close()
      }
    })
}
