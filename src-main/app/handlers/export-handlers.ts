import { basename } from 'node:path'
import type { ExportProgress, ExportResult } from '@shared/ipc/export-schemas'
import { ExportCancelledError, suggestedExportFileName } from '@shared/ipc/export-schemas'
import { AppError, DuplicateError, InvalidInputError } from '@shared/ipc/ipc-errors'
import { PRIVATE_FILE_MODE } from '../../db/private-files'
import { runExport } from '../../export/export-job'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

/**
 * Handlers of the `export:*` channels. Exports read the mirror only (no service calls),
 * report `export:progress` events, and can be cancelled by id. In the web shell the file
 * waits for one download; in the desktop shell it goes where the person pointed the save
 * dialog (`export:choose-path` asks the shell, and grants that path to one `export:run`).
 */
export function exportHandlers(
  ctx: HandlerContext,
): Pick<HandlerTable, 'export:run' | 'export:cancel' | 'export:choose-path'> {
  const running = new Map<string, AbortController>()
  const handoffs = ctx.exports

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
    'export:choose-path': async ({ kind, format }) => {
      if (ctx.choosePath === undefined) {
        throw new AppError(
          'Saving to a chosen file needs the desktop app; here the browser downloads the export.',
        )
      }
      const path = await ctx.choosePath({
        fileName: suggestedExportFileName(kind, format, ctx.nowSec()),
      })
      return path === null ? null : { grantId: handoffs.grantPath(path), path }
    },
  }

  async function runOne(
    input: Parameters<HandlerTable['export:run']>[0],
    controller: AbortController,
  ): Promise<ExportResult> {
    const fileName = suggestedExportFileName(input.kind, input.format, ctx.nowSec())
    let outPath: string
    let downloadFile: string | null = null
    if (input.destination.type === 'chosen-path') {
      const granted = handoffs.takeGrant(input.destination.grantId)
      if (granted === null) {
        throw new InvalidInputError(
          'Choose where to save the export first (the choice has expired or was used).',
        )
      }
      outPath = granted
    } else {
      downloadFile = await handoffs.newDownloadPath()
      outPath = downloadFile
    }

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
        source: ctx.mirror.exports,
        kind: input.kind,
        format: input.format,
        filters: input.filters,
        delimiter: input.delimiter,
        includeHeader: input.includeHeader,
        outPath,
        // A download waits in the data folder, as private as the rest of it; a chosen path
        // gets the usual mode of a saved document.
        fileMode: downloadFile === null ? undefined : PRIVATE_FILE_MODE,
        signal: controller.signal,
        onProgress: (p) => {
          last = p
          emit('running')
        },
      })
      emit('done')
      const downloadId =
        downloadFile === null ? null : handoffs.offerDownload({ path: downloadFile, fileName })
      return {
        exportId: input.exportId,
        rowsRead: summary.rowsRead,
        rowsWritten: summary.rowsWritten,
        bytes: summary.bytes,
        fileName: downloadFile === null ? basename(summary.path) : fileName,
        downloadId,
        path: downloadFile === null ? summary.path : null,
      }
    } catch (error) {
      emit(error instanceof ExportCancelledError ? 'cancelled' : 'failed')
      throw error
    }
  }
}
