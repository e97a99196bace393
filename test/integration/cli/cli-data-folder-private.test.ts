import { chmodSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli as cli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// What Heliograph keeps is the person's alone: a data folder it finds looser than 0700
// (made by hand, or by an older version) is tightened when it is opened, and the command
// line says so once. A shared folder (sticky, like /tmp) keeps its mode.

const modeOf = (dir: string) => statSync(dir).mode & 0o7777

describe.skipIf(process.platform === 'win32')('CLI: the data folder is made private', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('a 0755 folder becomes 0700, said once; the next run says nothing', async () => {
    const dir = join(temp.dir, 'data')
    mkdirSync(dir)
    chmodSync(dir, 0o755)
    const first = await cli(['--data-dir', dir, 'watch', 'add', testAddress(1)])
    expect(first.code, first.stderr).toBe(0)
    expect(modeOf(dir)).toBe(0o700)
    expect(first.stderr.match(/Tightened the permissions of/g)).toHaveLength(1)
    expect(first.stderr).toContain(`${dir} to 0700 (it was 0755)`)

    const second = await cli(['--data-dir', dir, 'watch', 'list'])
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).not.toContain('Tightened')

    // A reading command tightens it as well.
    chmodSync(dir, 0o750)
    const reading = await cli(['--data-dir', dir, 'watch', 'list'])
    expect(reading.stderr).toContain('(it was 0750)')
    expect(modeOf(dir)).toBe(0o700)
  })

  it('a shared folder with the sticky bit keeps its mode', async () => {
    const dir = join(temp.dir, 'shared')
    mkdirSync(dir)
    chmodSync(dir, 0o1777)
    const run = await cli(['--data-dir', dir, 'watch', 'add', testAddress(2)])
    expect(run.code, run.stderr).toBe(0)
    expect(modeOf(dir)).toBe(0o1777)
    expect(run.stderr).not.toContain('Tightened')
  })
})
