import type { Command } from 'commander'
import type { BudgetStatus } from '@shared/domain/budget-status'
import { countText, formatCount } from '@shared/domain/display-text'
import { AppError } from '@shared/ipc/ipc-errors'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printJson, printLine } from './terminal-output'

/** The most credits a budget takes (the settings' own bound). */
const MAX_BUDGET = 10_000_000_000

/** Reads a budget flag: a whole number of credits, 0 meaning no budget. */
function parseBudget(flag: string, text: string): number | null {
  const n = Number(text.replaceAll(',', ''))
  if (text.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_BUDGET)
    throw new AppError(
      `${flag} must be a whole number of credits from 0 (no budget) to ${formatCount(MAX_BUDGET)} (got “${text}”).`,
    )
  return n === 0 ? null : n
}

/** A budget against what its period spent: "5,000 credits (1,234 spent today, 25%)". */
function budgetLine(budget: number | null, spent: number, period: string): string {
  const spentText = `${formatCount(Math.round(spent))} spent ${period}`
  if (budget === null) return `none (${spentText})`
  return `${countText(budget, 'credit')} (${spentText}, ${Math.round((spent / budget) * 100)}%)`
}

/** The lines `budget` prints: the two budgets, then where the month is heading. */
function budgetLines(status: BudgetStatus): string[] {
  const { projection: p, monthlyBudget } = status
  const pace =
    p.watchingPerDay > 0
      ? `${formatCount(Math.round(status.monthCredits))} spent + ≈ ${formatCount(Math.round(p.watchingPerDay))} a day watching for ${p.daysLeft.toFixed(1)} more days`
      : `${formatCount(Math.round(status.monthCredits))} spent; watching is off`
  const over =
    monthlyBudget !== null && p.monthCredits > monthlyBudget
      ? `, over the monthly budget by ${formatCount(p.monthCredits - monthlyBudget)}`
      : ''
  return [
    `Daily budget:   ${budgetLine(status.dailyBudget, status.todayCredits, 'today')}`,
    `Monthly budget: ${budgetLine(monthlyBudget, status.monthCredits, 'this month')}`,
    `This month:     ≈ ${countText(p.monthCredits, 'credit')} by the end of ${p.monthEnd} (UTC): ${pace}${over}`,
  ]
}

/**
 * `budget [--json]` (the daily and monthly budgets, what is spent, the month's projection)
 * and `budget set --daily N --monthly N` (0: none). A process watching the folder takes a
 * new budget at once: the command runs through it.
 */
export function registerBudgetCommand(program: Command): void {
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()
  const budget = program
    .command('budget')
    .description('show the credit budgets, what is spent and the month’s projection')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const core = await openCore(globals(), { command: 'budget', use: 'read', data: 'own' })
      try {
        const status = await callCore(core, 'credits:budget', undefined)
        if (opts.json) printJson(status)
        else for (const line of budgetLines(status)) printLine(line)
      } finally {
        await core.close()
      }
    })

  budget
    .command('set')
    .description('set the daily and monthly credit budgets (0: no budget)')
    .option('--daily <credits>', 'credits a UTC day may spend (0: no daily budget)')
    .option('--monthly <credits>', 'credits a UTC month may spend (0: no monthly budget)')
    .action(async (opts: { daily?: string; monthly?: string }) => {
      // `budget set … --json` reaches `budget`'s own --json, as every option of a parent does.
      const { json } = budget.opts<{ json?: boolean }>()
      if (opts.daily === undefined && opts.monthly === undefined)
        throw new AppError('budget set: give --daily, --monthly or both (0 removes a budget).')
      const update = {
        ...(opts.daily === undefined ? {} : { dailyBudget: parseBudget('--daily', opts.daily) }),
        ...(opts.monthly === undefined
          ? {}
          : { monthlyBudget: parseBudget('--monthly', opts.monthly) }),
      }
      const core = await openCore(globals(), { command: 'budget set', use: 'change', data: 'own' })
      try {
        await callCore(core, 'settings:update', update)
        const status = await callCore(core, 'credits:budget', undefined)
        if (json) printJson(status)
        else for (const line of budgetLines(status)) printLine(line)
      } finally {
        await core.close()
      }
    })
}
