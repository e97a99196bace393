import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Kysely, SqliteDialect } from 'kysely'
import { Migrator } from 'kysely/migration'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../../src-main/db/migrations'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// A mirror opened read-only (the CLI's reading commands) reads beside the process that
// writes and sees what it commits; it never migrates, so a mirror an older version wrote
// is refused with what to do, and the file is left as it was.

const sha256 = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex')

describe('a mirror opened read-only', () => {
  it('reads beside the writer and sees its commits, and refuses to write', async () => {
    const temp = makeTempDir()
    const path = join(temp.dir, 'heliograph.sqlite')
    const writer = await openSqliteMirror(path)
    const reader = await openSqliteMirror(path, { isReadOnly: true })
    try {
      expect(await reader.watchlist.list()).toEqual([])
      await writer.watchlist.add({ address: testAddress(1), label: 'One' }, 1_700_000_000)
      expect((await reader.watchlist.list()).map((w) => w.label)).toEqual(['One'])
      await expect(
        reader.watchlist.add({ address: testAddress(2) }, 1_700_000_000),
      ).rejects.toThrow()
    } finally {
      await reader.close()
      await writer.close()
      temp.remove()
    }
  })

  it('refuses a mirror that an older version wrote, leaving the file unchanged', async () => {
    const temp = makeTempDir()
    const path = join(temp.dir, 'heliograph.sqlite')
    const older = new Kysely({ dialect: new SqliteDialect({ database: new BetterSqlite3(path) }) })
    const migrator = new Migrator({
      db: older,
      provider: { getMigrations: async () => migrations },
    })
    const { error } = await migrator.migrateTo('0002-mirror')
    expect(error).toBeUndefined()
    await older.destroy()
    const before = sha256(path)
    try {
      await expect(openSqliteMirror(path, { isReadOnly: true })).rejects.toThrow(
        `The database at ${path} was written by an older Heliograph and cannot be read until it is updated`,
      )
      expect(sha256(path)).toBe(before)
    } finally {
      temp.remove()
    }
  })
})
