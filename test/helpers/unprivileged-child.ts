import { execFileSync, spawn } from 'node:child_process'
import { chownSync } from 'node:fs'
import { resolve } from 'node:path'

/** A user to run a child process as. */
export interface ChildUser {
  uid: number
  gid: number
}

/**
 * Who a permission check runs as: root ignores permission bits, so when the tests run as
 * root (as in CI containers) it is `nobody`; otherwise this same user.
 */
export function unprivilegedUser(): ChildUser {
  const uid = process.getuid?.() ?? -1
  if (uid !== 0) return { uid, gid: process.getgid?.() ?? -1 }
  const idOfNobody = (flag: '-u' | '-g'): number =>
    Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim())
  return { uid: idOfNobody('-u'), gid: idOfNobody('-g') }
}

/** The project root: where tsx finds itself and tsconfig.json's `@shared` paths. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../..')

/**
 * Runs a TypeScript file in a child node as `user`, with `dir` (handed over to that user)
 * as its home; resolves with its stdout, or fails with its stderr.
 */
export async function runTsAs(
  user: ChildUser,
  dir: string,
  script: string,
  args: string[],
): Promise<string> {
  const isRoot = process.getuid?.() === 0
  if (isRoot) chownSync(dir, user.uid, user.gid)
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Only root may change user; anyone else already is the user it runs as.
    ...(isRoot ? { uid: user.uid, gid: user.gid } : {}),
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const code = await new Promise<number | null>((exited, fail) => {
    child.on('error', fail)
    child.on('close', exited)
  })
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${stderr}`)
  return stdout
}
