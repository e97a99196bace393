import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { databasePath } from '../../../src-main/app/data-dir'
import { migrations } from '../../../src-main/db/migrations'
import { openDatabase } from '../../../src-main/db/sqlite/database'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given a data folder whose mirror an earlier version wrote (its last three migrations not
// applied), when a command opens it, then the person is told on stderr, step by step, that
// the mirror is being updated and why the start waits, and the command then runs; the next
// command, and a mirror being created, say nothing of it.

const names = Object.keys(migrations)
const UPDATING = 'Updating your mirror for this version of Heliograph'

describe('a mirror updated for a new version, from the CLI', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('says each step of the update, once', async () => {
    const dir = join(temp.dir, 'older')
    mkdirSync(dir, { mode: 0o700 })
    const older = Object.fromEntries(Object.entries(migrations).slice(0, -3))
    await (await openDatabase(databasePath(dir), { migrations: older })).close()

    // A command that writes: a reading one refuses a mirror that is not up to date.
    const first = await runCli(['--data-dir', dir, 'watch', 'add', testAddress(5)])
    expect(first.code, first.stderr).toBe(0)
    const told = first.stderr.split('\n').filter((line) => line.startsWith(UPDATING))
    expect(told).toEqual(
      names
        .slice(-3)
        .map(
          (name, i) =>
            `${UPDATING}: step ${i + 1} of 3 (${name}). On a large mirror a step can take a few minutes; if Heliograph is stopped meanwhile, the step starts over next time and nothing is lost.`,
        ),
    )

    const second = await runCli(['--data-dir', dir, 'watch', 'list'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stdout).toContain(testAddress(5))
    expect(second.stderr).not.toContain(UPDATING)
  })

  it('says nothing of it for a mirror being created', async () => {
    const added = await runCli([
      '--data-dir',
      join(temp.dir, 'new'),
      'watch',
      'add',
      testAddress(3),
    ])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stderr).not.toContain(UPDATING)
  })
})
