import { AsyncLocalStorage } from 'node:async_hooks'
import { systemClock, type Clock } from '@shared/clock'
import type { SecretInput } from './secret-input'

/** The signals that stop a command: Ctrl-C, and a service manager's stop. */
export type StopSignal = 'SIGINT' | 'SIGTERM'

/**
 * What one run of the CLI talks to: where its lines go, its environment, its clock, the
 * signals that stop it and the exit code it ends with. A process run uses the process's
 * own; a run inside another program (tests, scripts) brings its own, so several runs can
 * share one process without sharing output, signals or exit codes.
 */
export interface CliContext {
  writeOut(text: string): void
  writeErr(text: string): void
  env: NodeJS.ProcessEnv
  clock: Clock
  /** Calls `listener` at each stop signal until the returned function is called. */
  onStopSignal(listener: (signal: StopSignal) => void): () => void
  /** Set by a command that ends with a code other than 0 (sync: 2 at the budget). */
  exitCode: number | undefined
  /**
   * Asks the person a yes/no question on their terminal; absent where no one can answer
   * (input or output is not a terminal: a script, a pipe), so a command then refuses and
   * names the flag that agrees instead.
   */
  ask?: (question: string) => Promise<boolean>
  /** Where `-` for a secret option is read: a prompt or piped stdin (the process's own by default). */
  secretInput?: SecretInput
}

const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM']

/** The context of the CLI run as its own process. */
export function processCliContext(): CliContext {
  return {
    writeOut: (text) => void process.stdout.write(text),
    writeErr: (text) => void process.stderr.write(text),
    env: process.env,
    clock: systemClock,
    onStopSignal(listener) {
      for (const signal of STOP_SIGNALS) process.on(signal, listener)
      return () => {
        for (const signal of STOP_SIGNALS) process.off(signal, listener)
      }
    },
    exitCode: undefined,
    ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: askOnTerminal } : {}),
  }
}

/** Asks on the terminal (stderr, so stdout stays the command's output); yes is "y" or "yes". */
async function askOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises')
  const terminal = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = await terminal.question(`${question} [y/N] `)
    return /^y(es)?$/i.test(answer.trim())
  } finally {
    terminal.close()
  }
}

const current = new AsyncLocalStorage<CliContext>()
let processContext: CliContext | null = null

/** The context of the run this code is part of (the process's own outside any run). */
export function cliContext(): CliContext {
  return current.getStore() ?? (processContext ??= processCliContext())
}

/** Runs `work` as part of a CLI run with `context`. */
export function withCliContext<T>(context: CliContext, work: () => Promise<T>): Promise<T> {
  return current.run(context, work)
}

/** Ends the current run with `code` (unless a later command step sets another). */
export function setExitCode(code: number): void {
  cliContext().exitCode = code
}
