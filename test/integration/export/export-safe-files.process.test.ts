import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ExportCancelledError, ExportFileError } from '@shared/ipc/export-schemas'
import { runExport, type ExportProgressInfo } from '../../../src-main/export/export-job'
import { makeTempDir } from '../../helpers/temp-dir'
import { runTsUnprivileged } from '../../helpers/unprivileged-child'
import { syncedMirror, type SyncedMirror } from './export-fixture'

const LOCKED_FOLDER_EXPORT = resolve(import.meta.dirname, 'export-into-locked-folder.ts')

describe('export files: complete or absent, and clear errors', () => {
  let mirror: SyncedMirror
  let outDir: string
  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle'])
    outDir = join(mirror.dir, 'out')
    mkdirSync(outDir)
  })
  afterAll(() => mirror.stop())

  const exportTo = (outPath: string, extra: Partial<Parameters<typeof runExport>[0]> = {}) =>
    runExport({ source: mirror.mirror.exports, kind: 'balance-changes', outPath, ...extra })

  it('reports progress from a count taken first, ending at the whole', async () => {
    const seen: ExportProgressInfo[] = []
    const summary = await exportTo(join(outDir, 'progress.csv'), {
      batchRows: 10,
      onProgress: (p) => seen.push(p),
    })
    const total = (
      mirror.database.sqlite.prepare('select count(*) as n from balance_changes').get() as {
        n: number
      }
    ).n
    expect(seen.length).toBeGreaterThan(5)
    expect(seen.every((p) => p.totalRows === total)).toBe(true)
    expect(seen.map((p) => p.rowsRead)).toEqual(
      [...seen.map((p) => p.rowsRead)].sort((a, b) => a - b),
    )
    expect(seen.at(-1)).toMatchObject({
      rowsRead: total,
      fraction: 1,
      rowsWritten: summary.rowsWritten,
    })
    expect(readFileSync(summary.path, 'utf8').split('\r\n').length).toBe(total + 2)
  })

  it('cancelled midway leaves no file at the target and no temporary file', async () => {
    const controller = new AbortController()
    const target = join(outDir, 'cancelled.csv')
    let progressCalls = 0
    const run = exportTo(target, {
      batchRows: 5,
      signal: controller.signal,
      onProgress: (p) => {
        progressCalls += 1
        if (p.fraction > 0.3) controller.abort()
      },
    })
    await expect(run).rejects.toBeInstanceOf(ExportCancelledError)
    expect(progressCalls).toBeGreaterThan(1)
    expect(readdirSync(outDir).filter((f) => f.startsWith('cancelled'))).toEqual([])
  })

  it('cancelled over an existing file leaves that file as it was', async () => {
    const target = join(outDir, 'existing.csv')
    writeFileSync(target, 'previous export\r\n')
    const controller = new AbortController()
    const run = exportTo(target, {
      batchRows: 5,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    })
    await expect(run).rejects.toBeInstanceOf(ExportCancelledError)
    expect(readFileSync(target, 'utf8')).toBe('previous export\r\n')
    expect(readdirSync(outDir).filter((f) => f.startsWith('existing'))).toEqual(['existing.csv'])
  })

  it('replaces an existing file only when the new one is complete', async () => {
    const target = join(outDir, 'replaced.csv')
    writeFileSync(target, 'old')
    const summary = await exportTo(target)
    expect(readFileSync(target, 'utf8').startsWith('Time (UTC),')).toBe(true)
    expect(summary.bytes).toBe(readFileSync(target).length)
    expect(readdirSync(outDir).some((f) => f.includes('.partial-'))).toBe(false)
  })

  it('names the path and the reason when the folder is missing', async () => {
    const target = join(outDir, 'no-such-folder', 'x.csv')
    const error = await exportTo(target).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ExportFileError)
    expect((error as Error).message).toBe(
      `Cannot write the export to ${target}: the folder does not exist (ENOENT).`,
    )
  })

  it('names the reason when the target is a folder or its parent is a file', async () => {
    const folder = join(outDir, 'a-folder')
    mkdirSync(folder)
    await expect(exportTo(folder)).rejects.toThrow(/it is a folder \(EISDIR\)/)
    const file = join(outDir, 'a-file')
    writeFileSync(file, '')
    await expect(exportTo(join(file, 'x.csv'))).rejects.toThrow(/is not a folder \(ENOTDIR\)/)
  })

  // Root ignores permission bits, so as root (CI containers) the check runs without the
  // capabilities that let it (unprivileged-child.ts).
  it('names the reason when the folder is not writable, checked as an unprivileged user even when the tests run as root', async () => {
    const child = makeTempDir()
    try {
      const answer = JSON.parse(await runTsUnprivileged(LOCKED_FOLDER_EXPORT, [child.dir]))
      expect(answer).toEqual({
        canOverridePermissions: false,
        name: 'ExportFileError',
        message: `Cannot write the export to ${join(child.dir, 'locked', 'x.csv')}: permission denied (EACCES).`,
      })
    } finally {
      child.remove()
    }
  })
})
