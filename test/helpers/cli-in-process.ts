import { EventEmitter } from 'node:events'
import type { Clock } from '../../src-shared/clock'
import type { CliContext, StopSignal } from '../../src-main/cli/cli-context'
import { runCli as runProgram } from '../../src-main/cli/program'
import type { CliRun } from './cli-process'
import { FastForwardClock } from './virtual-clock'

export type { CliRun }

/** What an in-process run may bring besides its arguments. */
export interface InProcessOptions {
  /** Added to the test process's environment (HELIOGRAPH_API_KEY, …). */
  env?: NodeJS.ProcessEnv
  /**
   * The run's clock: by default one that jumps over every wait (the plan's pacing, backoff),
   * so a run that waits minutes for its rate limit takes seconds; a VirtualClock the test
   * advances for a watch that runs on intervals.
   */
  clock?: Clock
  /**
   * Answers the run's yes/no questions as a person at a terminal would; without it the run
   * has no terminal and is asked nothing (a script).
   */
  ask?: (question: string) => Promise<boolean>
  /**
   * What is piped into the run's stdin (read by a secret option given as `-`); without
   * it the run has an empty stdin, never a terminal to ask at.
   */
  stdin?: string
}

/** A CLI run inside the test's process, with what it printed so far. */
export interface InProcessCli {
  readonly stdout: string
  readonly stderr: string
  /** Resolves to the exit code. */
  exited: Promise<number>
  /** Sends the run a stop signal, as Ctrl-C or a service manager would. */
  signal(signal: StopSignal): void
}

/**
 * Starts the `heliograph` program in this process, as a person's command line would run
 * it but without a process of its own: the same commands, output, exit codes and stop
 * signals, in a fraction of a process start. Tests of what only a separate process shows
 * (real signals, exit of the process, locks between processes) use cli-process.ts.
 *
 * @example
 * const watching = startCliInProcess(['--data-dir', dir, 'sync', '--every', '15'], { clock })
 * await clock.advance(60_000)
 * watching.signal('SIGTERM')
 * expect(await watching.exited).toBe(0)
 */
export function startCliInProcess(args: string[], options: InProcessOptions = {}): InProcessCli {
  const out = { stdout: '', stderr: '' }
  const signals = new EventEmitter()
  const ownClock = options.clock === undefined ? new FastForwardClock() : null
  const context: CliContext = {
    writeOut: (text) => void (out.stdout += text),
    writeErr: (text) => void (out.stderr += text),
    env: { ...process.env, ...options.env },
    clock: options.clock ?? (ownClock as FastForwardClock),
    onStopSignal(listener) {
      signals.on('signal', listener)
      return () => void signals.off('signal', listener)
    },
    exitCode: undefined,
    ...(options.ask ? { ask: options.ask } : {}),
    secretInput: {
      isTerminal: false,
      prompt: () => Promise.reject(new Error('no terminal in an in-process run')),
      readPiped: async () => options.stdin ?? '',
    },
  }
  return {
    get stdout() {
      return out.stdout
    },
    get stderr() {
      return out.stderr
    },
    exited: runProgram(args, context).finally(() => ownClock?.stop()),
    signal: (signal) => void signals.emit('signal', signal),
  }
}

/** Runs the `heliograph` program in this process to its end (see {@link startCliInProcess}). */
export async function runCli(args: string[], options: InProcessOptions = {}): Promise<CliRun> {
  const run = startCliInProcess(args, options)
  const code = await run.exited
  return { code, stdout: run.stdout, stderr: run.stderr }
}
