import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { APP_NODE_ENV, APP_NODE_FLAGS } from '../../../scripts/app-node-flags.mjs'
import { BUILT_CLI } from '../../helpers/built-cli'
import { makeTempDir } from '../../helpers/temp-dir'

// Given the build `npm start` makes, when the web shell starts the way `npm start` starts
// it where Electron is not installed (scripts/start.mjs → the built CLI bundle), then it
// says so, serves the app on loopback with a launch token, the page loads, and it stops
// cleanly on SIGTERM; the bundle is the whole CLI (its version and commands), and running
// it never starts the simulator in place of the command asked for.

const ROOT = resolve(import.meta.dirname, '../../..')
const VERSION = (
  JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }
).version

/** Whether `npm start` would open Electron here instead (its binary installed). */
function hasElectronBinary(): boolean {
  try {
    const dir = resolve(ROOT, 'node_modules/electron')
    const relative = readFileSync(resolve(dir, 'path.txt'), 'utf8').trim()
    return spawnSync('test', ['-x', resolve(dir, 'dist', relative)]).status === 0
  } catch {
    return false
  }
}

const children: ChildProcess[] = []
const temps: { remove: () => void }[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const temp of temps.splice(0)) temp.remove()
})

function outputUntil(
  child: ChildProcess,
  pattern: RegExp,
): Promise<{ match: RegExpExecArray; out: string }> {
  return new Promise((done, fail) => {
    let out = ''
    const timer = setTimeout(() => fail(new Error(`no ${pattern} within 60 s:\n${out}`)), 60_000)
    const take = (c: Buffer): void => {
      out += c.toString()
      const match = pattern.exec(out)
      if (match) {
        clearTimeout(timer)
        done({ match, out })
      }
    }
    child.stdout?.on('data', take)
    child.stderr?.on('data', take)
    child.on('exit', (code) => fail(new Error(`exited with ${code} first:\n${out}`)))
  })
}

describe('the built CLI bundle', () => {
  it('prints the package version and lists its commands', () => {
    const version = spawnSync(process.execPath, [BUILT_CLI, '--version'], { encoding: 'utf8' })
    expect(version.status).toBe(0)
    expect(version.stdout.trim()).toBe(VERSION)
    const help = spawnSync(process.execPath, [BUILT_CLI, '--help'], { encoding: 'utf8' })
    expect(help.status).toBe(0)
    for (const command of ['serve', 'sync', 'export', 'watch', 'simulator'])
      expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'))
    expect(help.stdout + help.stderr).not.toMatch(/usage: simulator/)
  })
})

describe.skipIf(hasElectronBinary())('npm start without Electron', () => {
  it('serves the web shell from the built CLI, the page loads, and SIGTERM stops it', async () => {
    const temp = makeTempDir()
    temps.push(temp)
    const child = spawn(
      process.execPath,
      [resolve(ROOT, 'scripts/start.mjs'), '--data-dir', temp.dir, '--data-source', 'demo'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.push(child)
    const { match, out } = await outputUntil(
      child,
      /Heliograph web shell: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/,
    )
    expect(out).toMatch(/Electron binary not installed here; starting the web shell instead/)
    const url = match[1] as string
    const page = await fetch(url)
    expect(page.status).toBe(200)
    const html = await page.text()
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    expect((await fetch(new URL(script as string, url))).status).toBe(200)

    // The serving process is the built bundle on Node with the app's flags and environment
    // (Linux /proc).
    const [served] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
    const argv = readFileSync(`/proc/${served}/cmdline`, 'utf8').split('\0')
    expect(argv.slice(1, 2 + APP_NODE_FLAGS.length)).toEqual([...APP_NODE_FLAGS, BUILT_CLI])
    const environ = readFileSync(`/proc/${served}/environ`, 'utf8').split('\0')
    for (const [name, value] of Object.entries(APP_NODE_ENV))
      expect(environ).toContain(`${name}=${value}`)

    const exited = new Promise<number | null>((done) => child.on('exit', done))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

describe('serve on one’s own data before there is a key', () => {
  it('starts and prints its URL (the key is entered in the app it serves)', async () => {
    const temp = makeTempDir()
    temps.push(temp)
    const env = { ...process.env }
    delete env.HELIOGRAPH_API_KEY
    delete env.HELIOGRAPH_SERVICE_URL
    const child = spawn(
      process.execPath,
      [...APP_NODE_FLAGS, BUILT_CLI, '--data-dir', temp.dir, '--data-source', 'service', 'serve'],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.push(child)
    const { match, out } = await outputUntil(
      child,
      /Heliograph web shell: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/,
    )
    expect(out).not.toMatch(/API key/)
    expect((await fetch(match[1] as string)).status).toBe(200)
    const exited = new Promise<number | null>((done) => child.on('exit', done))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
