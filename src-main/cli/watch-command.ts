import type { Command } from 'commander'
import { callCore, openCore, type FolderUse, type GlobalOptions } from './cli-core'
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

/** `watch add|list|rename|remove|tag|untag|cadence`: manage the watchlist and its cadence from a terminal or a script. */
export function registerWatchCommand(program: Command): void {
  const watch = program.command('watch').description('manage the watchlist')
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()

  watch
    .command('add <address>')
    .description('start watching a wallet')
    .option('--label <label>', 'a name for the wallet')
    .action(async (address: string, opts: { label?: string }) => {
      const wallet = await withCore(globals(), 'add', 'create', async (core) => {
        // The first wallet of one's own, added while the demo is shown, switches to one's
        // own data: say so, and what the demo keeps.
        const stop = core.events.subscribe((event, payload) => {
          const { demoKept } = payload as { demoKept?: DemoKept }
          if (event === 'app:data-source' && demoKept)
            printErrorLine(firstOwnWalletText(demoKept, '`--data-source demo`'))
        })
        try {
          return await callCore(core, 'watchlist:add', { address, label: opts.label })
        } finally {
          stop()
        }
      })
      printLine(`Watching ${wallet.address}${wallet.label ? ` (${wallet.label})` : ''}`)
    })

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
