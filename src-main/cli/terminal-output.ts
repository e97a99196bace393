import { cliContext, type CliContext } from './cli-context'

// Everything the CLI prints goes through here. Labels and the service's error text are
// data, not output: an escape sequence in them could retitle, recolour or clear the
// terminal, fake a line, or reverse what a line seems to say (bidi overrides).

/** What a terminal acts on: C0 and C1 controls, DEL, bidi controls, line and paragraph separators. */
const TERMINAL_ACTIVE = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/gu

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

function hex(char: string, digits: number): string {
  return (char.codePointAt(0) ?? 0).toString(16).padStart(digits, '0')
}

/**
 * `text` with every character a terminal would act on shown as a visible escape instead:
 * ESC as `\x1b`, a bidi override as `\u202e`, a line break as `\n`.
 *
 * @example
 * terminalSafe('a\u001b[2Jb') // 'a\\x1b[2Jb'
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_ACTIVE, (char) => {
    const named = NAMED[char]
    if (named !== undefined) return named
    return char <= '\u00ff' ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`
  })
}

/** Prints one line to stdout. */
export function printLine(text: string): void {
  cliContext().writeOut(`${terminalSafe(text)}\n`)
}

/** Prints one line to stderr (progress, estimates, errors). */
export function printErrorLine(text: string): void {
  cliContext().writeErr(`${terminalSafe(text)}\n`)
}

/**
 * Prints a value as indented JSON. JSON escapes C0 controls itself; the rest of what a
 * terminal acts on becomes `\uXXXX` too, which parses back to the same value.
 */
export function printJson(value: unknown): void {
  // Line breaks here are the indentation's: JSON.stringify escapes those inside strings.
  const json = JSON.stringify(value, null, 2).replace(TERMINAL_ACTIVE, (c) =>
    c === '\n' ? c : `\\u${hex(c, 4)}`,
  )
  cliContext().writeOut(`${json}\n`)
}

/**
 * Ends the process at once, with exit 0 and nothing printed, when whoever reads its output
 * has closed it (`heliograph feed | head -n 1`): a reader that has what it wanted is a normal
 * end, not an error. What the process held is let go as a killed process lets it go (each
 * page is one transaction; the folder's lock and holder file go with the process).
 */
export function endQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0)
      throw error
    })
}

/**
 * How the CLI names a wallet, the same way in every line of a run: its label, else its
 * whole address (never a shortened one beside the long one).
 */
export function walletName(wallet: { address: string; label: string | null }): string {
  return wallet.label ?? wallet.address
}

/**
 * `context` whose output ends on a line break: `finish()`, at the end of a run, ends a
 * line that stdout or stderr left open, so the next prompt starts on a line of its own
 * whatever printed last (a command, commander, a library writing through the context).
 */
export function withLinesEnded(context: CliContext): { context: CliContext; finish(): void } {
  const isOpen = { out: false, err: false }
  const ended: CliContext = {
    ...context,
    writeOut(text) {
      if (text === '') return
      isOpen.out = !text.endsWith('\n')
      context.writeOut(text)
    },
    writeErr(text) {
      if (text === '') return
      isOpen.err = !text.endsWith('\n')
      context.writeErr(text)
    },
  }
  return {
    context: ended,
    finish() {
      if (isOpen.out) context.writeOut('\n')
      if (isOpen.err) context.writeErr('\n')
      isOpen.out = isOpen.err = false
    },
  }
}
