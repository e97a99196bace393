import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { migrations } from '../../../src-main/db/migrations'
import { makeTempDir } from '../../helpers/temp-dir'

const MIGRATIONS_DIR = join(import.meta.dirname, '../../../src-main/db/migrations')

describe('migrations', () => {
  it('every numbered file is registered, in order, and nothing else is', () => {
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{4}-.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort()
    expect(Object.keys(migrations)).toEqual(files)
    // Numbers are unique and ascending; one may be reserved for work still to land.
    const numbers = files.map((name) => Number(name.slice(0, 4)))
    numbers.forEach((n, i) => expect(n).toBeGreaterThan(i === 0 ? 0 : (numbers[i - 1] as number)))
  })

  it('are frozen: they import only kysely and the frozen engine column types, never app code or the typed Database', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-/.test(f))
    for (const file of [...files, 'engine-column-types.ts']) {
      const imports = [
        ...readFileSync(join(MIGRATIONS_DIR, file), 'utf8').matchAll(/from\s+'([^']+)'/g),
      ].map((m) => m[1])
      expect(
        imports.every(
          (source) =>
            source === 'kysely' ||
            (source === './engine-column-types' && file !== 'engine-column-types.ts'),
        ),
        `${file} imports ${imports.join(', ')}`,
      ).toBe(true)
    }
  })

  it('apply on a fresh file, record themselves, and are a no-op on reopen', async () => {
    const temp = makeTempDir()
    try {
      const path = join(temp.dir, 'mirror.sqlite')
      const first = await openDatabase(path)
      const applied = first.sqlite
        .prepare('select name from kysely_migration order by name')
        .all() as { name: string }[]
      expect(applied.map((r) => r.name)).toEqual(Object.keys(migrations))
      expect(first.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(first.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
      await first.close()
      const second = await openDatabase(path)
      const again = second.sqlite.prepare('select count(*) as n from kysely_migration').get() as {
        n: number
      }
      expect(again.n).toBe(Object.keys(migrations).length)
      expect(second.sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
      await second.close()
    } finally {
      temp.remove()
    }
  })
})
