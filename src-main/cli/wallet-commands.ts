import type { Command } from 'commander'
import { Option } from 'commander'
import { AppError } from '@shared/ipc/ipc-errors'
import { balanceAtCostText } from '@shared/domain/balance-at-text'
import { futureDayProblem } from '@shared/domain/calendar-day'
import { formatUsd, funderText, totalUsdText } from '@shared/domain/display-text'
import { BalanceAtSource, CalendarDate } from '@shared/ipc/wallet-schemas'
import { describeIssues } from '@shared/validation/zod-issues'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printErrorLine, printJson, printLine } from './terminal-output'
import { cliContext } from './cli-context'

/**
 * `show ADDR`, `balance-at ADDR --date D` and `totals`: the whole wallet, balances at a
 * date and totals across the watchlist, from the mirror (offline; balance-at asks the
 * service only with `--source service`, its cost printed first).
 */
export function registerWalletCommands(program: Command): void {
  program
    .command('show')
    .description('show a watched wallet: holdings (tokens, NFTs, compressed), name and funder')
    .argument('<address>', 'a watched wallet')
    .option('--json', 'print JSON')
    .action(async (address: string, opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'show', use: 'read' })
      try {
        const w = await callCore(core, 'wallet:whole', { address })
        if (opts.json) {
          const { takenAtSec: _taken, ...shown } = w
          printJson(shown)
          return
        }
        printLine(`${w.label ?? w.address}  ${w.address}`)
        if (w.identity)
          printLine(
            `Known as: ${w.identity.name} (${w.identity.category ?? w.identity.type ?? 'identity'})`,
          )
        if (w.fundedBy)
          printLine(
            `Funded by ${funderText(w.fundedBy)}${w.fundedBy.amount ? ` with ${w.fundedBy.amount} ${w.fundedBy.symbol ?? ''}`.trimEnd() : ''}`,
          )
        printLine(`Value: ${totalUsdText(w.valueUsd, w.unpricedCount)}`)
        printLine(`Tokens (${w.holdings.tokens.length}):`)
        for (const t of w.holdings.tokens)
          printLine(
            `  ${(t.symbol ?? t.mint).padEnd(12)} ${t.amount.padStart(24)}  ${formatUsd(t.valueUsd)}`,
          )
        printLine(`NFTs (${w.holdings.nfts.length}):`)
        for (const n of w.holdings.nfts)
          printLine(
            `  ${n.name}${n.collectionName ? ` — ${n.collectionName}` : ''}${n.compressed ? ' (compressed)' : ''}`,
          )
        if (w.holdings.compressed.lamports !== null) {
          printLine(`Compressed: ${w.holdings.compressed.lamports} lamports`)
          for (const t of w.holdings.compressed.tokens)
            printLine(`  ${(t.symbol ?? t.mint).padEnd(12)} ${t.amount.padStart(24)}`)
        }
      } finally {
        await core.close()
      }
    })

  program
    .command('balance-at')
    .description('a watched wallet’s balances at the end of a day (UTC)')
    .argument('<address>', 'a watched wallet')
    .requiredOption('--date <YYYY-MM-DD>', 'the day')
    .addOption(
      new Option('--source <source>', 'rebuild from the mirror (free) or ask the service')
        .choices(BalanceAtSource.options)
        .default('local'),
    )
    .option('--include-nfts', 'ask the service about NFT mints too (a balance-at call each)')
    .option('--estimate', 'print what asking the service would cost, and stop')
    .option('--json', 'print JSON')
    .action(
      async (
        address: string,
        opts: {
          date: string
          source: 'local' | 'service'
          includeNfts?: boolean
          estimate?: boolean
          json?: boolean
        },
      ) => {
        const date = CalendarDate.safeParse(opts.date)
        if (!date.success)
          throw new AppError(`--date: ${describeIssues(date.error)} (got “${opts.date}”).`)
        // Refused before the mirror is opened: a day to come has nothing to read or buy.
        const future = futureDayProblem(opts.date, cliContext().clock.nowMs())
        if (future !== null) throw new AppError(`--date ${future}`)
        const asksService = opts.source === 'service'
        const core = await openCore(program.opts<GlobalOptions>(), {
          command: 'balance-at',
          use: asksService ? 'change' : 'read',
          data: 'shown',
        })
        try {
          const includeNfts = opts.includeNfts === true
          const plan = await callCore(core, 'balances:at-plan', {
            address,
            date: opts.date,
            includeNfts,
          })
          if (asksService || opts.estimate) {
            printErrorLine(
              `Asking the service: ${balanceAtCostText(plan)}${plan.coveredLocally ? ' (the mirror could answer for free: --source local)' : ''}.`,
            )
            if (opts.estimate) return
          }
          const result = await callCore(core, 'balances:at', {
            address,
            date: opts.date,
            source: opts.source,
            includeNfts,
          })
          if (opts.json) {
            printJson(result)
            return
          }
          printLine(
            `${address} at the end of ${result.date} (UTC), from the ${result.source === 'local' ? 'mirror' : 'service'}:`,
          )
          if (result.balances.length === 0) printLine('  nothing held')
          for (const b of result.balances)
            printLine(`  ${(b.symbol ?? b.mint).padEnd(12)} ${b.amount.padStart(24)}`)
          if (result.nfts && result.nfts.mints > 0)
            printLine(
              result.nfts.answeredBy === 'not asked'
                ? `  ${result.nfts.mints} NFT mint(s) not asked (--include-nfts asks them)`
                : `  NFTs (${result.nfts.mints} mint(s)) answered by the ${result.nfts.answeredBy}`,
            )
        } finally {
          await core.close()
        }
      },
    )

  program
    .command('totals')
    .description('value and per-token totals across the watchlist')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'totals', use: 'read' })
      try {
        const totals = await callCore(core, 'watchlist:totals', undefined)
        if (opts.json) {
          printJson(totals)
          return
        }
        printLine(
          `${totals.wallets} wallet(s): ${totalUsdText(totals.valueUsd, totals.unpricedCount)}`,
        )
        for (const t of totals.tokens)
          printLine(
            `  ${(t.symbol ?? t.mint).padEnd(12)} ${t.amount.padStart(24)}  ${formatUsd(t.valueUsd).padStart(14)}  in ${t.wallets} wallet(s)${t.compressedAmount === '0' ? '' : `, ${t.compressedAmount} compressed`}`,
          )
      } finally {
        await core.close()
      }
    })
}
