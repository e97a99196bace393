import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore } from '../../../src-main/app/core'
import { serveFolder } from '../../../src-main/shell/holder/holder-server'
import { runCli } from '../../helpers/cli-in-process'
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres'
import { ENGINES } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// On a PostgreSQL mirror the same holds per data folder: the process holding the folder
// (here a core on the database, as `serve --database …` runs one) serves the commands run
// on that folder, which print as they would alone; a command naming another database is
// refused rather than run on the holder's.

describe.runIf(ENGINES.includes('postgres'))('CLI: the holder of a folder on PostgreSQL', () => {
  const temp = makeTempDir()
  let database: TestDatabase
  let other: TestDatabase

  beforeAll(async () => {
    database = await createTestDatabase()
    other = await createTestDatabase()
  })
  afterAll(async () => {
    await database.drop()
    await other.drop()
    temp.remove()
  })

  it('commands on the folder run through its holder on the database, and print as alone', async () => {
    const base = ['--data-dir', temp.dir, '--database', database.url, '--data-source', 'service']
    const wallet = testAddress(61)
    expect((await runCli([...base, 'watch', 'add', wallet, '--label', 'Pg'])).code).toBe(0)
    const alone = await runCli([...base, 'watch', 'list', '--json'])

    const holder = await createCore({
      dataDir: temp.dir,
      databaseUrl: database.url,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      serveOthers: (opening) =>
        serveFolder({ dataDir: temp.dir, name: 'the test server' }, opening),
    })
    try {
      expect(await runCli([...base, 'watch', 'list', '--json'])).toEqual(alone)
      const tagged = await runCli([...base, 'watch', 'tag', wallet, 'pg'])
      expect(tagged.code, tagged.stderr).toBe(0)
      const listed = await holder.dispatch('watchlist:list', undefined)
      expect(listed.ok && (listed.result as { tags: string[] }[])[0]?.tags).toEqual(['pg'])

      const elsewhere = await runCli([
        ...['--data-dir', temp.dir, '--database', other.url],
        ...['watch', 'list'],
      ])
      expect(elsewhere.code).toBe(1)
      expect(elsewhere.stderr).toContain('is held by the test server (pid')
      expect(elsewhere.stderr).not.toContain(other.url)
    } finally {
      await holder.close()
    }
  }, 120_000)
})
