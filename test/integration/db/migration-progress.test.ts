import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { MigrationProgress, OnMigration } from '../../../src-main/db/migration-progress'
import { migrations } from '../../../src-main/db/migrations'
import { openPostgresDatabase } from '../../../src-main/db/postgres/database'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { createTestDatabase } from '../../helpers/postgres'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'

// Given a mirror written by an earlier version (its last three migrations not applied),
// when it is opened, then each migration it still needs is told before it runs (the mirror
// as another connection sees it does not have it yet), in order, as step k of 3 of an
// update; a mirror being created is told its steps as a creation; one up to date, nothing.

const names = Object.keys(migrations)
const older = Object.fromEntries(Object.entries(migrations).slice(0, -3))

/** One mirror: opened with some migrations, and read from a connection of its own. */
interface TestMirror {
  open(only: typeof migrations, onMigration: OnMigration): Promise<void>
  /** The migrations applied, as another connection sees them. */
  applied(): Promise<string[]>
}

async function testMirror(engine: TestEngine, dir: string, drops: (() => Promise<void>)[]) {
  if (engine === 'sqlite') {
    const path = join(dir, 'heliograph.sqlite')
    return {
      open: async (only, onMigration) => {
        await (await openDatabase(path, { migrations: only, onMigration })).close()
      },
      applied: async () => {
        const reader = new BetterSqlite3(path, { readonly: true })
        try {
          const rows = reader.prepare('select name from kysely_migration order by name').all()
          return (rows as { name: string }[]).map((r) => r.name)
        } finally {
          reader.close()
        }
      },
    } satisfies TestMirror
  }
  const database = await createTestDatabase()
  drops.push(database.drop)
  return {
    open: async (only, onMigration) => {
      await (await openPostgresDatabase(database.url, { migrations: only, onMigration })).close()
    },
    applied: async () => {
      const client = new pg.Client({ connectionString: database.url })
      await client.connect()
      try {
        const { rows } = await client.query('select name from kysely_migration order by name')
        return (rows as { name: string }[]).map((r) => r.name)
      } finally {
        await client.end()
      }
    },
  } satisfies TestMirror
}

describe.each(ENGINES)('migrations told as they run (on %s)', (engine) => {
  const temp = makeTempDir()
  const drops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const drop of drops) await drop()
    temp.remove()
  })

  it('an update tells each step before it runs; a creation says it is one; a current mirror tells nothing', async () => {
    const mirror = await testMirror(engine, temp.dir, drops)
    const created: MigrationProgress[] = []
    await mirror.open(older, (p) => void created.push(p))
    expect(created.map((p) => p.name)).toEqual(names.slice(0, -3))
    expect(created.map((p) => p.step)).toEqual(names.slice(0, -3).map((_, i) => i + 1))
    expect(created.every((p) => !p.isUpdate && p.steps === names.length - 3)).toBe(true)

    const updated: MigrationProgress[] = []
    const seen: string[][] = []
    await mirror.open(migrations, async (p) => {
      updated.push(p)
      seen.push(await mirror.applied())
    })
    expect(updated).toEqual(
      names.slice(-3).map((name, i) => ({ name, step: i + 1, steps: 3, isUpdate: true })),
    )
    // Told before each step ran: the mirror had not got it yet. SQLite commits each step
    // on its own; PostgreSQL commits them all at once (a start stopped midway keeps none).
    const before = names.slice(0, -3)
    expect(seen).toEqual(
      engine === 'sqlite'
        ? [before, names.slice(0, -2), names.slice(0, -1)]
        : [before, before, before],
    )
    expect(await mirror.applied()).toEqual(names)

    const again: MigrationProgress[] = []
    await mirror.open(migrations, (p) => void again.push(p))
    expect(again).toEqual([])
  })
})
