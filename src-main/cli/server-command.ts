import type { Command } from 'commander'
import { AppError } from '@shared/ipc/ipc-errors'
import { RENDERER_DIR, type GlobalOptions } from './cli-core'
import { closeOnSignals, openCoreToServe, parsePort } from './serve-command'
import { openAccountsMirror } from './team-accounts'
import { printLine } from './terminal-output'

interface ServerOptions extends GlobalOptions {
  host: string
  port?: number
  publicUrl?: string
}

/** Parses --public-url: an http(s) URL with nothing after its path. */
function parsePublicUrl(text: string): string {
  const url = URL.parse(text)
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AppError(`--public-url must be an http:// or https:// URL (got “${text}”).`)
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new AppError(`--public-url must not carry credentials, a query or a fragment.`)
  }
  return url.href
}

/** Starts the team server; runs until interrupted. */
async function serveTeam(options: ServerOptions): Promise<void> {
  const core = await openCoreToServe(options, 'server')
  const accounts = await openAccountsMirror(options, 'change')
  // With a public URL the service can reach, deliveries replace most polling.
  const webhookMode = options.publicUrl
    ? await core.startWebhookMode({ publicUrl: options.publicUrl })
    : null
  const { startTeamServer } = await import('../shell/team/team-server')
  const server = await startTeamServer({
    core,
    accounts: accounts.team,
    rendererDir: RENDERER_DIR,
    host: options.host,
    port: options.port ?? 0,
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(webhookMode ? { routes: [webhookMode.route] } : {}),
  })
  printLine(`Heliograph team server: ${server.publicUrl ?? server.url}`)
  if ((await accounts.team.listUsers()).length === 0)
    printLine('No users yet: add one with `heliograph user add NAME --role admin`.')
  if (webhookMode)
    printLine(`Webhook deliveries: ${new URL(webhookMode.route.path, options.publicUrl).href}`)
  closeOnSignals([
    server,
    ...(webhookMode ? [{ close: () => webhookMode.stop() }] : []),
    accounts,
    core,
  ])
}

/** `server [--host H] [--port N] [--public-url URL]`: the team server (on --database or --data-dir). */
export function registerServerCommand(program: Command): void {
  program
    .command('server')
    .description('serve the app to a team: accounts with roles, sessions, CSRF protection')
    .option(
      '--host <host>',
      'interface to listen on (0.0.0.0: every one; requests must name it, or --public-url)',
      '127.0.0.1',
    )
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .option(
      '--public-url <url>',
      'where browsers reach the server (https: Secure cookies)',
      parsePublicUrl,
    )
    .action(async (opts: Omit<ServerOptions, keyof GlobalOptions>) => {
      await serveTeam({ ...program.opts<GlobalOptions>(), ...opts })
    })
}
