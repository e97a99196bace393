import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { Option } from 'commander'
import type { ExportDelimiter, ExportProgress } from '@shared/ipc/export-schemas'
import { futureDayProblem } from '@shared/domain/calendar-day'
import { countText } from '@shared/domain/display-text'
import {
  ExportFilters,
  ExportFormat,
  ExportKind,
  EXPORT_ROW_NOUNS,
  exportedText,
} from '@shared/ipc/export-schemas'
import { AppError, InvalidInputError } from '@shared/ipc/ipc-errors'
import { BalanceAtSource, CalendarDate } from '@shared/ipc/wallet-schemas'
import { WalletTag } from '@shared/ipc/watchlist-schemas'
import { describeIssues } from '@shared/validation/zod-issues'
import { callCore, openCore, type GlobalOptions } from './cli-core'
import { printErrorLine, printLine } from './terminal-output'
import { cliContext, setExitCode } from './cli-context'

/**
 * The wallets an export with `--tag` covers: those carrying any of the tags, and those
 * named with --wallet. A tag no watched wallet carries is an error naming it.
 */
async function taggedWallets(
  core: Awaited<ReturnType<typeof openCore>>,
  tags: string[],
  named: string[],
): Promise<string[]> {
  const watched = await callCore(core, 'watchlist:list', undefined)
  for (const tag of tags)
    if (!watched.some((w) => w.tags.includes(tag)))
      throw new AppError(`--tag “${tag}”: no watched wallet has this tag.`)
  const tagged = watched.filter((w) => w.tags.some((t) => tags.includes(t))).map((w) => w.address)
  return [...new Set([...named, ...tagged])]
}

interface ExportCommandOptions {
  format: string
  kind: string
  wallet: string[]
  tag: string[]
  from?: string
  to?: string
  mint: string[]
  direction?: string
  failedOnly?: boolean
  delimiter: string
  header: boolean
  out: string
  at?: string
  source?: BalanceAtSource
  includeNfts?: boolean
  estimate?: boolean
}

const DELIMITERS: Record<string, ExportDelimiter> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  tab: '\t',
  '\\t': '\t',
}

interface MintCandidate {
  mint: string
  symbol: string | null
  name: string | null
}

function hasCandidates(details: unknown): details is { candidates: MintCandidate[] } {
  const candidates = (details as { candidates?: unknown } | undefined)?.candidates
  return Array.isArray(candidates) && candidates.length > 0
}

const collect = (value: string, previous: string[]): string[] => [...previous, value]

/** A date option: UTC seconds when all digits, else an ISO date as given. */
function dateBound(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined
  return /^\d+$/.test(text) ? Number(text) : text
}

/** The kinds `--kind` takes: balances on a day are `--kind balances --at DAY`, one spelling. */
const CLI_KINDS = ExportKind.options.filter((kind) => kind !== 'balances-at')

/** Reads `--kind`; the contract's `balances-at` is refused with the spelling to use. */
function parseKind(text: string): ExportKind {
  if (text === 'balances-at')
    throw new AppError(
      '--kind balances-at is spelled --kind balances --at YYYY-MM-DD (balances at the end of that day).',
    )
  if (!(CLI_KINDS as string[]).includes(text))
    throw new AppError(`--kind must be one of ${CLI_KINDS.join(', ')} (got “${text}”).`)
  return text as ExportKind
}

/** The kind to export: `--kind balances --at DAY` is the balances-at kind. */
function exportKind(opts: ExportCommandOptions): ExportKind {
  const kind = opts.kind as ExportKind
  if (opts.at === undefined) {
    if (opts.source !== undefined || opts.includeNfts)
      throw new AppError(
        '--source and --include-nfts choose how balances on a day (--at) are answered.',
      )
    return kind
  }
  if (kind !== 'balances')
    throw new AppError(
      `--at takes balances on a day: use it with --kind balances (got --kind ${kind}).`,
    )
  const date = CalendarDate.safeParse(opts.at)
  if (!date.success) throw new AppError(`--at: ${describeIssues(date.error)} (got “${opts.at}”).`)
  const future = futureDayProblem(opts.at, cliContext().clock.nowMs())
  if (future !== null) throw new AppError(`--at ${future}`)
  return 'balances-at'
}

/** `export`: writes balance changes, transfers or balances of the local mirror to a CSV file. */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the local mirror to CSV (no network)')
    .addOption(
      new Option('--format <format>', 'column layout')
        .choices(ExportFormat.options)
        .default('full'),
    )
    .addOption(
      new Option('--kind <kind>', 'what to export (balances on a day: --kind balances --at DAY)')
        .choices(CLI_KINDS)
        // After choices(): the help still lists them, and balances-at gets a hint.
        .argParser(parseKind)
        .default('balance-changes'),
    )
    .option(
      '--wallet <address>',
      'a wallet to include (repeatable; default: every watched wallet)',
      collect,
      [],
    )
    .option(
      '--tag <tag>',
      'the wallets with this tag (repeatable; with --wallet, those wallets too)',
      collect,
      [],
    )
    .option('--from <date>', 'first day (YYYY-MM-DD, ISO date-time or UTC seconds), inclusive')
    .option('--to <date>', 'last day (YYYY-MM-DD, ISO date-time or UTC seconds), inclusive')
    .option(
      '--mint <mint>',
      'only balance changes (or transfers, balances) of this mint: its address, or a symbol that names one mint in the mirror (repeatable)',
      collect,
      [],
    )
    .addOption(
      new Option('--direction <direction>', 'only inflows or only outflows').choices(['in', 'out']),
    )
    .option('--failed-only', 'only failed transactions')
    .option(
      '--at <YYYY-MM-DD>',
      'with --kind balances: every holding at the end of that day (UTC) instead of the latest snapshot',
    )
    .addOption(
      new Option(
        '--source <source>',
        'with --at: rebuild from the mirror (free) or ask the service (credits)',
      ).choices(BalanceAtSource.options),
    )
    .option('--include-nfts', 'with --at --source service: ask about NFT mints too (credits each)')
    .option('--estimate', 'print what the export holds and costs, and stop')
    .option('--delimiter <delimiter>', 'field separator: , ; or tab', ',')
    .option('--no-header', 'leave out the header row')
    .requiredOption('--out <file>', 'the CSV file to write (replaced when complete)')
    .action(async (opts: ExportCommandOptions) => {
      const delimiter = DELIMITERS[opts.delimiter]
      if (delimiter === undefined) {
        throw new AppError(`--delimiter must be , ; or tab (got “${opts.delimiter}”).`)
      }
      const kind = exportKind(opts)
      const parsed = ExportFilters.safeParse({
        ...(kind === 'balances-at'
          ? {
              balancesAt: {
                date: opts.at,
                source: opts.source ?? 'local',
                includeNfts: opts.includeNfts === true,
              },
            }
          : {}),
        wallets: opts.wallet,
        from: dateBound(opts.from),
        to: dateBound(opts.to),
        mints: opts.mint,
        direction: opts.direction,
        failedOnly: opts.failedOnly === true,
      })
      if (!parsed.success) throw new AppError(describeIssues(parsed.error))
      const tags = opts.tag.map((text) => {
        const tag = WalletTag.safeParse(text)
        if (!tag.success) throw new AppError(`--tag “${text}”: ${tag.error.issues[0]?.message}`)
        return tag.data
      })
      // Asking the service spends credits: that takes the writer's session.
      const asksService = kind === 'balances-at' && opts.source === 'service' && !opts.estimate

      const out = resolve(opts.out)
      // The CLI's "save dialog" is --out: the core grants that path to this one export.
      const core = await openCore(program.opts<GlobalOptions>(), {
        command: 'export',
        use: asksService ? 'change' : 'read',
        data: 'shown',
        savePath: out,
      })
      const exportId = `cli-${randomBytes(9).toString('base64url')}`
      // The first signal cancels the export; a second one ends the process as usual.
      const stopListening = cliContext().onStopSignal(() => {
        stopListening()
        void callCore(core, 'export:cancel', { exportId }).catch(() => {})
      })
      const format = opts.format as ExportFormat
      // Progress counts what the preview counted: mirror rows of this kind.
      const unit = EXPORT_ROW_NOUNS[kind]
      let lastTenth = -1
      const unsubscribe = core.events.subscribe((event, payload) => {
        if (event !== 'export:progress') return
        const p = payload as ExportProgress
        const tenth = Math.floor(p.fraction * 10)
        if (p.exportId !== exportId || p.state !== 'running' || tenth === lastTenth) return
        lastTenth = tenth
        printErrorLine(
          `export: ${tenth * 10}% (${p.rowsRead} of ${countText(p.totalRows, ...unit)})`,
        )
      })
      try {
        const filters = { ...parsed.data }
        if (tags.length > 0) filters.wallets = await taggedWallets(core, tags, filters.wallets)
        const preview = await callCore(core, 'export:preview', { kind, format, filters })
        printErrorLine(`${opts.estimate ? 'Would export' : 'Exporting'} ${preview.description}`)
        if (opts.estimate) return
        const grant = await callCore(core, 'export:choose-path', { kind, format, filters })
        if (grant === null) throw new AppError('No file to write the export to.')
        const summary = await callCore(core, 'export:run', {
          exportId,
          kind,
          format,
          filters,
          delimiter,
          includeHeader: opts.header,
          destination: { type: 'chosen-path', grantId: grant.grantId },
        })
        printLine(`${exportedText(summary, format)} to ${summary.path}`)
      } catch (error) {
        if (!(error instanceof InvalidInputError) || !hasCandidates(error.details)) throw error
        // An ambiguous symbol: the candidates one per line, so one can be copied.
        printErrorLine(`heliograph: ${error.message}`)
        for (const c of error.details.candidates) {
          printErrorLine(`  ${c.mint}  ${[c.symbol, c.name].filter(Boolean).join(' · ')}`)
        }
        setExitCode(1)
      } finally {
        unsubscribe()
        stopListening()
        await core.close()
      }
    })
}
