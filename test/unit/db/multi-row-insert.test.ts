import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { MultiRowInsert } from '../../../src-main/db/sqlite/multi-row-insert'

// Rows of any count go in, in order and whole, through statements of a few fixed sizes.

describe('MultiRowInsert', () => {
  it.each([0, 1, 3, 4, 5, 63, 64, 65, 100, 265])('inserts %i rows, each as given', (count) => {
    const sqlite = new BetterSqlite3(':memory:')
    sqlite.exec('create table t (id integer primary key, n integer not null, label text)')
    const insert = new MultiRowInsert(sqlite, 't', ['n', 'label'])
    const rows = Array.from({ length: count }, (_, n) => ({ n, label: n % 7 ? `row ${n}` : null }))
    insert.run(rows)
    expect(sqlite.prepare('select n, label from t order by id').all()).toEqual(rows)
    sqlite.close()
  })

  it('gives back the chosen columns of the rows it inserted, none for rows a conflict skipped', () => {
    const sqlite = new BetterSqlite3(':memory:')
    sqlite.exec('create table t (id integer primary key, key text not null unique)')
    sqlite.exec("insert into t (key) values ('k3')")
    const insert = new MultiRowInsert(sqlite, 't', ['key'], {
      onConflict: 'on conflict (key) do nothing',
      returning: ['id', 'key'],
    })
    const keys = Array.from({ length: 70 }, (_, n) => ({ key: `k${n}` }))
    const returned = insert.run(keys)
    expect(returned).toHaveLength(69)
    const stored = sqlite.prepare('select id, key from t where key != ?').raw().all('k3')
    expect(new Set(returned.map((r) => JSON.stringify(r)))).toEqual(
      new Set(stored.map((r) => JSON.stringify(r))),
    )
    expect(insert.run([{ key: 'k3' }])).toEqual([])
    sqlite.close()
  })

  it('fails as a single insert would, naming the constraint', () => {
    const sqlite = new BetterSqlite3(':memory:')
    sqlite.exec('create table t (n integer not null unique)')
    const insert = new MultiRowInsert(sqlite, 't', ['n'])
    expect(() => insert.run([{ n: 1 }, { n: 1 }])).toThrow(/UNIQUE constraint failed: t\.n/)
    sqlite.close()
  })
})
