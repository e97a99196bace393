import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

// Permission checks must really run: root ignores permission bits through its
// capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER). As root (CI
// containers) the child runs as root without them, so the bits apply to it as to any
// user, while it can still read the project wherever it was cloned (a uid switch could
// not, from a 0700 folder).

/** The capabilities that let a process ignore file permission bits. */
const OVERRIDES = ['dac_override', 'dac_read_search', 'fowner'] as const
/** Their bit numbers in /proc/self/status's CapEff. */
const OVERRIDE_BITS = [1n, 2n, 3n]

/** The project root: where tsx finds itself and tsconfig.json's `@shared` paths. */
const PROJECT_ROOT = resolve(import.meta.dirname, '../..')

/** Whether this process can ignore file permission bits (Linux; elsewhere: when root). */
export function canOverridePermissions(): boolean {
  try {
    const status = readFileSync('/proc/self/status', 'utf8')
    const effective = BigInt(`0x${/^CapEff:\s*([0-9a-f]+)/m.exec(status)?.[1] ?? '0'}`)
    return OVERRIDE_BITS.some((bit) => (effective >> bit) & 1n)
  } catch {
    return process.getuid?.() === 0
  }
}

/**
 * Runs a TypeScript file in a child node that file permission bits apply to; resolves
 * with its stdout, or fails with its stderr.
 */
export async function runTsUnprivileged(script: string, args: string[]): Promise<string> {
  const node = [process.execPath, '--import', 'tsx', script, ...args]
  const [command, ...rest] = canOverridePermissions()
    ? ['setpriv', `--bounding-set=${OVERRIDES.map((c) => `-${c}`).join(',')}`, '--', ...node]
    : node
  const child = spawn(command as string, rest, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
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
