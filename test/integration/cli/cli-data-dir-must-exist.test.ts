import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { databasePath, demoDatabasePath } from '../../../src-main/app/data-dir'
import { runCli } from '../../helpers/cli-in-process'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// Given a --data-dir that does not exist or holds no mirror (a typo), when a command that
// reads runs on it, then it names the folder, exits non-zero and creates nothing; a command
// that writes (`watch add`) may create the folder.

const address = testAddress(7)

/** Commands that need data to be there; `out` is where `export` would write. */
const needingData = (out: string): string[][] => [
  ['export', '--out', out],
  ['status'],
  ['credits'],
  ['watch', 'list'],
  ['watch', 'rename', address, 'New name'],
  ['watch', 'remove', address],
]

describe('a --data-dir without Heliograph data', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('A mistyped `--data-dir` silently creates an empty mirror; `export` then writes 0 rows and exits 0', async () => {
    const missing = join(temp.dir, 'typo')
    const empty = join(temp.dir, 'empty')
    mkdirSync(empty)
    const out = join(temp.dir, 'out.csv')
    for (const dir of [missing, empty]) {
      for (const command of needingData(out)) {
        const run = await runCli(['--data-dir', dir, ...command])
        expect(run.code, `${command.join(' ')}: ${run.stdout}`).not.toBe(0)
        expect(run.stderr).toContain(
          `No Heliograph data in ${dir}; create it with \`watch add\` or check --data-dir (--data-source demo shows the demo).`,
        )
      }
    }
    expect(existsSync(missing)).toBe(false)
    expect(readdirSync(empty)).toEqual([])
    expect(existsSync(out)).toBe(false)
  }, 120_000)

  it('`watch add` creates the folder and its own mirror, without a key; reading commands show it then', async () => {
    const fresh = join(temp.dir, 'fresh')
    const added = await runCli(['--data-dir', fresh, 'watch', 'add', address])
    expect(added.code, added.stderr).toBe(0)
    expect(existsSync(databasePath(fresh))).toBe(true)
    // The demo is sample data: a wallet of one's own never goes there, key or no key.
    expect(existsSync(demoDatabasePath(fresh))).toBe(false)
    const list = await runCli(['--data-dir', fresh, 'watch', 'list'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain(address)
    expect(list.stderr).not.toContain('demo')
  }, 60_000)
})
