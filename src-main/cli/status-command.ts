import type { Command } from 'commander'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { countText, nounFor as noun } from '@shared/domain/display-text'
import { printJson, printLine } from './terminal-output'

/** `status [--json]` (streams, cursors, errors) and `credits [--json]` (ledger summary). */
export function registerStatusCommands(program: Command): void {
  program
    .command('status')
    .description('show each wallet’s sync streams, cursors and errors')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'status', use: 'read' })
      try {
        const statuses = await callCore(core, 'sync:status', undefined)
        if (opts.json) {
          printJson(statuses)
          return
        }
        if (statuses.length === 0) printLine('No wallets on the watchlist.')
        for (const s of statuses) {
          printLine(
            `${s.label ?? '(no label)'}  ${s.address}  ${s.state}${s.message ? `: ${s.message}` : ''}`,
          )
          for (const st of s.streams) {
            const done = st.isBackfillComplete
              ? 'complete'
              : `backfilling (cursor ${st.backfillCursor ?? 'start'})`
            printLine(
              `  ${st.stream.padEnd(22)} ${st.state.padEnd(9)} ${String(st.itemsStored).padStart(8)} ${noun(st.itemsStored, 'item')}  ${done}`,
            )
            if (st.lastError) printLine(`    error: ${st.lastError}`)
          }
        }
      } finally {
        await core.close()
      }
    })

  program
    .command('credits')
    .description('show credits spent: today, this month, by operation')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), {
        command: 'credits',
        use: 'read',
      })
      try {
        const overview = await callCore(core, 'credits:overview', undefined)
        if (opts.json) {
          printJson(overview)
          return
        }
        const budget = (n: number | null): string =>
          n === null ? 'no budget' : `budget ${n.toLocaleString('en-US')}`
        printLine(
          `Today:      ${countText(overview.todayCredits, 'credit')} (${budget(overview.dailyBudget)})`,
        )
        printLine(
          `This month: ${countText(overview.monthCredits, 'credit')} (${budget(overview.monthlyBudget)})`,
        )
        printLine(
          `All time:   ${countText(overview.totalCredits, 'credit')} in ${countText(overview.totalCalls, 'call')}`,
        )
        const countColumns = (calls: number, credits: number): string =>
          `${String(calls).padStart(6)} ${noun(calls, 'call').padEnd(5)} ${String(credits).padStart(9)} ${noun(credits, 'credit')}`
        for (const op of overview.byOperation) {
          printLine(
            `  ${op.operation.padEnd(48)} ${countColumns(op.calls, op.credits)}${op.errors ? `  ${op.errors} failed` : ''}`,
          )
        }
        if (overview.byWallet.length > 0 || overview.sharedCredits > 0) {
          const labels = new Map(
            (await callCore(core, 'watchlist:list', undefined)).map((w) => [w.address, w.label]),
          )
          printLine('By wallet:')
          for (const wallet of overview.byWallet) {
            const label = labels.get(wallet.address)
            const name = label ? `${label} (${wallet.address})` : wallet.address
            printLine(`  ${name.padEnd(48)} ${countColumns(wallet.calls, wallet.credits)}`)
          }
          // Looks over many wallets at once (one call for up to 100 accounts) belong to no one wallet.
          printLine(
            `  ${'shared by the watchlist'.padEnd(48)} ${' '.repeat(12)} ${String(overview.sharedCredits).padStart(9)} ${noun(overview.sharedCredits, 'credit')}`,
          )
        }
      } finally {
        await core.close()
      }
    })
}
