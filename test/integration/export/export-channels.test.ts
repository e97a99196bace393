import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { DOWNLOADS_FOLDER } from '../../../src-main/export/export-downloads'
import { runExport } from '../../../src-main/export/export-job'
import { startWebShell, type RunningWebShell } from '../../../src-main/shell/web/web-shell'
import type { ExportProgress, ExportResult } from '@shared/ipc/export-schemas'
import { exportDownloadPath } from '@shared/ipc/export-schemas'
import { makeTempDir } from '../../helpers/temp-dir'
import { BUILT_RENDERER_DIR } from '../../helpers/web-shell-fixture'
import { syncedMirror, type SyncedMirror } from './export-fixture'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Given a core over a synced mirror and the web shell in front of it, when the renderer
// asks for an export, then progress events arrive, the file downloads once with the launch
// token, and nowhere without it.

describe('export channels and the web shell download', () => {
  let mirror: SyncedMirror
  let core: Core
  let shell: RunningWebShell
  const progress: ExportProgress[] = []
  let wallet: string

  beforeAll(async () => {
    mirror = await syncedMirror(['casual', 'idle'])
    wallet = mirror.addresses.get('casual') as string
    core = await createCore({
      dataDir: mirror.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      clock: new FastForwardClock({ wallSec: () => 1_793_491_200 }),
    })
    core.events.subscribe((event, payload) => {
      if (event === 'export:progress') progress.push(payload as ExportProgress)
    })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
  })
  afterAll(async () => {
    await shell.close()
    await core.close()
    await mirror.stop()
  })

  const base = (): string => `http://127.0.0.1:${shell.port}`

  async function run(input: Record<string, unknown>): Promise<ExportResult> {
    const envelope = await core.dispatch('export:run', input)
    if (!envelope.ok) throw new Error(JSON.stringify(envelope.error))
    return envelope.result as ExportResult
  }

  it('downloads a finished export once, by its one-time id, as an attachment', async () => {
    const result = await run({
      exportId: 'download-1',
      kind: 'balance-changes',
      format: 'koinly',
      filters: { wallets: [wallet] },
    })
    expect(result).toMatchObject({
      exportId: 'download-1',
      path: null,
      fileName: 'heliograph-casual-balance-changes-koinly-to-2026-11-01.csv',
    })
    expect(result.downloadId).toEqual(expect.any(String))
    const done = progress.filter((p) => p.exportId === 'download-1')
    expect(done.at(-1)).toMatchObject({ state: 'done', fraction: 1, rowsRead: result.rowsRead })

    // The one-time id is the download's capability; another web page still cannot fetch it.
    const url = `${base()}${exportDownloadPath(result.downloadId as string)}`
    expect((await fetch(url, { headers: { origin: 'http://evil.example' } })).status).toBe(403)

    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toContain(
      'attachment; filename="heliograph-casual-balance-changes-koinly-to-2026-11-01.csv"',
    )
    const body = Buffer.from(await response.arrayBuffer())
    expect(body.length).toBe(result.bytes)

    // The same export written directly is the same file, byte for byte.
    const direct = join(mirror.dir, 'direct.csv')
    await runExport({
      source: mirror.mirror.exports,
      kind: 'balance-changes',
      format: 'koinly',
      filters: { wallets: [wallet] },
      outPath: direct,
    })
    expect(body.equals(readFileSync(direct))).toBe(true)

    // One time only, and the file is gone from the data folder once sent.
    expect((await fetch(url)).status).toBe(404)
    await expect.poll(() => readdirSync(join(mirror.dir, DOWNLOADS_FOLDER)).length).toBe(0)
  })

  it('answers 404 for a download id it never handed out', async () => {
    const response = await fetch(`${base()}${exportDownloadPath('made-up-download-id')}`)
    expect(response.status).toBe(404)
  })

  it('cancels a running export by id and leaves no file behind', async () => {
    const unsubscribe = core.events.subscribe((event, payload) => {
      const p = payload as ExportProgress
      if (event === 'export:progress' && p.exportId === 'cancel-me' && p.state === 'running') {
        void core.dispatch('export:cancel', { exportId: 'cancel-me' })
      }
    })
    const envelope = await core.dispatch('export:run', {
      exportId: 'cancel-me',
      kind: 'balance-changes',
    })
    unsubscribe()
    expect(envelope).toMatchObject({ ok: false, error: { name: 'ExportCancelledError' } })
    expect(progress.filter((p) => p.exportId === 'cancel-me').at(-1)?.state).toBe('cancelled')
    expect(readdirSync(join(mirror.dir, DOWNLOADS_FOLDER))).toEqual([])
    expect(await core.dispatch('export:cancel', { exportId: 'cancel-me' })).toEqual({
      ok: true,
      result: { cancelled: false },
    })
  })

  it('Two exports with the same id can run at once (the id is reserved after an await)', async () => {
    const input = { exportId: 'same-id-1', kind: 'balance-changes' }
    const [first, second] = await Promise.all([
      core.dispatch('export:run', input),
      core.dispatch('export:run', input),
    ])
    expect(first).toMatchObject({ ok: true, result: { exportId: 'same-id-1' } })
    expect(second).toMatchObject({
      ok: false,
      error: { name: 'DuplicateError', message: 'An export with id same-id-1 is already running.' },
    })
    // Once the first has finished, the id is free again.
    expect(await core.dispatch('export:run', input)).toMatchObject({ ok: true })
  })

  it('writes to a path only through a save-dialog grant, once', async () => {
    // The desktop shell, on a folder of its own (one writing process per data folder):
    // its save dialog answers `export:choose-path`.
    const desktopDir = makeTempDir()
    const target = join(desktopDir.dir, 'chosen.csv')
    let dialogAnswer: string | null = null
    const desktop = await createCore({
      dataDir: desktopDir.dir,
      shell: 'electron',
      version: 'test',
      dataSource: 'service',
      choosePath: async () => dialogAnswer,
    })
    try {
      const cancelled = await desktop.dispatch('export:choose-path', { kind: 'balances' })
      expect(cancelled).toEqual({ ok: true, result: null })
      dialogAnswer = target
      const chosen = await desktop.dispatch('export:choose-path', { kind: 'balances' })
      if (!chosen.ok) throw new Error(chosen.error.message)
      const { grantId } = chosen.result as { grantId: string; path: string }
      const input = {
        exportId: 'chosen-1',
        kind: 'balances',
        destination: { type: 'chosen-path', grantId },
      }
      const result = await desktop.dispatch('export:run', input)
      expect(result).toMatchObject({
        ok: true,
        result: { path: target, downloadId: null, fileName: 'chosen.csv' },
      })
      expect(existsSync(target)).toBe(true)
      const again = await desktop.dispatch('export:run', { ...input, exportId: 'chosen-2' })
      expect(again).toMatchObject({ ok: false, error: { name: 'InvalidInputError' } })
    } finally {
      await desktop.close()
      desktopDir.remove()
    }
  })

  it('answers that the save dialog needs the desktop app, and rejects bad input', async () => {
    expect(await core.dispatch('export:choose-path', { kind: 'balances' })).toMatchObject({
      ok: false,
      error: { name: 'AppError' },
    })
    const bad = await core.dispatch('export:run', {
      exportId: 'bad-input',
      kind: 'balance-changes',
      filters: { from: 'yesterday' },
    })
    expect(bad).toMatchObject({ ok: false, error: { name: 'InvalidInputError' } })
    const reversed = await core.dispatch('export:run', {
      exportId: 'reversed',
      kind: 'balance-changes',
      filters: { from: '2026-02-01', to: '2026-01-01' },
    })
    expect(reversed).toMatchObject({
      ok: false,
      error: { name: 'InvalidInputError', message: 'The date range ends before it starts.' },
    })
  })
})
