import { join } from 'node:path'
import { openPostgresMirror, type PostgresMirror } from '../../src-main/db/postgres/mirror'
import { openSqliteMirror, type SqliteMirror } from '../../src-main/db/sqlite/mirror'
import { createTestDatabase } from './postgres'
import type { TestEngine } from './sync-fixture'
import { makeTempDir } from './temp-dir'

/**
 * A new, empty mirror on `engine` (a SQLite file in a folder of its own, or a PostgreSQL
 * database of its own), and `drop`, which closes it and removes it.
 *
 * @example
 * describe.each(ENGINES)('… on %s', (engine) => {
 *   let opened: Awaited<ReturnType<typeof openEngineMirror>>
 *   beforeAll(async () => (opened = await openEngineMirror(engine)))
 *   afterAll(() => opened?.drop())
 * })
 */
export async function openEngineMirror(
  engine: TestEngine,
): Promise<{ mirror: SqliteMirror | PostgresMirror; drop: () => Promise<void> }> {
  if (engine === 'postgres') {
    const database = await createTestDatabase()
    const mirror = await openPostgresMirror(database.url)
    return { mirror, drop: async () => (await mirror.close(), await database.drop()) }
  }
  const temp = makeTempDir()
  const mirror = await openSqliteMirror(join(temp.dir, 'heliograph.sqlite'))
  return { mirror, drop: async () => (await mirror.close(), temp.remove()) }
}
