import type { Command } from 'commander'
import { Option } from 'commander'
import type { NotifyChannelView } from '@shared/ipc/notify-schemas'
import { callCore, openCore, type CliCore, type FolderUse, type GlobalOptions } from './cli-core'
import { setExitCode } from './cli-context'
import { printJson, printLine } from './terminal-output'

interface AddOptions {
  url?: string
  format: 'json' | 'slack' | 'discord' | 'telegram'
  secret?: string
  botToken?: string
  chatId?: string
  allowPrivateNetwork?: boolean
}

/** One channel in a line: name, format, URL as shown, and what else is set. */
function channelLine(c: NotifyChannelView): string {
  return [
    c.name,
    c.format,
    c.urlShown,
    ...(c.chatId !== null ? [`chat ${c.chatId}`] : []),
    ...(c.isSigned ? ['signed'] : []),
    ...(c.isPrivateNetworkAllowed ? ['private network allowed'] : []),
  ].join('  ')
}

/**
 * `notify add|list|remove|test`: outbound alert channels (a json webhook, Slack, Discord,
 * Telegram). They act on the person's own mirror; their secrets never print.
 */
export function registerNotifyCommands(program: Command): void {
  const notify = program
    .command('notify')
    .description(
      'manage where alerts are sent besides the app (webhooks, Slack, Discord, Telegram)',
    )
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()

  async function withCore<T>(
    command: string,
    use: FolderUse,
    work: (core: CliCore) => Promise<T>,
  ): Promise<T> {
    const core = await openCore(globals(), { command: `notify ${command}`, use, data: 'own' })
    try {
      return await work(core)
    } finally {
      await core.close()
    }
  }

  notify
    .command('add <name>')
    .description(
      'add a channel: https only (http only to this computer); Telegram takes --bot-token and --chat-id and sends through the Bot API’s sendMessage',
    )
    .addOption(
      new Option('--format <format>', 'how messages are shaped')
        .choices(['json', 'slack', 'discord', 'telegram'])
        .makeOptionMandatory(),
    )
    .option('--url <url>', 'where to POST (json, slack, discord)')
    .option('--secret <secret>', 'json: sign each body with HMAC-SHA256 under this secret')
    .option('--bot-token <token>', 'telegram: the bot’s token (kept like the API key)')
    .option('--chat-id <id>', 'telegram: the chat to send to')
    .option(
      '--allow-private-network',
      'let the URL reach a private-network address (10/8, 172.16/12, 192.168/16, link-local, fc00::/7); an admin’s choice on a team server',
    )
    .action(async (name: string, opts: AddOptions) => {
      const channel = await withCore('add', 'create', (core) =>
        callCore(core, 'notify:add', {
          name,
          format: opts.format,
          ...(opts.url !== undefined ? { url: opts.url } : {}),
          ...(opts.secret !== undefined ? { secret: opts.secret } : {}),
          ...(opts.botToken !== undefined ? { botToken: opts.botToken } : {}),
          ...(opts.chatId !== undefined ? { chatId: opts.chatId } : {}),
          allowPrivateNetwork: opts.allowPrivateNetwork === true,
        }),
      )
      printLine(`Added ${channelLine(channel)}`)
      printLine(`\`heliograph notify test ${channel.name}\` sends a test alert now.`)
    })

  notify
    .command('list')
    .description('list the channels (their secrets are never shown)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const channels = await withCore('list', 'read', (core) =>
        callCore(core, 'notify:list', undefined),
      )
      if (opts.json) {
        printJson(channels)
        return
      }
      if (channels.length === 0) printLine('No channels: alerts show in the app only.')
      for (const c of channels) printLine(channelLine(c))
    })

  notify
    .command('remove <name>')
    .description('remove a channel and its stored secrets')
    .action(async (name: string) => {
      await withCore('remove', 'change', (core) => callCore(core, 'notify:remove', { name }))
      printLine(`Removed ${name}`)
    })

  notify
    .command('test <name>')
    .description('send a test alert to a channel now and print the outcome')
    .action(async (name: string) => {
      const result = await withCore('test', 'change', (core) =>
        callCore(core, 'notify:test', { name }),
      )
      if (result.isDelivered) {
        printLine(`Delivered to ${name}: HTTP ${result.status}`)
        return
      }
      printLine(`Not delivered to ${name}: ${result.error ?? 'no answer'}`)
      setExitCode(1)
    })
}
