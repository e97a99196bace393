import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { APP_NODE_FLAGS, appNodeEnv } from '../../scripts/app-node-flags.mjs'

/**
 * Runs one of the bench's scripts in a fresh Node process (TypeScript through tsx) with the
 * app's Node flags and environment (the web shell's process runs the work it measures), and resolves with
 * what it printed, or null when it ran past `limitMs` and was killed.
 *
 * @example
 * const printed = await runChild('./desk-export.ts', [dbPath, outPath], 600_000)
 */
export function runChild(
  script: string,
  args: readonly string[],
  limitMs: number,
): Promise<string | null> {
  const path = fileURLToPath(new URL(script, import.meta.url))
  const root = fileURLToPath(new URL('../../', import.meta.url))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...APP_NODE_FLAGS, '--import', 'tsx', path, ...args], {
      cwd: root,
      env: appNodeEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let isStopped = false
    const timer = setTimeout(() => {
      isStopped = true
      child.kill('SIGKILL')
    }, limitMs)
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (isStopped) resolve(null)
      else if (code === 0) resolve(out)
      else reject(new Error(`${script} exited with ${code}: ${err}`))
    })
  })
}
