import type { HistoryFilters, TransferFilters } from './review-schemas'
import { z } from 'zod'
import { countText } from '../domain/display-text'
import { WalletAddressInput } from '../domain/wallet-address'
import { AppError, registerErrorClass } from './ipc-errors'
import { HistoryGap } from './history-load-schemas'
import { SignatureSearch } from './review-schemas'
import { BalanceAtSource, CalendarDate } from './wallet-schemas'

/**
 * What an export contains: balance changes (transaction × mint), transfers, current
 * balances, or balances at the end of a day (wallet × holding, `filters.balancesAt`).
 */
export const ExportKind = z.enum(['balance-changes', 'transfers', 'balances', 'balances-at'])
export type ExportKind = z.infer<typeof ExportKind>

/** What one row of each kind is called (singular, plural): what progress counts. */
export const EXPORT_ROW_NOUNS: Record<ExportKind, readonly [string, string]> = {
  'balance-changes': ['balance change', 'balance changes'],
  transfers: ['transfer', 'transfers'],
  balances: ['balance', 'balances'],
  'balances-at': ['balance', 'balances'],
}

/**
 * The day of a balances-at export and where its answers come from: rebuilt from the
 * mirror (free, refused for a wallet whose history does not cover the day) or asked of
 * the service (fungible mints only unless `includeNfts`), as `balances:at` answers.
 */
export const BalancesAtChoice = z.object({
  date: CalendarDate,
  source: BalanceAtSource.default('local'),
  includeNfts: z.boolean().default(false),
})
export type BalancesAtChoice = z.output<typeof BalancesAtChoice>

/** Column layout: everything we know, or a tax tool's import layout (docs/service.md, Tax-tool CSV layouts). */
export const ExportFormat = z.enum(['full', 'koinly', 'cointracker'])
export type ExportFormat = z.infer<typeof ExportFormat>

/** Field separator: comma (RFC 4180), semicolon (spreadsheets in comma-decimal locales) or tab. */
export const ExportDelimiter = z.enum([',', ';', '\t'])
export type ExportDelimiter = z.infer<typeof ExportDelimiter>

/** `YYYY-MM-DD` or a full ISO 8601 date-time; plain dates are UTC days. */
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

/** A date bound: UTC seconds, or an ISO 8601 date / date-time. */
export const DateBound = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .trim()
    .refine((text) => ISO_DATE.test(text) && !Number.isNaN(Date.parse(text)), {
      message: 'Date must be YYYY-MM-DD or an ISO 8601 date-time.',
    }),
])
export type DateBound = z.infer<typeof DateBound>

/**
 * The History view's filters, for one wallet or several. `mints` and `direction` select
 * balance changes (transfers, for a transfers export): the export holds exactly the
 * changes of one of `mints` (any mint when none are given) whose sign fits `direction`,
 * the rows behind the transactions the view lists. Dates, failed-only and the signature
 * select whole transactions. An empty wallet list means every watched wallet.
 */
export const ExportFilters = z.object({
  wallets: z.array(WalletAddressInput).max(1_000).default([]),
  /** Inclusive; a plain date starts at 00:00:00 UTC. */
  from: DateBound.optional(),
  /** Inclusive; a plain date covers the whole UTC day. */
  to: DateBound.optional(),
  mints: z.array(z.string().trim().min(1).max(64)).max(1_000).default([]),
  direction: z.enum(['in', 'out']).optional(),
  failedOnly: z.boolean().default(false),
  /** A whole signature or its first characters (the History view's search). */
  signature: SignatureSearch,
  /** The balances-at kind's day and source; no other kind takes it. */
  balancesAt: BalancesAtChoice.optional(),
})
export type ExportFilters = z.output<typeof ExportFilters>
export type ExportFiltersInput = z.input<typeof ExportFilters>

/**
 * Export filters that select exactly what the History view of `address` shows.
 *
 * @example
 * exportFiltersFromHistoryView(address, { fromSec: null, toSec: null, mint: null, direction: 'in', isFailedOnly: false, signature: '' })
 * // { wallets: [address], mints: [], direction: 'in', failedOnly: false, signature: '' }
 */
export function exportFiltersFromHistoryView(
  address: string,
  view: HistoryFilters,
): ExportFiltersInput {
  return {
    wallets: [address],
    ...(view.fromSec === null ? {} : { from: view.fromSec }),
    ...(view.toSec === null ? {} : { to: view.toSec }),
    mints: view.mint === null ? [] : [view.mint],
    ...(view.direction === 'any' ? {} : { direction: view.direction }),
    failedOnly: view.isFailedOnly,
    signature: view.signature,
  }
}

/**
 * Export filters that select exactly the transfers the Transfers view of `address` shows.
 *
 * @example
 * exportFiltersFromTransfersView(address, { fromSec: null, toSec: null, mint: null, direction: 'out', counterparty: '', signature: '' })
 * // { wallets: [address], mints: [], direction: 'out', signature: '' }
 */
export function exportFiltersFromTransfersView(
  address: string,
  view: Omit<TransferFilters, 'counterparty'>,
): ExportFiltersInput {
  return {
    wallets: [address],
    ...(view.fromSec === null ? {} : { from: view.fromSec }),
    ...(view.toSec === null ? {} : { to: view.toSec }),
    mints: view.mint === null ? [] : [view.mint],
    ...(view.direction === 'any' ? {} : { direction: view.direction }),
    signature: view.signature,
  }
}

/** Chosen by the caller so it can match progress events and cancel before the answer comes. */
const ExportId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'Export id must be 8–64 letters, digits, - or _.')

/** Where the file goes: a browser download (web shell) or a path the save dialog granted. */
const ExportDestination = z.discriminatedUnion('type', [
  z.object({ type: z.literal('download') }),
  z.object({ type: z.literal('chosen-path'), grantId: z.string().min(1).max(100) }),
])

/** Input of `export:run`. */
export const ExportRunInput = z.object({
  exportId: ExportId,
  kind: ExportKind,
  format: ExportFormat.default('full'),
  filters: ExportFilters.prefault({}),
  delimiter: ExportDelimiter.default(','),
  includeHeader: z.boolean().default(true),
  destination: ExportDestination.prefault({ type: 'download' }),
})
export type ExportRunInput = z.input<typeof ExportRunInput>

/** Answer of `export:run`, once the file is complete. */
export const ExportResult = z.object({
  exportId: z.string(),
  /** Mirror rows read (what progress counts). */
  rowsRead: z.number().int(),
  /** What was read, as the preview put it (`17 balance changes of LUMN, …`). */
  description: z.string(),
  /** CSV records written, header excluded (a tax layout may merge or add rows). */
  rowsWritten: z.number().int(),
  bytes: z.number().int(),
  fileName: z.string(),
  /** Web shell: fetch `exportDownloadPath(downloadId)` once to save the file. */
  downloadId: z.string().nullable(),
  /** Desktop: where the file was saved. */
  path: z.string().nullable(),
})
export type ExportResult = z.infer<typeof ExportResult>

/** `export:progress` push event. */
export const ExportProgress = z.object({
  exportId: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  rowsRead: z.number().int(),
  rowsWritten: z.number().int(),
  totalRows: z.number().int(),
  /** 0…1 of `totalRows` read. */
  fraction: z.number(),
})
export type ExportProgress = z.infer<typeof ExportProgress>

/** Input of `export:cancel`. */
export const ExportCancelInput = z.object({ exportId: ExportId })

/** Answer of `export:cancel`: false when no such export was running. */
export const ExportCancelResult = z.object({ cancelled: z.boolean() })

/** Input of `export:choose-path` (desktop save dialog): the export it is for. */
export const ExportChoosePathInput = z.object({
  kind: ExportKind,
  format: ExportFormat.default('full'),
  filters: ExportFilters.prefault({}),
})

/** Input of `export:preview`: the export `export:run` would write with these settings. */
export const ExportPreviewInput = ExportChoosePathInput

/** Answer of `export:preview`, before anything is written. */
export const ExportPreview = z.object({
  /** Mirror rows the export will read (the rows progress counts). */
  rows: z.number().int(),
  /**
   * CSV records the file will hold, header excluded: `rows` for the full layouts (one
   * record per row), counted through the layout for a tax tool's (which merges or adds rows).
   */
  records: z.number().int(),
  /** What they are, for a person: `17 balance changes of LUMN, incoming, wallet Treasury, …`. */
  description: z.string(),
  fileName: z.string(),
  /** Credits the run spends (balances at a date asked of the service); 0 for the mirror's rows. */
  serviceCredits: z.number().int().default(0),
  /**
   * Wallets whose stored history does not reach back to the export's start (or, without
   * one, to their first transaction): said before writing, with the load that fills it.
   */
  gaps: z.array(HistoryGap).default([]),
})
export type ExportPreview = z.infer<typeof ExportPreview>

/** A path the person chose in the save dialog; `grantId` lets `export:run` write there once. */
export const ExportChosenPath = z.object({ grantId: z.string(), path: z.string() })

/** URL path under which the web shell serves a finished export, once. */
export function exportDownloadPath(downloadId: string): string {
  return `/export/${encodeURIComponent(downloadId)}`
}

/** What goes into an export's file name. */
export interface ExportFileNameParts {
  kind: ExportKind
  format: ExportFormat
  /** The wallet's label or short address, or how many wallets (`3 wallets`, `all wallets`). */
  wallets: string
  /** The filters' date bounds, UTC seconds (null: open). */
  fromSec: number | null
  toSec: number | null
  nowSec: number
}

// Characters that a file system refuses or a shell or a file manager misreads (Windows'
// reserved set, controls, bidi overrides, path separators), and whitespace.
const UNSAFE_IN_FILE_NAME = /[\p{Cc}\p{Bidi_Control}\u2028\u2029<>:"/\\|?*\s]+/gu

/**
 * `text` as one part of a file name on every common file system: unsafe characters and
 * whitespace become `-`, no dots or dashes at either end, at most `maxChars` characters.
 *
 * @example
 * fileNamePart('Treasury / Ops: "cold"') // 'Treasury-Ops-cold'
 */
export function fileNamePart(text: string, maxChars = 40): string {
  const cleaned = text
    .normalize('NFC')
    .replace(UNSAFE_IN_FILE_NAME, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
  return [...cleaned]
    .slice(0, maxChars)
    .join('')
    .replace(/[-.]+$/, '')
}

const utcDay = (sec: number): string => new Date(sec * 1000).toISOString().slice(0, 10)

/**
 * The file name an export suggests: the wallet, what it holds, its layout and its dates
 * (UTC days; an open end is the export's day, balances are "as of" a day).
 *
 * @example
 * suggestedExportFileName({ kind: 'balance-changes', format: 'koinly', wallets: 'Treasury', fromSec: 1_735_689_600, toSec: 1_743_465_599, nowSec: 1_793_491_200 })
 * // 'heliograph-Treasury-balance-changes-koinly-2025-01-01_to_2025-03-31.csv'
 */
export function suggestedExportFileName(parts: ExportFileNameParts): string {
  const to = utcDay(parts.toSec ?? parts.nowSec)
  const dates =
    parts.kind === 'balances' || parts.kind === 'balances-at'
      ? `as-of-${to}`
      : parts.fromSec === null
        ? `to-${to}`
        : `${utcDay(parts.fromSec)}_to_${to}`
  const wallets = fileNamePart(parts.wallets) || 'wallet'
  return `heliograph-${wallets}-${parts.kind}-${parts.format}-${dates}.csv`
}

const LAYOUT_NAMES: Record<ExportFormat, string> = {
  full: 'CSV',
  koinly: 'Koinly',
  cointracker: 'CoinTracker',
}

/**
 * What a finished export wrote, counting what progress counted (mirror rows) and, where a
 * tax layout makes more or fewer records of them, the records too.
 *
 * @example
 * exportedText({ description: '114 balance changes of every watched wallet', rowsRead: 114, rowsWritten: 90 }, 'koinly')
 * // 'Exported 114 balance changes of every watched wallet, as 90 Koinly rows'
 */
export function exportedText(
  result: Pick<ExportResult, 'description' | 'rowsRead' | 'rowsWritten'>,
  format: ExportFormat,
): string {
  const records =
    format === 'full' && result.rowsWritten === result.rowsRead
      ? ''
      : `, as ${countText(result.rowsWritten, `${LAYOUT_NAMES[format]} row`)}`
  return `Exported ${result.description}${records}`
}

/**
 * What the file of an export will hold, in the layout's own rows.
 *
 * @example
 * fileRecordsText(13_166, 'koinly') // '13,166 Koinly rows in the file'
 */
export function fileRecordsText(records: number, format: ExportFormat): string {
  return `${countText(records, `${LAYOUT_NAMES[format]} row`)} in the file`
}

/** The export file could not be written (folder missing, not writable, disk full). */
export class ExportFileError extends AppError {
  override name = 'ExportFileError'
}

/** The export was cancelled; nothing was left at the target. */
export class ExportCancelledError extends AppError {
  override name = 'ExportCancelledError'
}

registerErrorClass('ExportFileError', ExportFileError)
registerErrorClass('ExportCancelledError', ExportCancelledError)
