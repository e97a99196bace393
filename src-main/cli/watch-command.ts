import type { Command } from 'commander'
import { creditsText } from '@shared/domain/display-text'
import { AppError } from '@shared/ipc/ipc-errors'
import { callCore, openCore, type FolderUse, type GlobalOptions } from './cli-core'
import { parseDepth, utcDate } from './depth-options'
import { printErrorLine, printJson, printLine } from './terminal-output'
import { registerWatchCadenceCommand } from './watch-cadence-command'
import { firstOwnWalletText, type DemoKept } from '@shared/domain/first-own-wallet'

async function withCore<T>(
  options: GlobalOptions,
  command: string,
  use: FolderUse,
  work: (core: Awaited<ReturnType<typeof openCore>>) => Promise<T>,
): Promise<T> {
  const core = await openCore(options, { command: `watch ${command}`, use })
  try {
    return await work(core)
  } finally {
    await core.close()
  }
}

/**
 * The first sync's estimate, from the cheapest look at the wallet (about 22 credits): its
 * figure on stdout, its parts and what the look cost on stderr. One that asks first is
 * agreed to with `--yes`, or said to ask.
 */
async function printFirstSyncEstimate(
  core: Awaited<ReturnType<typeof openCore>>,
  address: string,
  yes: boolean,
): Promise<void> {
  const estimate = await callCore(core, 'sync:first-sync-estimate', { address })
  printLine(estimate.summary)
  const looked =
    estimate.probeCredits > 0 ? `; this estimate cost ${creditsText(estimate.probeCredits)}` : ''
  printErrorLine(`  ${estimate.breakdown}${looked}`)
  const { ask } = estimate
  if (!ask.isAsked || ask.leftThisMonth === null) return
  const high = estimate.cost.credits.high
  if (yes) {
    await callCore(core, 'sync:approve', { address, credits: high })
    printErrorLine(`Agreed: the first sync may take up to ${creditsText(high)}.`)
    return
  }
  printErrorLine(
    `Up to ${creditsText(high)} is more than a tenth of the ${creditsText(ask.leftThisMonth)} left this month, so the first sync asks first: \`heliograph sync --once --yes\` agrees to it, or the app asks.`,
  )
}

/** `watch add|list|rename|remove|tag|untag|cadence`: manage the watchlist and its cadence from a terminal or a script. */
export function registerWatchCommand(program: Command): void {
  const watch = program.command('watch').description('manage the watchlist')
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()

  watch
    .command('add <address>')
    .description(
      'start watching a wallet; its first sync stores the newest 1,000 transactions unless --depth or --since says otherwise',
    )
    .option('--label <label>', 'a name for the wallet')
    .option(
      '--depth <all|N>',
      'how much history the first sync stores: all of it, or the newest N transactions (default 1000)',
      parseDepth,
    )
    .option(
      '--since <date>',
      'store the history back to DATE (YYYY-MM-DD, UTC)',
      utcDate('--since'),
    )
    .option(
      '--yes',
      'agree now to a first sync that would take more than a tenth of the credits left this month',
    )
    .action(
      async (
        address: string,
        opts: { label?: string; depth?: number | 'all'; since?: number; yes?: boolean },
      ) => {
        if (opts.depth === 'all' && opts.since !== undefined)
          throw new AppError('--depth all and --since contradict each other: give one of them.')
        const depth =
          opts.depth === undefined && opts.since === undefined
            ? undefined
            : {
                maxTransactions: opts.depth === 'all' ? null : (opts.depth ?? null),
                sinceSec: opts.since ?? null,
              }
        await withCore(globals(), 'add', 'create', async (core) => {
          // The first wallet of one's own, added while the demo is shown, switches to one's
          // own data: say so, and what the demo keeps.
          const stop = core.events.subscribe((event, payload) => {
            const { demoKept } = payload as { demoKept?: DemoKept }
            if (event === 'app:data-source' && demoKept)
              printErrorLine(firstOwnWalletText(demoKept, '`--data-source demo`'))
          })
          const wallet = await callCore(core, 'watchlist:add', {
            address,
            label: opts.label,
            ...(depth ? { depth } : {}),
          }).finally(stop)
          printLine(`Watching ${wallet.address}${wallet.label ? ` (${wallet.label})` : ''}`)
          await printFirstSyncEstimate(core, wallet.address, opts.yes === true)
        })
      },
    )

  watch
    .command('list')
    .description('list watched wallets')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const wallets = await withCore(globals(), 'list', 'read', (core) =>
        callCore(core, 'watchlist:list', undefined),
      )
      if (opts.json) {
        printJson(wallets)
        return
      }
      if (wallets.length === 0) printLine('No wallets on the watchlist.')
      for (const w of wallets) {
        const tags = w.tags.map((t) => `#${t}`).join(' ')
        printLine(`${w.address}  ${w.label ?? ''}  ${tags}`.trimEnd())
      }
    })

  watch
    .command('tag <address> <tags...>')
    .description('tag a watched wallet (tags are one word each, kept lower-case)')
    .action(async (address: string, tags: string[]) => {
      const wallet = await withCore(globals(), 'tag', 'change', (core) =>
        callCore(core, 'watchlist:tag', { address, tags }),
      )
      printLine(`Tagged ${wallet.address}: ${wallet.tags.join(', ')}`)
    })

  watch
    .command('untag <address> <tags...>')
    .description('take tags off a watched wallet')
    .action(async (address: string, tags: string[]) => {
      const wallet = await withCore(globals(), 'untag', 'change', (core) =>
        callCore(core, 'watchlist:untag', { address, tags }),
      )
      const left = wallet.tags.length === 0 ? 'no tags left' : `tags: ${wallet.tags.join(', ')}`
      printLine(`Untagged ${wallet.address} (${left})`)
    })

  watch
    .command('rename <address> <label>')
    .description('set a wallet’s label ("" clears it)')
    .action(async (address: string, label: string) => {
      const wallet = await withCore(globals(), 'rename', 'change', (core) =>
        callCore(core, 'watchlist:rename', { address, label }),
      )
      printLine(`Renamed ${wallet.address} to ${wallet.label ?? '(no label)'}`)
    })

  registerWatchCadenceCommand(watch, globals)

  watch
    .command('remove <address>')
    .description('stop watching a wallet')
    .action(async (address: string) => {
      await withCore(globals(), 'remove', 'change', (core) =>
        callCore(core, 'watchlist:remove', { address }),
      )
      printLine(`Removed ${address}`)
    })
}
