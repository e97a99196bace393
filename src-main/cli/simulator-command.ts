import type { Command } from 'commander'
import { nowSec } from '@shared/clock'
import { printErrorLine, printLine } from './terminal-output'
import { cliContext, setExitCode } from './cli-context'

/** `simulator [--port N] [--seed N] [--plan …] [--now T] … | --help`: the simulated data service. */
export function registerSimulatorCommand(program: Command): void {
  program
    .command('simulator')
    .description(
      'serve the simulated data service on 127.0.0.1 (prints its URL; --help: its options)',
    )
    .allowUnknownOption()
    .allowExcessArguments()
    // Its own parser reads every flag, --help included (see simulator/simulator-args.ts).
    .helpOption(false)
    .argument('[options...]', 'the simulator’s options: simulator --help lists them')
    .action(async (args: string[]) => {
      const { runSimulatorCli } = await import('../simulator/simulator-server')
      const outcome = await runSimulatorCli(
        args,
        { line: printLine, errorLine: printErrorLine },
        nowSec(cliContext().clock),
      )
      if (typeof outcome === 'number') {
        setExitCode(outcome)
        return
      }
      // Serves until SIGINT/SIGTERM, on which runSimulatorCli closes the server and exits.
      await new Promise<never>(() => {})
    })
}
