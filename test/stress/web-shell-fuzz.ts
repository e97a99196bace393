import { connect } from 'node:net'
import WebSocket from 'ws'
import { IPC_SOCKET_PATH, socketProtocols } from '@shared/ipc/web-socket-protocol'
import { startCli, type RunningCli } from '../helpers/cli-process'
import { makeTempDir } from '../helpers/temp-dir'
import { fuzzCase, type ChannelCase, type FuzzTarget, type RawCase } from './web-shell-fuzz-cases'

export interface WebShellFuzzOptions {
  cases: number
  seed: number
  /** Cases in flight at once. */
  concurrency?: number
  log?: (line: string) => void
}

export interface WebShellFuzzReport {
  seed: number
  /** Cases run (fewer than asked when the process died). */
  cases: number
  byKind: Record<string, number>
  /** How the shell answered: the status line's code, or how the connection ended. */
  answers: Record<string, number>
  /** Contract replies received over the authenticated sockets. */
  channelReplies: number
  /** The `serve` process was still running after the last case. */
  alive: boolean
  /** …and still served the page and answered `app:info` over a new socket. */
  answering: boolean
  /** When the process died: its exit code, its stderr, and the cases in flight. */
  failure: string | null
}

/** Longest wait for one case's connection to end, after which the client gives up. */
const CASE_TIMEOUT_MS = 2_000

/**
 * Runs the web shell's fuzz cases against a real `heliograph serve` in a child process on
 * a fresh data folder (demo data), `concurrency` at a time, and checks at the end that the
 * process is alive and still answers the page and the contract.
 *
 * @example
 * const report = await runWebShellFuzz({ cases: 3000, seed: 1 })
 * report.alive && report.answering // true
 */
export async function runWebShellFuzz(options: WebShellFuzzOptions): Promise<WebShellFuzzReport> {
  const temp = makeTempDir('heliograph-fuzz-')
  const serve = startCli(['serve', '--data-dir', temp.dir, '--port', '0'])
  const report: WebShellFuzzReport = {
    seed: options.seed,
    cases: 0,
    byKind: {},
    answers: {},
    channelReplies: 0,
    alive: false,
    answering: false,
    failure: null,
  }
  let died = false
  void serve.exited.then(() => (died = true))
  try {
    await serve.waitFor(({ stdout }) => /web shell: http:\/\/\S+/.test(stdout))
    const url = new URL(/web shell: (http:\/\/\S+)/.exec(serve.stdout)?.[1] ?? '')
    const target: FuzzTarget = {
      port: Number(url.port),
      token: url.searchParams.get('token') ?? '',
    }
    const inFlight = new Map<number, string>()
    let next = 0
    const worker = async (): Promise<void> => {
      while (!died && next < options.cases) {
        const index = next++
        const c = fuzzCase(options.seed, index, target)
        inFlight.set(index, c.label)
        report.byKind[c.kind] = (report.byKind[c.kind] ?? 0) + 1
        const answer =
          c.kind === 'channel'
            ? await runChannelCase(c, target, report)
            : await runRawCase(c, target)
        report.answers[answer] = (report.answers[answer] ?? 0) + 1
        inFlight.delete(index)
        report.cases++
        if (report.cases % 1_000 === 0) options.log?.(`${report.cases} cases`)
      }
    }
    const inFlightAtDeath = new Map<number, string>()
    void serve.exited.then(() => {
      for (const [i, label] of inFlight) inFlightAtDeath.set(i, label)
    })
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker))
    // Let a crash that a late callback causes show before the verdict.
    await new Promise((resolve) => setTimeout(resolve, 300))
    report.alive = !died
    if (report.alive) report.answering = await stillAnswers(target)
    else report.failure = deathReport(serve, options.seed, inFlightAtDeath)
  } finally {
    if (!died) {
      serve.child.kill('SIGTERM')
      await serve.exited
    }
    temp.remove()
  }
  return report
}

function deathReport(serve: RunningCli, seed: number, inFlight: Map<number, string>): string {
  const cases = [...inFlight].map(([i, label]) => `  case ${i} (seed ${seed}): ${label}`)
  return [
    `heliograph serve exited while these cases were in flight:`,
    ...cases,
    'stderr:',
    serve.stderr.slice(-4_000),
  ].join('\n')
}

/** Writes a raw case and reports how the shell answered it. */
function runRawCase(c: RawCase, t: FuzzTarget): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port: t.port, host: '127.0.0.1' })
    let head = ''
    let settled = false
    const settle = (how: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(`${c.kind} ${how}`)
    }
    const timer = setTimeout(() => settle(statusOf(head) ?? 'no answer in time'), CASE_TIMEOUT_MS)
    socket.on('connect', async () => {
      for (const chunk of c.chunks) {
        if (socket.destroyed) return
        socket.write(chunk)
        await new Promise((r) => setImmediate(r))
      }
      if (!socket.destroyed && c.halfClose) socket.end()
    })
    socket.on('data', (chunk: Buffer) => {
      if (head.length < 200) head += chunk.toString('latin1')
      // An answered complete request is done (100 Continue is not an answer yet).
      const status = statusOf(head)
      if (!c.halfClose && c.kind === 'http' && status !== null && status !== '100') settle(status)
    })
    socket.on('error', () => settle(statusOf(head) ?? 'reset'))
    socket.on('close', () => settle(statusOf(head) ?? 'closed without answer'))
  })
}

function statusOf(head: string): string | null {
  const code = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]
  return code === undefined ? null : code
}

/** Sends a case's messages over an authenticated socket; counts the replies. */
function runChannelCase(
  c: ChannelCase,
  t: FuzzTarget,
  report: WebShellFuzzReport,
): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${t.port}${IPC_SOCKET_PATH}`,
      socketProtocols(t.token),
      {
        headers: { origin: `http://127.0.0.1:${t.port}` },
      },
    )
    let replies = 0
    let settled = false
    const settle = (how: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      report.channelReplies += replies
      ws.terminate()
      resolve(`channel ${how}`)
    }
    const timer = setTimeout(
      () => settle(replies > 0 ? 'replied' : 'no reply in time'),
      CASE_TIMEOUT_MS,
    )
    ws.on('open', () => {
      for (const m of c.messages) ws.send(m)
    })
    ws.on('message', (data) => {
      const message = safeJson(String(data))
      if (message?.type === 'reply') replies++
      if (replies === c.messages.length) settle('replied')
    })
    ws.on('close', (code) => settle(replies > 0 ? 'replied' : `closed ${code}`))
    ws.on('error', () => settle('socket error'))
  })
}

function safeJson(text: string): { type?: unknown } | null {
  try {
    return JSON.parse(text) as { type?: unknown }
  } catch {
    return null
  }
}

/** The page loads and the contract answers `app:info` over a new socket. */
async function stillAnswers(t: FuzzTarget): Promise<boolean> {
  const page = await fetch(`http://127.0.0.1:${t.port}/?token=${t.token}`).catch(() => null)
  if (page?.status !== 200) return false
  return new Promise((resolve) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${t.port}${IPC_SOCKET_PATH}`,
      socketProtocols(t.token),
      {
        headers: { origin: `http://127.0.0.1:${t.port}` },
      },
    )
    const timer = setTimeout(() => {
      ws.terminate()
      resolve(false)
    }, 10_000)
    ws.on('open', () => ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info' })))
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as {
        type: string
        id: number
        envelope?: { ok: boolean }
      }
      if (reply.type !== 'reply' || reply.id !== 1) return
      clearTimeout(timer)
      ws.close()
      resolve(reply.envelope?.ok === true)
    })
    ws.on('error', () => {
      clearTimeout(timer)
      resolve(false)
    })
  })
}
