import type { Command } from 'commander'
import { AppError } from '@shared/ipc/ipc-errors'
import type { Core } from '../app/core'
import { isRendererBuilt, openHoldingCore, RENDERER_DIR, type GlobalOptions } from './cli-core'
import { printLine } from './terminal-output'

/** Parses a TCP port, naming the option when it is not one. */
export function parsePort(text: string): number {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AppError(`--port must be a whole number from 0 to 65535 (got “${text}”).`)
  }
  return port
}

/**
 * The core a server of the built renderer runs on (`serve`, `server`): the folder's
 * writer, watching its wallets.
 */
export async function openCoreToServe(options: GlobalOptions, command: string): Promise<Core> {
  if (!isRendererBuilt()) {
    throw new AppError('The renderer is not built yet: run `npm run build` first.')
  }
  return openHoldingCore(options, {
    command,
    use: 'create',
    shell: 'web',
    isWatching: true,
    isDemoShownToNewUser: true,
  })
}

/** Starts the web shell and prints its URL; runs until interrupted. */
async function serveWebShell(options: GlobalOptions & { port?: number }): Promise<void> {
  const core = await openCoreToServe(options, 'serve')
  const { startWebShell } = await import('../shell/web/web-shell')
  const shell = await startWebShell({ core, rendererDir: RENDERER_DIR, port: options.port ?? 0 })
  printLine(`Heliograph web shell: ${shell.url}`)
  closeOnSignals([shell, core])
}

/** At Ctrl-C or SIGTERM, closes each of `parts` in order, then exits. */
export function closeOnSignals(parts: { close(): Promise<void> }[]): void {
  const stop = async (): Promise<void> => {
    for (const part of parts) await part.close()
    process.exit(0)
  }
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
}

/** `serve [--port N]`: the web shell, for machines where Electron cannot run. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the app on 127.0.0.1 for a browser (prints the URL to open)')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .action(async (opts: { port?: number }) => {
      await serveWebShell({ ...program.opts<GlobalOptions>(), ...opts })
    })
}
