import type { Command } from 'commander'
import { Option } from 'commander'
import type { z } from 'zod'
import { WebhookTransactionType, WebhookType } from '@shared/api/enums'
import { countText } from '@shared/domain/display-text'
import { planWebhookAction, type WebhookAction } from '@shared/domain/webhook-plan'
import { AppError } from '@shared/ipc/ipc-errors'
import {
  WebhookCreateInput,
  WebhookFromWatchlistInput,
  WebhookIdInput,
  WebhookUpdateInput,
  type WebhookView,
} from '@shared/ipc/webhook-schemas'
import { describeInputIssues } from '@shared/validation/input-issues'
import { callCore, openCore, type CliCore, type GlobalOptions } from './cli-core'
import { printErrorLine, printJson, printLine } from './terminal-output'

/** Options of `create` and `update`, as commander hands them over. */
interface WebhookFields {
  url?: string
  type?: string
  address?: string[]
  transactionType?: string[]
  authHeader?: string
  fromWatchlist?: boolean
}

interface RunOptions {
  json?: boolean
  estimate?: boolean
}

const STATE_WORDS: Record<WebhookView['state'], string> = {
  active: 'active',
  disabled: 'disabled',
  'auto-disabled': 'auto-disabled by the service',
}

/** Checks input against a channel's schema before anything is spent; names what was wrong. */
function checked<S extends z.ZodType>(schema: S, input: unknown, what: string): z.input<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new AppError(`${what}: ${describeInputIssues(parsed.error)}`)
  return input as z.input<S>
}

/** One webhook in a line: id, state, type, URL, addresses, types and whether a header is set. */
function webhookLine(w: WebhookView): string {
  return [
    w.webhookID,
    STATE_WORDS[w.state],
    w.webhookType,
    w.webhookURL,
    countText(w.accountAddresses.length, 'address', 'addresses'),
    `types ${w.transactionTypes.join(',') || '—'}`,
    `auth header ${w.isAuthHeaderSet ? 'set' : 'not set'}`,
  ].join('  ')
}

function printWebhook(w: WebhookView): void {
  printLine(`Webhook ${w.webhookID}`)
  printLine(`  State: ${STATE_WORDS[w.state]}`)
  if (w.state === 'auto-disabled')
    printLine(
      '  The service stopped it after failed deliveries; `webhooks enable` turns it on again with 24 hours of grace.',
    )
  printLine(`  Type: ${w.webhookType}`)
  printLine(`  URL: ${w.webhookURL}`)
  printLine(`  Transaction types: ${w.transactionTypes.join(', ') || '—'}`)
  printLine(`  Auth header: ${w.isAuthHeaderSet ? 'set' : 'not set'}`)
  printLine(`  Addresses (${w.accountAddresses.length}):`)
  for (const a of w.accountAddresses) printLine(`    ${a}`)
}

/**
 * `webhooks list|get|create|update|enable|disable|delete`: manage the webhooks on the
 * account. Each is one service call of 100 credits, printed to stderr before it runs;
 * `--estimate` stops there.
 */
export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('manage the webhooks on your account (100 credits a call)')
  const globals = (): GlobalOptions => program.opts<GlobalOptions>()

  /** Says the cost, stops on --estimate, else runs `work` on a core and closes it. */
  async function run<T>(
    action: WebhookAction,
    opts: RunOptions,
    work: (core: CliCore) => Promise<T>,
  ): Promise<T | undefined> {
    const plan = planWebhookAction(action)
    printErrorLine(
      `webhooks ${action}: 1 call of ${plan.operation} = ${countText(plan.credits, 'credit')}.`,
    )
    if (opts.estimate) return undefined
    // The account's webhooks need no watched wallet: a new data folder may be made for them.
    const core = await openCore(globals(), {
      command: `webhooks ${action}`,
      use: 'create',
      data: 'own',
    })
    try {
      return await work(core)
    } finally {
      await core.close()
    }
  }

  common(webhooks.command('list').description('list the webhooks'))
    .option('--cached', 'show the list as last fetched, offline and free')
    .action(async (opts: RunOptions & { cached?: boolean }) => {
      const listing = opts.cached
        ? await (async () => {
            const core = await openCore(globals(), { command: 'webhooks list', use: 'read' })
            try {
              return await callCore(core, 'webhooks:cached', undefined)
            } finally {
              await core.close()
            }
          })()
        : await run('list', opts, (core) => callCore(core, 'webhooks:list', undefined))
      if (listing === undefined) return
      if (opts.json) {
        printJson(listing)
        return
      }
      if (listing.listedAtSec !== null)
        printErrorLine(`Listed at ${new Date(listing.listedAtSec * 1000).toISOString()}.`)
      if (listing.webhooks.length === 0) printLine('No webhooks.')
      for (const w of listing.webhooks) printLine(webhookLine(w))
    })

  common(
    webhooks.command('get').description('read one webhook').argument('<id>', 'webhook id'),
  ).action(async (id: string, opts: RunOptions) => {
    const input = checked(WebhookIdInput, { webhookID: id }, 'webhook id')
    show(opts, await run('get', opts, (core) => callCore(core, 'webhooks:get', input)))
  })

  common(withFields(webhooks.command('create').description('create a webhook')))
    .option('--from-watchlist', 'watch every wallet on the watchlist (instead of --address)')
    .action(async (opts: RunOptions & WebhookFields) => {
      if (opts.fromWatchlist && opts.address)
        throw new AppError('--from-watchlist takes the watchlist’s addresses: give no --address.')
      const fields = {
        webhookURL: opts.url,
        webhookType: opts.type,
        transactionTypes: opts.transactionType ?? ['ANY'],
        ...(opts.authHeader !== undefined ? { authHeader: opts.authHeader } : {}),
      }
      if (opts.fromWatchlist) {
        const input = checked(WebhookFromWatchlistInput, fields, 'create')
        show(
          opts,
          await run('create', opts, (core) =>
            callCore(core, 'webhooks:create-from-watchlist', input),
          ),
        )
        return
      }
      const input = checked(
        WebhookCreateInput,
        { ...fields, accountAddresses: opts.address ?? [] },
        'create',
      )
      show(opts, await run('create', opts, (core) => callCore(core, 'webhooks:create', input)))
    })

  common(
    withFields(
      webhooks
        .command('update')
        .description('change a webhook (--address replaces the whole list)')
        .argument('<id>', 'webhook id'),
    ),
  ).action(async (id: string, opts: RunOptions & WebhookFields) => {
    const input = updateInput(id, opts)
    if (Object.keys(input).length === 1)
      throw new AppError(
        'update: nothing to change; give --url, --type, --address, --transaction-type or --auth-header.',
      )
    show(opts, await run('update', opts, (core) => callCore(core, 'webhooks:update', input)))
  })

  for (const action of ['enable', 'disable'] as const) {
    common(
      webhooks
        .command(action)
        .description(
          action === 'enable'
            ? 'turn a webhook on (also re-enables an auto-disabled one)'
            : 'stop deliveries, keeping the webhook',
        )
        .argument('<id>', 'webhook id'),
    ).action(async (id: string, opts: RunOptions) => {
      const { webhookID } = checked(WebhookIdInput, { webhookID: id }, 'webhook id')
      const w = await run(action, opts, (core) =>
        callCore(core, 'webhooks:toggle', { webhookID, active: action === 'enable' }),
      )
      show(opts, w)
      if (w && action === 'enable' && !opts.json)
        printErrorLine(
          'Enabled. For 24 hours the service will not auto-disable it, even if deliveries fail.',
        )
    })
  }

  common(
    webhooks.command('delete').description('delete a webhook').argument('<id>', 'webhook id'),
  ).action(async (id: string, opts: RunOptions) => {
    const input = checked(WebhookIdInput, { webhookID: id }, 'webhook id')
    const done = await run('delete', opts, async (core) => {
      await callCore(core, 'webhooks:delete', input)
      return true
    })
    if (!done) return
    if (opts.json) printJson({ webhookID: id, deleted: true })
    else printLine(`Deleted webhook ${id}`)
  })
}

/** Prints a webhook (or JSON with --json). */
function show(opts: RunOptions, w: WebhookView | undefined): void {
  if (w === undefined) return
  if (opts.json) printJson(w)
  else printWebhook(w)
}

/** The options that describe a webhook (create, update). */
const withFields = (command: Command): Command =>
  command
    .option('--url <url>', 'where deliveries are POSTed')
    .addOption(new Option('--type <type>', 'the webhook kind').choices(WebhookType.options))
    .option('--address <addresses...>', 'account addresses to watch')
    .addOption(
      new Option('--transaction-type <types...>', 'transaction types (enhanced webhooks)').choices(
        WebhookTransactionType.options,
      ),
    )
    .option('--auth-header <value>', 'sent as the Authorization header of each delivery')
/** The options every webhooks command takes. */
const common = (command: Command): Command =>
  command.option('--estimate', 'print what it would cost, and stop').option('--json', 'print JSON')

/** The update request the options ask for (only the fields given). */
function updateInput(id: string, opts: WebhookFields) {
  return checked(
    WebhookUpdateInput,
    {
      webhookID: id,
      ...(opts.url !== undefined ? { webhookURL: opts.url } : {}),
      ...(opts.type !== undefined ? { webhookType: opts.type } : {}),
      ...(opts.address !== undefined ? { accountAddresses: opts.address } : {}),
      ...(opts.transactionType !== undefined ? { transactionTypes: opts.transactionType } : {}),
      ...(opts.authHeader !== undefined ? { authHeader: opts.authHeader } : {}),
    },
    'update',
  )
}
