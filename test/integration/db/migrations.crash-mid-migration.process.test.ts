import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { Migration } from 'kysely/migration'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { migrations } from '../../../src-main/db/migrations'
import { builtTables, columnMismatches, readTypedSchema } from '../../helpers/schema-guard'
import { makeTempDir } from '../../helpers/temp-dir'
import { killInsideMigration } from './kill-inside-migration'

/** The migrations a database file records as applied (none before its first one). */
function recordedMigrations(path: string): string[] {
  const sqlite = new BetterSqlite3(path, { readonly: true })
  try {
    const hasTable = sqlite
      .prepare("select 1 from sqlite_master where name = 'kysely_migration'")
      .get()
    if (hasTable === undefined) return []
    const rows = sqlite.prepare('select name from kysely_migration order by name').all()
    return (rows as { name: string }[]).map((r) => r.name)
  } finally {
    sqlite.close()
  }
}

/** Every table, index and trigger with the SQL that made it. */
function schemaOf(sqlite: BetterSqlite3.Database): unknown[] {
  return sqlite.prepare('select type, name, tbl_name, sql from sqlite_master order by name').all()
}

describe('migrations run in a transaction', () => {
  const names = Object.keys(migrations)
  const typed = readTypedSchema()

  it.each(names)(
    'killed inside %s after its first statement, the next start completes it',
    async (migration) => {
      const temp = makeTempDir()
      try {
        const path = join(temp.dir, 'heliograph.sqlite')
        await killInsideMigration(path, migration)

        // The migrations before it are kept; of the one killed, nothing.
        expect(recordedMigrations(path)).toEqual(names.slice(0, names.indexOf(migration)))

        const recovered = await openDatabase(path)
        const fresh = await openDatabase(join(temp.dir, 'fresh.sqlite'))
        try {
          expect(schemaOf(recovered.sqlite)).toEqual(schemaOf(fresh.sqlite))
          expect([...typed.keys()].sort()).toEqual(builtTables(recovered.sqlite).sort())
          expect(columnMismatches(recovered.sqlite, typed)).toEqual([])
          expect(recovered.sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
        } finally {
          await recovered.close()
          await fresh.close()
        }
      } finally {
        temp.remove()
      }
    },
  )

  it('a migration that fails midway (as on a full disk) leaves no trace, and the next start applies it', async () => {
    const temp = makeTempDir()
    try {
      const path = join(temp.dir, 'heliograph.sqlite')
      const original = migrations['0002-mirror']!
      const failing: Migration = {
        async up(db) {
          await original.up(db)
          throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
        },
      }
      await expect(
        openDatabase(path, { migrations: { ...migrations, '0002-mirror': failing } }),
      ).rejects.toThrow(
        'Could not migrate the database (migration 0002-mirror): the disk is full; free some space and try again (nothing was lost).',
      )
      expect(recordedMigrations(path)).toEqual(['0001-initial'])
      const reopened = await openDatabase(path)
      try {
        expect(recordedMigrations(path)).toEqual(names)
        expect(columnMismatches(reopened.sqlite, typed)).toEqual([])
      } finally {
        await reopened.close()
      }
    } finally {
      temp.remove()
    }
  })
})
