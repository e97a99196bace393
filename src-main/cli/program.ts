import { Command, CommanderError, Option } from 'commander'
import { readAppVersion } from '../app/app-version'
import { registerAlertCommands } from './alert-commands'
import { registerBudgetCommand } from './budget-command'
import { registerExportCommand } from './export-command'
import { registerFeedCommand } from './feed-command'
import { registerLookupCommands } from './lookup-commands'
import { registerServeCommand } from './serve-command'
import { registerServerCommand } from './server-command'
import { registerUserCommands } from './user-commands'
import { registerSimulatorCommand } from './simulator-command'
import { registerStatusCommands } from './status-command'
import { registerSyncCommand } from './sync-command'
import { registerWalletCommands } from './wallet-commands'
import { registerWatchCommand } from './watch-command'
import { registerWebhookCommands } from './webhook-commands'
import { registerNotifyCommands } from './notify-commands'
import { printErrorLine, withLinesEnded } from './terminal-output'
import { cliContext, withCliContext, type CliContext } from './cli-context'

/** Builds the command-line program (exported so tests can run it in-process). */
function buildProgram(): Command {
  const program = new Command('heliograph')
    .description('Watch Solana wallets from a local mirror.')
    .version(readAppVersion(new URL('../../package.json', import.meta.url)))
    .option(
      '--data-dir <dir>',
      'folder of the local mirror (default: the per-user app-data folder)',
    )
    .option(
      '--database <url>',
      'PostgreSQL mirror for this run (postgres://user:password@host:port/db) instead of the SQLite file in the data folder; env HELIOGRAPH_DATABASE_URL',
    )
    .option(
      '--service <url>',
      'data service base URL for this run (REST and JSON-RPC on one origin); env HELIOGRAPH_SERVICE_URL',
    )
    .option('--api-key <key>', 'API key for this run (not stored); env HELIOGRAPH_API_KEY')
    .addOption(
      new Option(
        '--data-source <source>',
        'for a command that shows data: your own mirror (service) or the demo (demo); default: as chosen in Settings, else your own once it holds a wallet or a key is set. Commands that change data always use your own.',
      ).choices(['service', 'demo']),
    )
    .enablePositionalOptions(false)
    .showHelpAfterError()
  registerWatchCommand(program)
  registerServeCommand(program)
  registerServerCommand(program)
  registerUserCommands(program)
  registerExportCommand(program)
  registerSyncCommand(program)
  registerStatusCommands(program)
  registerWalletCommands(program)
  registerLookupCommands(program)
  registerWebhookCommands(program)
  registerAlertCommands(program)
  registerNotifyCommands(program)
  registerSimulatorCommand(program)
  registerFeedCommand(program)
  registerBudgetCommand(program)
  return program
}

/**
 * Runs the CLI with `argv` (without node and script) and resolves to its exit code. A
 * program that runs it in its own process (tests, scripts) passes a context of its own:
 * output, environment, clock and stop signals then stay that run's.
 *
 * @example
 * const code = await runCli(['watch', 'list', '--json'])
 */
export async function runCli(argv: string[], context?: CliContext): Promise<number> {
  // Every run's output ends with a line break, whichever command printed last.
  const output = withLinesEnded(context ?? cliContext())
  try {
    return await withCliContext(output.context, () => runProgram(argv))
  } finally {
    output.finish()
  }
}

async function runProgram(argv: string[]): Promise<number> {
  const { writeOut, writeErr } = cliContext()
  const program = buildProgram().exitOverride()
  program.commands.forEach(function override(command: Command): void {
    command.exitOverride().configureOutput({ writeOut, writeErr })
    command.commands.forEach(override)
  })
  program.configureOutput({ writeOut, writeErr })
  try {
    await program.parseAsync(argv, { from: 'user' })
    // A command may set its own exit code (sync: 1 when a wallet did not sync, 2 at the budget).
    return cliContext().exitCode ?? 0
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode
    printErrorLine(`heliograph: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}
