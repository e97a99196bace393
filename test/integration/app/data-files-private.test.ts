import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { databasePath } from '../../../src-main/app/data-dir'
import { DOWNLOADS_FOLDER } from '../../../src-main/export/export-downloads'
import { makeTempDir } from '../../helpers/temp-dir'

// Given a process whose umask takes nothing away (the worst case), when Heliograph creates
// its data, then nobody but the owner can read it: folders 0700, files 0600.

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8)

describe.skipIf(process.platform === 'win32')('private data files', () => {
  let temp: ReturnType<typeof makeTempDir>
  let umask: number
  beforeEach(() => {
    temp = makeTempDir()
    umask = process.umask(0)
  })
  afterEach(() => {
    process.umask(umask)
    temp.remove()
  })

  it('the data folder, the database and pending exports are created private (0700, 0600), whatever the umask', async () => {
    const dataDir = join(temp.dir, 'config', 'Heliograph')
    const core = await createCore({ dataDir, shell: 'web', version: '0', dataSource: 'service' })
    try {
      const envelope = await core.dispatch('export:run', {
        exportId: 'private-export',
        kind: 'transfers',
      })
      expect(envelope).toMatchObject({ ok: true, result: { downloadId: expect.any(String) } })
      const pendingDir = join(dataDir, DOWNLOADS_FOLDER)
      const [pending] = readdirSync(pendingDir)
      const database = databasePath(dataDir)
      expect({
        dataDir: modeOf(dataDir),
        database: modeOf(database),
        wal: modeOf(`${database}-wal`),
        shm: modeOf(`${database}-shm`),
        pendingDir: modeOf(pendingDir),
        pendingExport: modeOf(join(pendingDir, pending as string)),
      }).toEqual({
        dataDir: '700',
        database: '600',
        wal: '600',
        shm: '600',
        pendingDir: '700',
        pendingExport: '600',
      })
    } finally {
      await core.close()
    }
  })

  it('a database an earlier version left world-readable is narrowed to 0600 when opened', async () => {
    const database = databasePath(temp.dir)
    const earlier = new BetterSqlite3(database)
    earlier.pragma('journal_mode = WAL')
    earlier.exec('create table t (x)')
    // A second connection keeps the -wal and -shm files after the first one closes, as
    // a crash would.
    const reader = new BetterSqlite3(database)
    reader.prepare('select count(*) from t').get()
    earlier.close()
    expect([database, `${database}-wal`, `${database}-shm`].map(modeOf)).toEqual([
      '644',
      '644',
      '644',
    ])

    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: '0',
      dataSource: 'service',
    })
    try {
      expect([database, `${database}-wal`, `${database}-shm`].map(modeOf)).toEqual([
        '600',
        '600',
        '600',
      ])
    } finally {
      await core.close()
      reader.close()
    }
  })
})
