import type { HistoryFilters } from './review-schemas'
import { z } from 'zod'
import { WalletAddressInput } from '../domain/wallet-address'
import { AppError, registerErrorClass } from './ipc-errors'
import { SignatureSearch } from './review-schemas'

/** What an export contains: balance changes (transaction × mint), transfers, or current balances. */
export const ExportKind = z.enum(['balance-changes', 'transfers', 'balances'])
export type ExportKind = z.infer<typeof ExportKind>

/** Column layout: everything we know, or a tax tool's import layout (facts, "Tax-tool CSV layouts"). */
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

/** Input of `export:choose-path` (desktop save dialog). */
export const ExportChoosePathInput = z.object({
  kind: ExportKind,
  format: ExportFormat.default('full'),
})

/** A path the person chose in the save dialog; `grantId` lets `export:run` write there once. */
export const ExportChosenPath = z.object({ grantId: z.string(), path: z.string() })

/** URL path under which the web shell serves a finished export, once. */
export function exportDownloadPath(downloadId: string): string {
  return `/export/${encodeURIComponent(downloadId)}`
}

/**
 * The file name an export suggests: what it holds, its layout and the UTC day.
 *
 * @example
 * suggestedExportFileName('balance-changes', 'koinly', 1_793_491_200) // 'heliograph-balance-changes-koinly-2026-11-01.csv'
 */
export function suggestedExportFileName(
  kind: ExportKind,
  format: ExportFormat,
  nowSec: number,
): string {
  const day = new Date(nowSec * 1000).toISOString().slice(0, 10)
  return `heliograph-${kind}-${format}-${day}.csv`
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
