import { spawn } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { canOverridePermissions } from '../../helpers/unprivileged-child'
import { makeTempDir } from '../../helpers/temp-dir'

// Given a data folder that belongs to another user (0700, as Heliograph makes its folders),
// when a command is pointed at it, then it says so in one line, with what to do, and exits
// 1: no stack, and not "No Heliograph data" (the folder's files cannot even be seen). Only
// root can give a folder away, and root ignores permission bits: the command runs as root
// without those capabilities, so the bits apply to it as to anyone.

const BIN = resolve(import.meta.dirname, '../../../scripts/heliograph.mjs')
const NOBODY = 65_534
const DROPPED = '-dac_override,-dac_read_search,-fowner'

function runWithoutOverrides(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(
      'setpriv',
      [`--bounding-set=${DROPPED}`, '--', process.execPath, BIN, ...args],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('exit', (code) => done({ code, stderr }))
  })
}

describe('CLI: another user’s data folder', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it.runIf(process.getuid?.() === 0 && canOverridePermissions())(
    'reading or writing commands say in one line that the folder is not theirs',
    async () => {
      const theirs = join(temp.dir, 'theirs')
      mkdirSync(theirs)
      writeFileSync(join(theirs, 'heliograph.sqlite'), '')
      chownSync(join(theirs, 'heliograph.sqlite'), NOBODY, NOBODY)
      chownSync(theirs, NOBODY, NOBODY)
      chmodSync(theirs, 0o700)
      for (const command of [
        ['watch', 'list'],
        ['alerts', 'add', '--when', 'failed'],
      ]) {
        const run = await runWithoutOverrides(['--data-dir', theirs, ...command])
        expect(run.code).toBe(1)
        expect(run.stderr).toBe(
          `heliograph: The data folder ${theirs} is not yours to use (permission denied): Heliograph keeps each person's data private; run the command as the folder's owner, or give --data-dir a folder of your own.\n`,
        )
      }
    },
    60_000,
  )
})
