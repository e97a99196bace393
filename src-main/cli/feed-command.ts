import type { Command } from 'commander'
import { Option } from 'commander'
import { formatUsd } from '@shared/domain/display-text'
import { WalletAddressInput } from '@shared/domain/wallet-address'
import {
  FeedKind,
  MAX_FEED_PAGE_ROWS,
  type FeedCursor,
  type FeedFiltersInput,
  type FeedRow,
} from '@shared/ipc/feed-schemas'
import { InvalidInputError } from '@shared/ipc/ipc-errors'
import { WalletTag } from '@shared/ipc/watchlist-schemas'
import { cliContext } from './cli-context'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printJson, printLine, refusingBadInput, walletName } from './terminal-output'

/** How often `feed --follow` reads the mirror for rows that landed. */
const FOLLOW_POLL_MS = 1_000

interface FeedOptions {
  wallet: string[]
  tag: string[]
  type: string[]
  direction?: 'in' | 'out'
  token?: string
  minUsd?: string
  limit: string
  json?: boolean
  follow?: boolean
}

const collect = (value: string, previous: string[]): string[] => [...previous, value]

/** Checks each value of a repeatable flag with `schema`; the error names the flag and value. */
function parseEach<T>(
  flag: string,
  values: string[],
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }
  },
): T[] {
  return values
    .flatMap((text) => text.split(','))
    .map((text) => {
      const parsed = schema.safeParse(text)
      if (parsed.success) return parsed.data
      throw new InvalidInputError(
        `${flag} “${text}”: ${parsed.error.issues[0]?.message ?? 'not valid'}`,
        { flag },
      )
    })
}

function parseFilters(opts: FeedOptions): FeedFiltersInput {
  let minUsd: number | null = null
  if (opts.minUsd !== undefined) {
    minUsd = Number(opts.minUsd)
    if (opts.minUsd.trim() === '' || !Number.isFinite(minUsd) || minUsd < 0)
      throw new InvalidInputError(
        `--min-usd must be a number of US dollars, 0 or more (got “${opts.minUsd}”).`,
        { flag: '--min-usd' },
      )
  }
  return {
    wallets: parseEach('--wallet', opts.wallet, WalletAddressInput),
    tags: parseEach('--tag', opts.tag, WalletTag),
    kinds: parseEach('--type', opts.type, FeedKind),
    direction: opts.direction ?? null,
    token: opts.token?.trim() || null,
    minUsd,
  }
}

function parseLimit(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > MAX_FEED_PAGE_ROWS)
    throw new InvalidInputError(
      `--limit must be a whole number from 1 to ${MAX_FEED_PAGE_ROWS} (got “${text}”).`,
      { flag: '--limit' },
    )
  return n
}

/** One row as a line: time, wallet, type, summary, USD value, failed and unread marks. */
function rowLine(row: FeedRow): string {
  const time =
    row.time === null ? 'no time           ' : `${row.time.slice(0, 16).replace('T', ' ')}Z`
  const wallet = walletName({ address: row.wallet, label: row.walletLabel })
  const usd = row.usd === null ? '' : `  ${formatUsd(row.usd)}`
  const marks = `${row.isFailed ? '  [failed]' : ''}${row.isUnread ? '  [new]' : ''}`
  return `${time}  ${wallet}  ${row.kind}  ${row.summary}${usd}${marks}`
}

/** The JSON a script reads of a row: the fields the README lists, without the paging key. */
function rowJson(row: FeedRow) {
  const { key: _key, isUnread: _isUnread, ...shown } = row
  return shown
}

/**
 * `feed`: every watched wallet's transactions, newest first, filtered as the Feed page
 * filters; `--follow` then prints the rows that land, oldest first, until stopped.
 */
export function registerFeedCommand(program: Command): void {
  program
    .command('feed')
    .description('every watched wallet’s transactions, newest first')
    .option('--wallet <address>', 'only this wallet (repeatable)', collect, [])
    .option('--tag <tag>', 'only wallets with this tag (repeatable)', collect, [])
    .option(
      '--type <type>',
      'only this transaction type: SWAP, TRANSFER, NFT_SALE, UNKNOWN… (repeatable)',
      collect,
      [],
    )
    .addOption(
      new Option(
        '--direction <direction>',
        'only tokens received (in) or sent (out), fee left out',
      ).choices(['in', 'out']),
    )
    .option('--token <mint-or-symbol>', 'only transactions moving this token')
    .option(
      '--min-usd <usd>',
      'only transactions moving at least this many US dollars in one token',
    )
    .option('--limit <n>', `rows to print (1–${MAX_FEED_PAGE_ROWS})`, '50')
    .option('--json', 'print a JSON array (with --follow: one JSON object a line)')
    .option('--follow', 'keep printing new rows as they land, until Ctrl-C')
    .action((opts: FeedOptions) => refusingBadInput(() => printFeed(program, opts)))
}

/** Prints the feed's newest page, then (`--follow`) the rows that land. */
async function printFeed(program: Command, opts: FeedOptions): Promise<void> {
  const filters = parseFilters(opts)
  const limit = parseLimit(opts.limit)
  const core = await openCore(program.opts<GlobalOptions>(), { command: 'feed', use: 'read' })
  try {
    const page = await callCore(core, 'feed:page', { filters, limit })
    if (!opts.follow) {
      if (opts.json) printJson(page.rows.map(rowJson))
      else if (page.rows.length === 0) printLine('No transactions in the feed.')
      else for (const row of page.rows) printLine(rowLine(row))
      return
    }
    const print = (row: FeedRow): void =>
      opts.json ? printLine(JSON.stringify(rowJson(row))) : printLine(rowLine(row))
    for (const row of [...page.rows].reverse()) print(row)
    await follow(
      page.rows[0]?.key ?? null,
      async (newerThan, cursor) =>
        callCore(core, 'feed:page', { filters, newerThan, cursor, limit: MAX_FEED_PAGE_ROWS }),
      print,
    )
  } finally {
    await core.close()
  }
}

/**
 * Reads the rows above `newest` every second on the run's clock and prints them oldest
 * first, until SIGINT or SIGTERM (a normal end: exit 0).
 */
async function follow(
  newest: FeedCursor | null,
  readPage: (
    newerThan: FeedCursor | null,
    cursor: FeedCursor | null,
  ) => Promise<{ rows: FeedRow[]; nextCursor: FeedCursor | null }>,
  print: (row: FeedRow) => void,
): Promise<void> {
  const { clock, onStopSignal } = cliContext()
  const stop = new AbortController()
  const stopListening = onStopSignal(() => stop.abort())
  let seen = newest
  try {
    while (!stop.signal.aborted) {
      try {
        await clock.sleep(FOLLOW_POLL_MS, stop.signal)
      } catch {
        break
      }
      // Every row above the last one printed, however many landed since.
      const landed: FeedRow[] = []
      let cursor: FeedCursor | null = null
      do {
        const page = await readPage(seen, cursor)
        landed.push(...page.rows)
        cursor = page.nextCursor
      } while (cursor !== null)
      for (const row of landed.reverse()) print(row)
      seen = landed.at(-1)?.key ?? seen
    }
  } finally {
    stopListening()
  }
}
