import type { Command } from 'commander'
import type { ChannelOutput } from '@shared/ipc/contract'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { countText } from '@shared/domain/display-text'
import { countCell, counted, tableLines } from './table-columns'
import { printJson, printLine } from './terminal-output'

/** What stops or slows syncing, a line each: the lines `status` leads with. */
function healthLines(health: ChannelOutput<'health:status'>): string[] {
  return [
    ...health.conditions.map((c) => `${c.headline} ${c.action}`),
    ...(health.budgetFit ? [health.budgetFit.line] : []),
  ]
}

/**
 * `status [--json]` (what stops syncing first, then streams, cursors, errors), `health
 * [--json]` (what stops or slows syncing) and `credits [--json]` (ledger summary).
 */
export function registerStatusCommands(program: Command): void {
  program
    .command('health')
    .description('show what stops or slows syncing now (nothing when all is well)')
    .option('--json', 'print JSON: { health: [{ kind, since, detail }], budgetFit }')
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'health', use: 'read' })
      try {
        const health = await callCore(core, 'health:status', undefined)
        if (opts.json) {
          printJson({
            health: health.conditions.map((c) => ({
              kind: c.kind,
              since: c.since,
              detail: c.detail,
            })),
            budgetFit: health.budgetFit,
          })
          return
        }
        const lines = healthLines(health)
        for (const line of lines.length
          ? lines
          : ['Syncing is healthy: nothing stops or slows it.'])
          printLine(line)
      } finally {
        await core.close()
      }
    })

  program
    .command('status')
    .description(
      'show what stops or slows syncing (first), then each wallet’s sync streams, cursors and errors',
    )
    .option(
      '--json',
      'print JSON: the wallets’ statuses (what stops syncing: `heliograph health --json`)',
    )
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'status', use: 'read' })
      try {
        const health = await callCore(core, 'health:status', undefined)
        const statuses = await callCore(core, 'sync:status', undefined)
        if (opts.json) {
          printJson(statuses)
          return
        }
        // What stops syncing leads: a person reading the first line knows whether to act.
        for (const line of healthLines(health)) printLine(line)
        if (statuses.length === 0) printLine('No wallets on the watchlist.')
        // One table for every wallet's streams, so the counts line up down the whole output.
        const streamLines = tableLines(
          statuses.flatMap((s) =>
            s.streams.map((st) => [
              st.stream,
              st.state,
              counted(st.itemsStored, 'item'),
              st.isBackfillComplete
                ? 'complete'
                : `backfilling (cursor ${st.backfillCursor ?? 'start'})`,
            ]),
          ),
          '  ',
        )
        let line = 0
        for (const s of statuses) {
          printLine(
            `${s.label ?? '(no label)'}  ${s.address}  ${s.state}${s.message ? `: ${s.message}` : ''}`,
          )
          for (const st of s.streams) {
            printLine(streamLines[line++] ?? '')
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
        const labels =
          overview.byWallet.length > 0
            ? new Map(
                (await callCore(core, 'watchlist:list', undefined)).map((w) => [
                  w.address,
                  w.label,
                ]),
              )
            : new Map<string, string | null>()
        const walletName = (address: string): string => {
          const label = labels.get(address)
          return label ? `${label} (${address})` : address
        }
        // Operations and wallets in one table: their calls and credits columns line up.
        const lines = tableLines(
          [
            ...overview.byOperation.map((op) => [
              op.operation,
              counted(op.calls, 'call'),
              counted(op.credits, 'credit'),
              op.errors ? `${countCell(op.errors)} failed` : '',
            ]),
            ...overview.byWallet.map((w) => [
              walletName(w.address),
              counted(w.calls, 'call'),
              counted(w.credits, 'credit'),
            ]),
            // Looks over many wallets at once (one call for up to 100 accounts) belong to no one wallet.
            ['shared by the watchlist', '', counted(overview.sharedCredits, 'credit')],
          ],
          '  ',
        )
        const operations = overview.byOperation.length
        for (const line of lines.slice(0, operations)) printLine(line)
        if (overview.byWallet.length > 0 || overview.sharedCredits > 0) {
          printLine('By wallet:')
          for (const line of lines.slice(operations)) printLine(line)
        }
      } finally {
        await core.close()
      }
    })
}
