import type { Command } from 'commander'

/** `simulator [--port N] [--seed N] [--plan …] [--live] [--keys a,b] [--population P]`: the simulated data service. */
export function registerSimulatorCommand(program: Command): void {
  program
    .command('simulator')
    .description('serve the simulated data service on 127.0.0.1 (prints its URL)')
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .argument(
      '[options...]',
      '--port N --seed N --plan free|developer|business|professional|off --live --keys a,b --population default|watch-day|backfill|hundred',
    )
    .action(async (args: string[]) => {
      const { runSimulatorCli } = await import('../simulator/simulator-server')
      await runSimulatorCli(args)
      // Serves until SIGINT/SIGTERM, on which runSimulatorCli closes the server and exits.
      await new Promise<never>(() => {})
    })
}
