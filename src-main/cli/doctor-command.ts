import type { Command } from 'commander'
import { countText } from '@shared/domain/display-text'
import { walletName } from '@shared/domain/wallet-address'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printJson, printLine } from './terminal-output'

/** Longest raw JSON printed on a line; `--json` prints it whole. */
const RAW_PREVIEW_CHARS = 400

/**
 * `doctor [--json] [--all]`: what the edge kept aside of the service's answers (items it
 * could not read, each with its reason and raw JSON), so a person can see what a wallet's
 * mirror lacks and why. Read-only, through `health:kept-aside`.
 */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'show what of the service’s answers could not be read and was kept aside (each item, why, and its JSON)',
    )
    .option(
      '--json',
      'print JSON: { keptAside: [{ wallet, label, stream, operation, key, reason, firstSeen, lastSeen, seenCount, written, raw }], line }',
    )
    .option('--all', 'also list the items a later version read and wrote')
    .action(async (opts: { json?: boolean; all?: boolean }) => {
      const core = await openCore(program.opts<GlobalOptions>(), { command: 'doctor', use: 'read' })
      try {
        const report = await callCore(core, 'health:kept-aside', {
          includeWritten: opts.all ?? false,
        })
        if (opts.json) {
          printJson(report)
          return
        }
        if (report.keptAside.length === 0) {
          printLine('Nothing is kept aside: every item the service sent was read.')
          return
        }
        if (report.line) printLine(report.line)
        for (const item of report.keptAside) {
          printLine('')
          const state = item.written ? `written ${item.written}` : 'kept aside'
          printLine(
            `${walletName({ address: item.wallet, label: item.label })}  ${item.stream}  ${item.operation}  ${item.key}  (${state})`,
          )
          printLine(`  why: ${item.reason}`)
          printLine(
            `  first read ${item.firstSeen}, last ${item.lastSeen} (${countText(item.seenCount, 'answer')})`,
          )
          const raw = JSON.stringify(item.raw) ?? ''
          printLine(
            `  raw: ${raw.length > RAW_PREVIEW_CHARS ? `${raw.slice(0, RAW_PREVIEW_CHARS)}… (--json prints it whole)` : raw}`,
          )
        }
      } finally {
        await core.close()
      }
    })
}
