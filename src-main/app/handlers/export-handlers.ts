import { basename } from 'node:path'
import type {
  BalancesAtChoice,
  ExportFilters,
  ExportFormat,
  ExportKind,
  ExportPreview,
  ExportProgress,
  ExportResult,
} from '@shared/ipc/export-schemas'
import { ExportCancelledError, suggestedExportFileName } from '@shared/ipc/export-schemas'
import { AppError, DuplicateError, InvalidInputError } from '@shared/ipc/ipc-errors'
import { PRIVATE_FILE_MODE } from '../../db/private-files'
import type { ExportRowFilters } from '../../db/queries/export-queries'
import {
  describeExport,
  walletsForFileName,
  type ExportNames,
} from '../../export/export-description'
import { resolveFilters, resolveMintChoices } from '../../export/export-filters'
import { layoutFor } from '../../export/csv-presets'
import { countExportRecords, runExport, type ExportRowSource } from '../../export/export-job'
import { endOfDaySec } from '../balances-at'
import { balancesAtRows, planBalancesAtExport } from '../balances-at-export'
import { historyGaps } from '../history-gaps'
import { callerAccount } from '../../sync/spender'
import type { HandlerContext } from './handler-context'
import type { HandlerGroup, HandlerTable } from './handler-table'

type BalancesAtPlan = Awaited<ReturnType<typeof planBalancesAtExport>>

/** A period of history an export asks for that the mirror does not hold, with the load that fills it. */
async function gapsOf(
  ctx: HandlerContext,
  kind: ExportKind,
  filters: ExportRowFilters,
): Promise<ExportPreview['gaps']> {
  if (kind !== 'balance-changes' && kind !== 'transfers') return []
  return historyGaps(ctx, filters.walletAddresses, filters.fromSec)
}

/**
 * Handlers of the `export:*` channels. Exports read the mirror only (no service calls but
 * for balances at a date the person chose to ask the service, their cost previewed),
 * report `export:progress` events, and can be cancelled by id. In the web shell the file
 * waits for one download; in the desktop shell it goes where the person pointed the save
 * dialog (`export:choose-path` asks the shell, and grants that path to one `export:run`).
 */
export function exportHandlers(ctx: HandlerContext) {
  const running = new Map<string, AbortController>()
  const handoffs = ctx.exports

  /**
   * An export's filters with mint symbols resolved, in the mirror's terms, with the names
   * that describe it and its file name: what the preview says is what the run writes.
   */
  async function planExport(kind: ExportKind, format: ExportFormat, filters: ExportFilters) {
    layoutFor(kind, format) // a layout the kind does not have is refused before anything else
    const choice = balancesAtChoice(kind, filters)
    const mirror = ctx.mirror
    const resolved = { ...filters, mints: await resolveMintChoices(filters.mints, mirror.mints) }
    const rowFilters = resolveFilters(resolved)
    // Balances at a date are as of the day's end, which names the file and the description.
    if (choice !== null) rowFilters.toSec = endOfDaySec(choice.date)
    const balancesAt =
      choice === null ? null : await planBalancesAtExport(ctx, rowFilters.walletAddresses, choice)
    const labels = new Map((await mirror.watchlist.list()).map((w) => [w.address, w.label]))
    const symbols = await mirror.mints.symbolsOf(rowFilters.mints)
    const names: ExportNames = {
      walletLabel: (address) => labels.get(address) ?? null,
      mintSymbol: (mint) => symbols.get(mint) ?? null,
    }
    const fileName = suggestedExportFileName({
      kind,
      format,
      wallets: walletsForFileName(rowFilters, names),
      fromSec: rowFilters.fromSec,
      toSec: rowFilters.toSec,
      nowSec: ctx.nowSec(),
    })
    const describe = (rows: number): string =>
      balancesAt === null
        ? describeExport(kind, rowFilters, rows, names)
        : `${describeExport(kind, rowFilters, rows, names)}, ${balancesAt.sourceText}`
    return { resolved, rowFilters, fileName, describe, balancesAt }
  }

  return {
    'export:run': async (input) => {
      if (running.has(input.exportId)) {
        throw new DuplicateError(`An export with id ${input.exportId} is already running.`)
      }
      // Reserved before the first await, so a second export with this id is refused.
      const controller = new AbortController()
      running.set(input.exportId, controller)
      try {
        return await runOne(input, controller)
      } finally {
        running.delete(input.exportId)
      }
    },
    'export:cancel': (input) => {
      const controller = running.get(input.exportId)
      controller?.abort()
      return { cancelled: controller !== undefined }
    },
    'export:preview': async ({ kind, format, filters }): Promise<ExportPreview> => {
      const plan = await planExport(kind, format, filters)
      if (plan.balancesAt?.choice.source === 'service') {
        // Counting the rows would spend the credits: the mints asked bound them.
        const rows = plan.balancesAt.plans.reduce((n, p) => n + p.mints, 0)
        return {
          rows,
          records: rows, // balances at a date have the full layout only

          description: `up to ${plan.describe(rows)}`,
          fileName: plan.fileName,
          serviceCredits: plan.balancesAt.serviceCredits,
          gaps: [],
        }
      }
      const rows = await mirrorRowsOf(ctx, kind, plan.balancesAt, plan.rowFilters)
      return {
        rows,
        records: await fileRecordsOf(ctx, kind, format, plan.resolved, rows),
        description: plan.describe(rows),
        fileName: plan.fileName,
        serviceCredits: 0,
        gaps: await gapsOf(ctx, kind, plan.rowFilters),
      }
    },
    'export:choose-path': async ({ kind, format, filters }) => {
      if (ctx.choosePath === undefined) {
        throw new AppError(
          'Saving to a chosen file needs the desktop app; here the browser downloads the export.',
        )
      }
      const { fileName } = await planExport(kind, format, filters)
      const path = await ctx.choosePath({ fileName })
      return path === null ? null : { grantId: handoffs.grantPath(path), path }
    },
  } satisfies HandlerGroup

  async function runOne(
    input: Parameters<HandlerTable['export:run']>[0],
    controller: AbortController,
  ): Promise<ExportResult> {
    const plan = await planExport(input.kind, input.format, input.filters)
    const fileName = plan.fileName
    const { outPath, download } = await destinationOf(handoffs, input.destination)
    const downloadFile = download?.path ?? null

    let last: Omit<ExportProgress, 'exportId' | 'state'> = {
      rowsRead: 0,
      rowsWritten: 0,
      totalRows: 0,
      fraction: 0,
    }
    const emit = (state: ExportProgress['state']): void =>
      ctx.events.emit('export:progress', { exportId: input.exportId, state, ...last })
    try {
      const summary = await runExport({
        source:
          plan.balancesAt === null
            ? ctx.mirror.exports
            : balancesAtRows(ctx, plan.balancesAt, plan.rowFilters.mints, controller.signal),
        kind: input.kind,
        format: input.format,
        filters: plan.resolved,
        delimiter: input.delimiter,
        includeHeader: input.includeHeader,
        outPath,
        // A download waits in the data folder, as private as the rest of it; a chosen path
        // gets the usual mode of a saved document.
        fileMode: downloadFile === null ? undefined : PRIVATE_FILE_MODE,
        signal: controller.signal,
        ...(download ? { onBytesWritten: download.place.addBytes } : {}),
        onProgress: (p) => {
          last = p
          emit('running')
        },
      })
      emit('done')
      const downloadId =
        download === null
          ? null
          : handoffs.offerDownload({ path: download.path, fileName }, download.place)
      return {
        exportId: input.exportId,
        rowsRead: summary.rowsRead,
        description: plan.describe(summary.rowsRead),
        rowsWritten: summary.rowsWritten,
        bytes: summary.bytes,
        fileName: downloadFile === null ? basename(summary.path) : fileName,
        downloadId,
        path: downloadFile === null ? summary.path : null,
      }
    } catch (error) {
      download?.place.free()
      emit(error instanceof ExportCancelledError ? 'cancelled' : 'failed')
      throw error
    }
  }
}

/**
 * Where an export is written: the path a save dialog granted, or a file that waits for its
 * download, with its place among what the asker may keep waiting (a team account: 3
 * exports and 1 GB; everyone: the disk's floor), or a refusal saying when one frees.
 */
async function destinationOf(
  handoffs: HandlerContext['exports'],
  destination: Parameters<HandlerTable['export:run']>[0]['destination'],
): Promise<{
  outPath: string
  download: Awaited<ReturnType<HandlerContext['exports']['startDownload']>> | null
}> {
  if (destination.type === 'chosen-path') {
    const granted = handoffs.takeGrant(destination.grantId)
    if (granted === null)
      throw new InvalidInputError(
        'Choose where to save the export first (the choice has expired or was used).',
      )
    return { outPath: granted, download: null }
  }
  const download = await handoffs.startDownload(callerAccount())
  return { outPath: download.path, download }
}

/** The balances-at kind's day and source; refused where missing, or given to another kind. */
function balancesAtChoice(kind: ExportKind, filters: ExportFilters): BalancesAtChoice | null {
  if (kind !== 'balances-at') {
    if (filters.balancesAt !== undefined)
      throw new InvalidInputError(
        `A day to take balances at belongs to the balances-at export, not ${kind}.`,
      )
    return null
  }
  if (filters.balancesAt === undefined)
    throw new InvalidInputError('Balances on a date need the date (YYYY-MM-DD).')
  if (filters.from !== undefined || filters.to !== undefined)
    throw new InvalidInputError(
      'Balances on a date take one day, not a date range: give the day only.',
    )
  return filters.balancesAt
}

/** Rows a source would give, read and counted (balances at a date from the mirror: free). */
/** The mirror rows an export reads: those of the kind, or the balances at a date rebuilt. */
async function mirrorRowsOf(
  ctx: HandlerContext,
  kind: ExportKind,
  balancesAt: BalancesAtPlan | null,
  rowFilters: ExportRowFilters,
): Promise<number> {
  if (balancesAt === null) return ctx.mirror.exports.count(kind, rowFilters)
  return countRows(balancesAtRows(ctx, balancesAt, rowFilters.mints), rowFilters)
}

/**
 * The records an export's file holds: the full layouts write one per row; a tax layout's
 * are counted through it, as the run writes them (it merges swaps, adds fee-only rows).
 */
async function fileRecordsOf(
  ctx: HandlerContext,
  kind: ExportKind,
  format: ExportFormat,
  filters: ExportFilters,
  rows: number,
): Promise<number> {
  if (format === 'full') return rows
  return countExportRecords({ source: ctx.mirror.exports, kind, format, filters })
}

async function countRows(source: ExportRowSource, filters: ExportRowFilters): Promise<number> {
  const read = await source.open('balances-at', filters, 10_000)
  await read.close()
  return read.totalRows
}
