import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { DOWNLOADS_FOLDER } from '../../../src-main/export/export-downloads'
import { startWebShell, type RunningWebShell } from '../../../src-main/shell/web/web-shell'
import { serveFolder } from '../../../src-main/shell/holder/holder-server'
import type { ExportResult } from '@shared/ipc/export-schemas'
import { exportDownloadPath } from '@shared/ipc/export-schemas'
import { runCli } from '../../helpers/cli-in-process'
import { BUILT_RENDERER_DIR } from '../../helpers/web-shell-fixture'
import { syncedMirror, type SyncedMirror } from './export-fixture'

// Given the web shell holding a data folder with a finished export waiting for its
// download, when every kind of CLI command and a second core run on that folder, then the
// download is still there: only the process that holds the folder cleans its pending
// exports, and only those an earlier run left behind.

describe('pending downloads belong to the process holding the data folder', () => {
  let mirror: SyncedMirror
  let core: Core
  let shell: RunningWebShell
  const leftover = (): string => join(mirror.dir, DOWNLOADS_FOLDER, 'left-by-a-killed-run.csv')

  beforeAll(async () => {
    mirror = await syncedMirror(['casual'])
    mkdirSync(join(mirror.dir, DOWNLOADS_FOLDER))
    writeFileSync(leftover(), 'stale')
    core = await createCore({
      dataDir: mirror.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      serveOthers: (opening) =>
        serveFolder({ dataDir: mirror.dir, name: 'the Heliograph web shell' }, opening),
    })
    shell = await startWebShell({ core, rendererDir: BUILT_RENDERER_DIR })
  })
  afterAll(async () => {
    await shell.close()
    await core.close()
    await mirror.stop()
  })

  it("Any CLI command deletes the web shell's pending downloads (`exports-pending` is wiped when any core starts)", async () => {
    const envelope = await core.dispatch('export:run', {
      exportId: 'waiting-1',
      kind: 'balance-changes',
    })
    if (!envelope.ok) throw new Error(envelope.error.message)
    const waiting = envelope.result as ExportResult

    const base = ['--data-dir', mirror.dir, '--data-source', 'service']
    for (const reading of [['status'], ['credits'], ['watch', 'list']]) {
      const run = await runCli([...base, ...reading])
      expect(run.code, `${reading.join(' ')}: ${run.stderr}`).toBe(0)
    }
    const out = join(mirror.dir, 'cli.csv')
    const exported = await runCli([...base, 'export', '--out', out])
    expect(exported.code, exported.stderr).toBe(0)
    // A second core on the folder (another web shell, say) that offers a download of its own.
    const second = await createCore({
      dataDir: mirror.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
    }).then(
      async (other) => {
        try {
          await other.dispatch('export:run', { exportId: 'second-1', kind: 'transfers' })
          return 'ran'
        } finally {
          await other.close()
        }
      },
      (error: Error) => error.message,
    )

    expect(second).toMatch(/is in use by the Heliograph web shell/)
    // Commands that write run through the web shell, which holds the folder: no core of
    // their own starts, and nothing of the web shell's is cleaned.
    const casual = mirror.addresses.get('casual') as string
    for (const writing of [
      ['watch', 'tag', casual, 'kept'],
      ['alerts', 'add', '--when', 'failed'],
    ]) {
      const run = await runCli([...base, ...writing])
      expect(run.code, `${writing.join(' ')}: ${run.stderr}`).toBe(0)
    }

    const url = `http://127.0.0.1:${shell.port}${exportDownloadPath(waiting.downloadId as string)}`
    const response = await fetch(`${url}?token=${shell.token}`)
    expect(response.status).toBe(200)
    expect((await response.arrayBuffer()).byteLength).toBe(waiting.bytes)
    // What a killed run left behind is the holder's to clean, at its start.
    expect(existsSync(leftover())).toBe(false)
  }, 120_000)
})
