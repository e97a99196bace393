import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type OpenDatabase } from '../../../src-main/db/sqlite/database'
import { builtTables, columnMismatches, readTypedSchema } from '../../helpers/schema-guard'
import { makeTempDir } from '../../helpers/temp-dir'

describe('the typed schema matches the migrated database', () => {
  const temp = makeTempDir()
  let database: OpenDatabase
  const typed = readTypedSchema()

  beforeAll(async () => {
    database = await openDatabase(join(temp.dir, 'heliograph.sqlite'))
  })
  afterAll(async () => {
    await database.close()
    temp.remove()
  })

  it('has exactly the tables the migrations create', () => {
    expect([...typed.keys()].sort()).toEqual(builtTables(database.sqlite).sort())
  })

  it('declares every column with its nullability, default and kind', () => {
    expect(columnMismatches(database.sqlite, typed)).toEqual([])
  })
})
