import type { Command } from 'commander'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { countText, nounFor as noun } from '@shared/domain/count-text'
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
        for (const op of overview.byOperation) {
          printLine(
            `  ${op.operation.padEnd(48)} ${String(op.calls).padStart(6)} ${noun(op.calls, 'call').padEnd(5)} ${String(op.credits).padStart(9)} ${noun(op.credits, 'credit')}${op.errors ? `  ${op.errors} failed` : ''}`,
          )
        }
      } finally {
        await core.close()
      }
    })
}
