import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { delimiter, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/temp-dir'

// Given a Node older than the project's on PATH ahead of the project's own (a machine
// where the `node` dev dependency is missing: `npm install --omit=dev`, or scripts
// disabled), when an npm script or the `heliograph` command runs, then it stops with one
// clear line naming the Node it needs, instead of crashing (better-sqlite3 segfaults on
// Node 20). CI has such a Node: Debian's, at /usr/bin/node.

const ROOT = resolve(import.meta.dirname, '../../..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }
  scripts: Record<string, string>
  devDependencies: Record<string, string>
}
/** The Node the project runs on (better-sqlite3 13 and Electron's own Node). */
const REQUIRED_MAJOR = 24

/** The first Node on the system PATH older than the project needs, if there is one. */
function findOldNode(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => !d.includes('node_modules'))
  for (const dir of [...dirs, '/usr/bin', '/usr/local/bin']) {
    const candidate = join(dir, 'node')
    const run = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' })
    if (run.status === 0 && Number(run.stdout.split('.')[0]) < REQUIRED_MAJOR) return candidate
  }
  return undefined
}

const OLD_NODE = findOldNode()
const NEEDS_NODE = new RegExp(`needs Node ${REQUIRED_MAJOR} or later`)

describe('`npm run cli` under a system Node older than 24 crashes with a segfault instead of a message', () => {
  const temp = makeTempDir()
  afterAll(() => temp.remove())

  it('engines names the Node the project brings, and every npm script but postinstall checks it', () => {
    expect(pkg.engines.node).toBe(`>=${REQUIRED_MAJOR}`)
    expect(Number(pkg.devDependencies.node?.split('.')[0])).toBeGreaterThanOrEqual(REQUIRED_MAJOR)
    for (const [name, command] of Object.entries(pkg.scripts)) {
      // postinstall runs inside `npm install`, on whatever Node that is; it needs none newer.
      if (name === 'postinstall') continue
      expect(command, name).toMatch(/^node scripts\/check-node\.mjs && /)
    }
  })

  it.skipIf(OLD_NODE === undefined)(
    'npm run cli on the old Node says which Node it needs and exits 1',
    () => {
      // npm puts node_modules/.bin (the project's Node) first on PATH; a script shell that
      // puts the old Node first again is a machine without the project's Node.
      const oldBin = join(temp.dir, 'old-bin')
      mkdirSync(oldBin)
      symlinkSync(OLD_NODE as string, join(oldBin, 'node'))
      const shell = join(temp.dir, 'old-node-shell')
      writeFileSync(shell, `#!/bin/sh\nPATH="${oldBin}:$PATH"\nexport PATH\nexec /bin/sh "$@"\n`)
      chmodSync(shell, 0o755)
      const run = spawnSync(
        'npm',
        [
          'run',
          '--silent',
          `--script-shell=${shell}`,
          'cli',
          '--',
          '--data-dir',
          temp.dir,
          'status',
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      )
      expect(run.signal).toBeNull()
      expect(run.stderr).toMatch(NEEDS_NODE)
      expect(run.status).toBe(1)
    },
  )

  it.skipIf(OLD_NODE === undefined)(
    'the heliograph command on the old Node runs on the project’s own Node when it is installed',
    () => {
      const run = spawnSync(
        OLD_NODE as string,
        [join(ROOT, 'scripts/heliograph.mjs'), '--version'],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      )
      expect(run.status, run.stderr).toBe(0)
      expect(run.stdout.trim()).toBe(readVersion())
    },
  )

  it.skipIf(OLD_NODE === undefined)('and says which Node it needs when it is not installed', () => {
    const bare = join(temp.dir, 'bare')
    mkdirSync(join(bare, 'scripts'), { recursive: true })
    copyFileSync(join(ROOT, 'package.json'), join(bare, 'package.json'))
    for (const file of ['heliograph.mjs', 'check-node.mjs'])
      copyFileSync(join(ROOT, 'scripts', file), join(bare, 'scripts', file))
    const run = spawnSync(OLD_NODE as string, [join(bare, 'scripts/heliograph.mjs'), 'status'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.stderr).toMatch(NEEDS_NODE)
    expect(run.status).toBe(1)
  })
})

function readVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version
}
