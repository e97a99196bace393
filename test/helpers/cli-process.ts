import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** The `heliograph` command as a person runs it. */
const BIN = resolve(import.meta.dirname, '../../scripts/heliograph.mjs')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the real CLI in a child process to its end. Async, so that a simulator or a web
 * shell in the test's own process keeps answering meanwhile.
 */
export function runCli(args: string[]): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('exit', (code) => done({ code, stdout, stderr }))
  })
}

/** A CLI process left running (`sync` watching, `serve`), with what it printed so far. */
export interface RunningCli {
  child: ChildProcess
  pid: number
  readonly stdout: string
  readonly stderr: string
  exited: Promise<number | null>
  /** Resolves once `condition` holds on its output; rejects when it exits first or at the timeout. */
  waitFor(
    condition: (out: { stdout: string; stderr: string }) => boolean,
    timeoutMs?: number,
  ): Promise<void>
}

/** Starts the real CLI in a child process and leaves it running. */
export function startCli(args: string[]): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const out = { stdout: '', stderr: '' }
  child.stdout?.on('data', (c: Buffer) => (out.stdout += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (out.stderr += c.toString()))
  let code: number | null | undefined
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (c) => {
      code = c
      done(c)
    }),
  )
  return {
    child,
    pid: child.pid as number,
    get stdout() {
      return out.stdout
    },
    get stderr() {
      return out.stderr
    },
    exited,
    async waitFor(condition, timeoutMs = 30_000) {
      const t0 = Date.now()
      while (!condition(out)) {
        if (code !== undefined) throw new Error(`the CLI exited with ${code} first:\n${out.stderr}`)
        if (Date.now() - t0 > timeoutMs)
          throw new Error(`not within ${timeoutMs} ms; stderr so far:\n${out.stderr}`)
        await sleep(100)
      }
    },
  }
}
