import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

describe('storage failures become clear errors and lose nothing', () => {
  it('a database locked by another process: the add fails saying so, and succeeds once released', async () => {
    const temp = makeTempDir()
    const core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: '0',
      dataSource: 'service',
    })
    // A second connection holds the write lock, as another Heliograph process would
    // (the core waits its busy timeout, then says so).
    const other = new BetterSqlite3(join(temp.dir, 'heliograph.sqlite'), { timeout: 0 })
    other.exec('BEGIN IMMEDIATE')
    try {
      const reply = await core.dispatch('watchlist:add', { address: testAddress(1) })
      expect(reply).toMatchObject({
        ok: false,
        error: {
          name: 'StorageError',
          message: expect.stringMatching(/locked by another process/),
        },
      })
      other.exec('ROLLBACK')
      const retry = await core.dispatch('watchlist:add', { address: testAddress(1) })
      expect(retry.ok).toBe(true)
    } finally {
      other.close()
      await core.close()
      temp.remove()
    }
  })

  it('a data folder that cannot be created (its parent is a file) names the path', async () => {
    const temp = makeTempDir()
    const notAFolder = join(temp.dir, 'file')
    writeFileSync(notAFolder, 'x')
    try {
      await expect(openDatabase(join(notAFolder, 'sub', 'x.sqlite'))).rejects.toThrow(
        /Could not open the database at .*file\/sub\/x\.sqlite: .*not a directory/,
      )
    } finally {
      temp.remove()
    }
  })

  it('a path that is a folder, not a file, is refused with the path named', async () => {
    const temp = makeTempDir()
    try {
      await expect(openDatabase(temp.dir)).rejects.toThrow(
        new RegExp(`Could not open the database at ${temp.dir}`),
      )
    } finally {
      temp.remove()
    }
  })
})
