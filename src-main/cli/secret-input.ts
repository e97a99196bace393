import { readFileSync, statSync } from 'node:fs'
import { AppError } from '@shared/ipc/ipc-errors'
import { cliContext } from './cli-context'

// Secrets given to one command (the API key, a channel's URL, signing secret or bot token)
// without putting them on its command line, where every user of the machine can read them
// in the process list (`ps`) while it runs: from the environment, a file, a prompt on a
// terminal, or piped in. One given on the command line still works, with a warning.

/** Where a run reads what a person types or pipes in. */
export interface SecretInput {
  /** Whether a person at a terminal can be asked (stdin is a terminal). */
  readonly isTerminal: boolean
  /** Asks at the terminal without showing what is typed; resolves to the line typed. */
  prompt(question: string): Promise<string>
  /** Everything piped into the run, read once. */
  readPiped(): Promise<string>
}

/** The process's own stdin: a terminal to ask at, or what is piped in. */
export function processSecretInput(): SecretInput {
  let piped: Promise<string> | null = null
  return {
    get isTerminal() {
      return process.stdin.isTTY === true
    },
    prompt: (question) => promptHidden(question),
    readPiped: () =>
      (piped ??= (async () => {
        let text = ''
        process.stdin.setEncoding('utf8')
        for await (const chunk of process.stdin) text += chunk as string
        return text
      })()),
  }
}

/** Asks on stderr and reads a line from the terminal in raw mode, echoing nothing. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin
  process.stderr.write(question)
  return new Promise((resolve, reject) => {
    let typed = ''
    const finish = (error: Error | null): void => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      process.stderr.write('\n')
      if (error) reject(error)
      else resolve(typed)
    }
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(null)
        if (char === '\u0003' || char === '\u0004') return finish(new AppError('Cancelled.'))
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1)
        else typed += char
      }
    }
    stdin.setEncoding('utf8')
    stdin.setRawMode(true)
    stdin.resume()
    stdin.on('data', onData)
  })
}

/** A secret option of a command: its flag, what it holds, and the value given (or none). */
export interface SecretOption {
  /** The flag as typed, e.g. `--url`. */
  flag: string
  /** What it holds, for the prompt: "the channel URL". */
  what: string
  value: string | undefined
}

/**
 * The values of a command's secret options: `-` asks at the terminal (or, piped in, takes
 * the next line of stdin: one line per option given as `-`, in the order listed); a value
 * typed on the command line is used as it is, and the run is warned once, naming every
 * such flag and what to do instead.
 *
 * @example
 * const [url, secret] = await readSecretOptions([
 *   { flag: '--url', what: 'the channel URL', value: opts.url },
 *   { flag: '--secret', what: 'the signing secret', value: opts.secret },
 * ], 'give them as `-` to be asked')
 */
export async function readSecretOptions(
  options: readonly SecretOption[],
  instead: string,
): Promise<(string | undefined)[]> {
  const context = cliContext()
  const typed = options.filter((o) => o.value !== undefined && o.value !== '-')
  if (typed.length > 0) {
    const flags = typed.map((o) => o.flag)
    const named =
      flags.length === 1 ? flags[0] : `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)}`
    context.writeErr(
      `Warning: ${named} on the command line ${flags.length === 1 ? 'is' : 'are'} visible to every user of this machine in the process list (ps) while the command runs; ${instead}.\n`,
    )
  }
  const input = context.secretInput ?? processSecretInput()
  let pipedLines: string[] | null = null
  const values: (string | undefined)[] = []
  for (const option of options) {
    if (option.value !== '-') {
      values.push(option.value)
      continue
    }
    let value: string
    if (input.isTerminal) {
      value = await input.prompt(
        `${option.what[0]?.toUpperCase()}${option.what.slice(1)} (${option.flag}, not shown): `,
      )
    } else {
      pipedLines ??= (await input.readPiped()).split(/\r?\n/)
      value = pipedLines.shift() ?? ''
    }
    value = value.trim()
    if (value === '')
      throw new AppError(
        `${option.flag} - reads ${option.what} from a prompt or from stdin, and none came.`,
      )
    values.push(value)
  }
  return values
}

/**
 * The API key for one run: `--api-key-file PATH`, `--api-key -` (asked, or piped in),
 * `--api-key KEY` (warned: the process list shows it), else HELIOGRAPH_API_KEY; undefined
 * when none is given (the stored key, or demo data, applies).
 */
export async function readApiKeyOption(options: {
  apiKey?: string
  apiKeyFile?: string
}): Promise<string | undefined> {
  const { env } = cliContext()
  if (options.apiKeyFile !== undefined) {
    if (options.apiKey !== undefined)
      throw new AppError('Give the API key once: --api-key or --api-key-file, not both.')
    return readKeyFile(options.apiKeyFile)
  }
  if (options.apiKey !== undefined) {
    const [key] = await readSecretOptions(
      [{ flag: '--api-key', what: 'the API key', value: options.apiKey }],
      'give it in HELIOGRAPH_API_KEY, with --api-key-file PATH, or as `--api-key -` to be asked',
    )
    return key
  }
  return env.HELIOGRAPH_API_KEY
}

/** The key in a file: its first line, trimmed; a missing, unreadable or empty file is refused. */
function readKeyFile(path: string): string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new AppError(
      `--api-key-file ${path} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')}).`,
    )
  }
  const key = (text.split(/\r?\n/)[0] ?? '').trim()
  if (key === '')
    throw new AppError(`--api-key-file ${path} holds no key (its first line is empty).`)
  // POSIX: a key file other users can read gives the key away as surely as the command line.
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0)
    cliContext().writeErr(
      `Warning: ${path} can be read by other users of this machine; \`chmod 600 ${path}\` keeps the API key yours.\n`,
    )
  return key
}
