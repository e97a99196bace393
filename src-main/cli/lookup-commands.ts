import type { Command } from 'commander'
import {
  countText,
  creditsText,
  formatAmount,
  formatAmountExact,
  formatCount,
  formatDateTime,
  formatUsd,
  funderText,
  lamportsText,
  tokenAmountText,
  tokenLabel,
  totalUsdText,
} from '@shared/domain/display-text'
import { decimalText } from '@shared/domain/exact-amount'
import { AppError } from '@shared/ipc/ipc-errors'
import type { LookupAnswer, LookupRequestInput } from '@shared/ipc/lookup-schemas'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printErrorLine, printJson, printLine } from './terminal-output'

/** Options every look-up command takes. */
interface LookupOptions {
  json?: boolean
  estimate?: boolean
  refresh?: boolean
  yes?: boolean
}

/** A whole number ≥ 1 from a flag, or a clear error naming the flag. */
function positive(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < 1)
      throw new AppError(`${flag}: expected a whole number ≥ 1 (got “${value}”).`)
    return n
  }
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

/**
 * The look-up desk on the command line: each command prints what it will cost to stderr
 * before any call (`--estimate` stops there), reuses a cached answer unless `--refresh`,
 * and asks `--yes` for the validity proof and the token-metadata look-up of unknown price.
 */
export function registerLookupCommands(program: Command): void {
  const withLookupOptions = (command: Command): Command =>
    command
      .option('--json', 'print the answer as JSON (with fetchedAtSec, credits, fromCache)')
      .option('--estimate', 'print what it would cost, and stop')
      .option('--refresh', 'ask the service again even when a cached answer is kept')
      .option('--yes', 'confirm a look-up that needs it (validity proof, unknown price)')

  const run = (name: string, request: LookupRequestInput, opts: LookupOptions): Promise<void> =>
    runLookup(program.opts<GlobalOptions>(), name, request, opts)

  withLookupOptions(
    program
      .command('lookup')
      .description('look up any wallet without watching it: name, funder, holdings, first pages')
      .argument('<address>', 'a wallet address'),
  ).action((address: string, opts: LookupOptions) =>
    run('lookup', { view: 'wallet', address }, opts),
  )

  withLookupOptions(
    program
      .command('asset')
      .description('assets by id (DAS getAssetBatch, up to 1,000 ids)')
      .argument('<ids...>', 'asset ids (mints)'),
  ).action((ids: string[], opts: LookupOptions) => run('asset', { view: 'asset', ids }, opts))

  withLookupOptions(
    program
      .command('assets')
      .description('assets by owner or by authority (DAS), a page at a time')
      .option('--owner <address>', 'the owner')
      .option('--authority <address>', 'the update authority')
      .option('--page <n>', 'page number', positive('--page'), 1),
  ).action((opts: LookupOptions & { owner?: string; authority?: string; page: number }) => {
    if ((opts.owner === undefined) === (opts.authority === undefined))
      throw new AppError('assets: give --owner or --authority (one of them).')
    return run(
      'assets',
      opts.owner !== undefined
        ? { view: 'assets-by-owner', owner: opts.owner, page: opts.page }
        : { view: 'assets-by-authority', authority: opts.authority ?? '', page: opts.page },
      opts,
    )
  })

  withLookupOptions(
    program
      .command('token-accounts')
      .description('token accounts by owner or by mint (DAS getTokenAccounts)')
      .option('--owner <address>', 'the owner')
      .option('--mint <address>', 'the mint')
      .option('--page <n>', 'page number', positive('--page'), 1),
  ).action((opts: LookupOptions & { owner?: string; mint?: string; page: number }) => {
    if (opts.owner === undefined && opts.mint === undefined)
      throw new AppError('token-accounts: give --owner or --mint.')
    return run(
      'token-accounts',
      {
        view: 'token-accounts',
        ...(opts.owner === undefined ? {} : { owner: opts.owner }),
        ...(opts.mint === undefined ? {} : { mint: opts.mint }),
        page: opts.page,
      },
      opts,
    )
  })

  const compressed = program.command('compressed').description('the compressed inspector (Photon)')
  withLookupOptions(
    compressed
      .command('account')
      .description('compressed accounts by hash (or by address with --address)')
      .argument('<ids...>', 'account hashes, or addresses with --address')
      .option('--address', 'the ids are account addresses, not hashes'),
  ).action((ids: string[], opts: LookupOptions & { address?: boolean }) =>
    run(
      'compressed account',
      opts.address
        ? { view: 'compressed-account', addresses: ids }
        : { view: 'compressed-account', hashes: ids },
      opts,
    ),
  )
  withLookupOptions(
    compressed
      .command('owner')
      .description('compressed SOL, accounts and token balances of an owner')
      .argument('<address>', 'the owner'),
  ).action((owner: string, opts: LookupOptions) =>
    run('compressed owner', { view: 'compressed-owner', owner }, opts),
  )
  withLookupOptions(
    compressed
      .command('tx')
      .description('a transaction with its compression info')
      .argument('<signature>', 'the transaction signature'),
  ).action((signature: string, opts: LookupOptions) =>
    run('compressed tx', { view: 'compressed-tx', signature }, opts),
  )
  withLookupOptions(
    compressed
      .command('proof')
      .description('the validity proof of compressed accounts (100 credits: needs --yes)')
      .argument('<hashes...>', 'account hashes'),
  ).action((hashes: string[], opts: LookupOptions) =>
    run('compressed proof', { view: 'compressed-proof', hashes }, opts),
  )

  withLookupOptions(
    program
      .command('fee')
      .description('priority fee estimate, all levels, per compute unit and in SOL')
      .option('--account <address>', 'an account the transaction writes (repeat)', collect)
      .option('--transaction <base64>', 'a serialized transaction, base64')
      .option(
        '--compute-units <n>',
        'compute units the SOL figures are for',
        positive('--compute-units'),
        200_000,
      ),
  ).action(
    (opts: LookupOptions & { account?: string[]; transaction?: string; computeUnits: number }) => {
      if ((opts.account === undefined) === (opts.transaction === undefined))
        throw new AppError('fee: give --account (one or more) or --transaction, not both.')
      return run(
        'fee',
        {
          view: 'priority-fee',
          ...(opts.account === undefined ? {} : { accounts: opts.account }),
          ...(opts.transaction === undefined ? {} : { transaction: opts.transaction }),
          computeUnits: opts.computeUnits,
        },
        opts,
      )
    },
  )

  withLookupOptions(
    program
      .command('token-metadata')
      .description('token metadata (deprecated endpoint, price unknown: needs --yes)')
      .argument('<mints...>', 'mint addresses (up to 100)'),
  ).action((mints: string[], opts: LookupOptions) =>
    run('token-metadata', { view: 'token-metadata', mints }, opts),
  )
}

/** Prices a look-up on stderr, then (unless only estimating) runs it and prints the answer. */
async function runLookup(
  global: GlobalOptions,
  command: string,
  request: LookupRequestInput,
  opts: LookupOptions,
): Promise<void> {
  // Look-ups spend credits and write the cache: the folder's writer runs them.
  const core = await openCore(global, { command, use: 'create', data: 'shown' })
  try {
    const plan = await callCore(core, 'lookup:plan', request)
    const isCached = plan.cached !== null && opts.refresh !== true
    if (plan.deprecation !== null) printErrorLine(`Deprecated: ${plan.deprecation}`)
    printErrorLine(
      isCached && plan.cached !== null
        ? `Cached answer from ${new Date(plan.cached.fetchedAtSec * 1000).toISOString()} (cost ${countText(plan.cached.credits, 'credit')} then): free now; --refresh to ask again (${plan.summary}).`
        : `Cost: ${plan.summary}.`,
    )
    if (opts.estimate) return
    if (!isCached && plan.needsConfirmation && opts.yes !== true) {
      throw new AppError(
        `${command}: this look-up needs confirmation of its cost; add --yes to run it.`,
      )
    }
    const answer = await callCore(core, 'lookup:run', {
      request,
      refresh: opts.refresh === true,
      confirmed: opts.yes === true,
    })
    if (opts.json) {
      printJson(jsonOf(answer))
      return
    }
    printAnswer(answer)
  } finally {
    await core.close()
  }
}

/** What `--json` prints: the view's answer with when it was fetched and what it cost. */
function jsonOf(answer: LookupAnswer): Record<string, unknown> {
  return {
    ...answer.result,
    fetchedAtSec: answer.fetchedAtSec,
    credits: answer.credits,
    fromCache: answer.fromCache,
  }
}

/** A short reading of an answer for the terminal. */
function printAnswer(answer: LookupAnswer): void {
  const r = answer.result
  // The terminal has no Settings page: times print in UTC, which says so.
  const when = formatDateTime(answer.fetchedAtSec, 'utc')
  printLine(
    `${answer.fromCache ? 'From the cache' : 'Fetched'} (${when}, ${creditsText(answer.credits)}):`,
  )
  switch (r.view) {
    case 'wallet':
      printLine(`Known as: ${r.identity?.name ?? '—'}`)
      printLine(`Funded by: ${r.fundedBy ? funderText(r.fundedBy) : '—'}`)
      printLine(
        `Value: ${totalUsdText(r.balances.totalUsdValue, r.balances.balances.filter((b) => b.usdValue === null).length)}; ${countText(r.balances.balances.length, 'token')}, ${countText(r.assets.items.length, 'asset')}`,
      )
      for (const b of r.balances.balances)
        printLine(
          `  ${tokenLabel({ mint: b.mint, symbol: b.symbol, name: b.name }).padEnd(12)} ${formatAmount(decimalText(b.balance)).padStart(20)}  ${formatUsd(b.usdValue)}`,
        )
      printLine(
        `History: ${countText(r.history.data.length, 'transaction')} on the first page; ${countText(r.transfers.data.length, 'transfer')}`,
      )
      printLine(r.watched ? 'On the watchlist.' : 'Not watched.')
      return
    case 'asset':
      for (const a of r.assets)
        printLine(`  ${a.id}  ${a.interface}  ${a.content.metadata?.name ?? ''}`)
      return
    case 'assets-by-owner':
    case 'assets-by-authority':
      printLine(
        `Page ${r.page.page ?? 1}: ${formatCount(r.page.items.length)} of ${countText(r.page.grand_total ?? r.page.total, 'asset')}`,
      )
      for (const a of r.page.items)
        printLine(`  ${a.id}  ${a.interface}  ${a.content.metadata?.name ?? ''}`)
      return
    case 'token-accounts':
      printLine(
        r.page.total === null
          ? countText(r.page.token_accounts.length, 'token account')
          : `${formatCount(r.page.token_accounts.length)} of ${countText(r.page.total, 'token account')}`,
      )
      // The service gives these amounts in smallest units, without the mint's decimals.
      for (const t of r.page.token_accounts)
        printLine(`  ${t.address}  ${tokenAmountText({ mint: t.mint, raw: String(t.amount) })}`)
      return
    case 'compressed-account':
      for (const a of r.accounts.value.items)
        printLine(
          a === null ? '  (not found)' : `  ${a.hash}  ${lamportsText(a.lamports)}  tree ${a.tree}`,
        )
      return
    case 'compressed-owner':
      printLine(`Compressed SOL: ${lamportsText(r.balance.value)}`)
      printLine(
        `${countText(r.accounts.value.items.length, 'account')}; ${countText(r.tokens.value.items.length, 'token balance')}`,
      )
      for (const t of r.tokens.value.items)
        printLine(`  ${tokenAmountText({ mint: t.mint, raw: String(t.balance) })}`)
      return
    case 'compressed-tx':
      printLine(
        `Opened: ${countText(r.transaction.compression_info.openedAccounts.length, 'account')}; closed: ${countText(r.transaction.compression_info.closedAccounts.length, 'account')}`,
      )
      return
    case 'compressed-proof':
      printLine(
        `Proof for ${countText(r.proof.value.leaves.length, 'account')}, roots ${r.proof.value.roots.join(', ')}`,
      )
      return
    case 'priority-fee':
      for (const l of r.levels)
        printLine(
          `  ${l.level.padEnd(10)} ${formatCount(l.microLamportsPerCu).padStart(14)} µL/CU  ${formatAmountExact(l.sol)} SOL`,
        )
      return
    case 'token-metadata':
      for (const m of r.metadata) printLine(`  ${m.account}`)
      return
  }
}
