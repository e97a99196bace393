import { randomBytes } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { ExportProgress } from '@shared/ipc/export-schemas'
import { ExportCancelledError, suggestedExportFileName } from '@shared/ipc/export-schemas'
import { AppError, DuplicateError, InvalidInputError } from '@shared/ipc/ipc-errors'
import type { OpenDatabase } from '../../db/database'
import { exportHandoffsOf } from '../../export/export-downloads'
import { runExport } from '../../export/export-job'
import type { HandlerContext } from './handler-context'
import type { HandlerTable } from './handler-table'

/** Folder (inside the data folder) where web-shell exports wait for their one download. */
export const DOWNLOADS_FOLDER = 'exports-pending'

/**
 * Handlers of the `export:*` channels. Exports read the mirror only (no service calls),
 * report `export:progress` events, and can be cancelled by id. In the web shell the file
 * waits for one download; in the desktop shell it goes where the save dialog pointed
 * (the shell answers `export:choose-path` itself and grants that path).
 */
export function exportHandlers(
  ctx: HandlerContext,
  database: OpenDatabase,
): Pick<HandlerTable, 'export:run' | 'export:cancel' | 'export:choose-path'> {
  const running = new Map<string, AbortController>()
  const handoffs = exportHandoffsOf(database)
  const downloadsDir = join(ctx.info.dataDir, DOWNLOADS_FOLDER)
  // Downloads never fetched by a previous run are stale: their ids died with that run.
  const cleared = rm(downloadsDir, { recursive: true, force: true }).catch(() => undefined)

  return {
    'export:run': async (input) => {
      if (running.has(input.exportId)) {
        throw new DuplicateError(`An export with id ${input.exportId} is already running.`)
      }
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
        await cleared
        await mkdir(downloadsDir, { recursive: true })
        downloadFile = join(downloadsDir, `${randomBytes(12).toString('hex')}.csv`)
        outPath = downloadFile
      }

      const controller = new AbortController()
      running.set(input.exportId, controller)
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
          databasePath: database.path,
          kind: input.kind,
          format: input.format,
          filters: input.filters,
          delimiter: input.delimiter,
          includeHeader: input.includeHeader,
          outPath,
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
      } finally {
        running.delete(input.exportId)
      }
    },
    'export:cancel': (input) => {
      const controller = running.get(input.exportId)
      controller?.abort()
      return { cancelled: controller !== undefined }
    },
    'export:choose-path': () => {
      throw new AppError(
        'Saving to a chosen file needs the desktop app; here the browser downloads the export.',
      )
    },
  }
}
