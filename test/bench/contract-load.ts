import { loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import type { Envelope } from '@shared/ipc/envelope'

// Many people on one server's contract socket, as their pages would be: each person has a
// socket of their own and asks for pages over it. Latency is timed here, from the request
// sent to its reply read, so it holds everything a person waits for (the server's queue,
// its work, the socket both ways).

/** One person's socket: sends a channel's request and resolves with its reply. */
export interface LoadClient {
  call(channel: string, input?: unknown): Promise<Envelope<unknown>>
  /** Push events received so far, by name (`sync:progress` while the server syncs). */
  readonly events: Map<string, number>
  close(): void
}

/** Opens a contract socket at `url` (ws://…/ipc) with the handshake's headers and protocols. */
export function openLoadClient(
  url: string,
  headers: Record<string, string>,
  protocols: string[],
): Promise<LoadClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers, perMessageDeflate: false })
    const waiting = new Map<number, (envelope: Envelope<unknown>) => void>()
    const events = new Map<string, number>()
    let nextId = 1
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        type: string
        id?: number
        event?: string
        envelope?: Envelope<unknown>
      }
      if (message.type === 'event' && message.event !== undefined)
        events.set(message.event, (events.get(message.event) ?? 0) + 1)
      if (message.type !== 'reply' || message.id === undefined) return
      waiting.get(message.id)?.(message.envelope as Envelope<unknown>)
      waiting.delete(message.id)
    })
    ws.once('open', () =>
      resolve({
        events,
        call: (channel, input) =>
          new Promise((done) => {
            const id = nextId++
            waiting.set(id, done)
            ws.send(JSON.stringify({ type: 'invoke', id, channel, input }))
          }),
        close: () => ws.terminate(),
      }),
    )
    ws.once('unexpected-response', (_request, response) =>
      reject(new Error(`the socket was refused: HTTP ${response.statusCode}`)),
    )
    ws.once('error', reject)
  })
}

/** Latencies of a run, in milliseconds, and what the machine was doing meanwhile. */
export interface LoadFigures {
  requests: number
  failures: number
  seconds: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  perSecond: number
  /** The machine's 1-minute load average at the end of the run. */
  loadAverage: number
}

/** The value below which `p` percent of `sorted` fall. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

/** Latency figures of the timed requests. */
function figuresOf(latencies: number[], failures: number, seconds: number): LoadFigures {
  const sorted = latencies.sort((a, b) => a - b)
  return {
    requests: sorted.length,
    failures,
    seconds,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? 0,
    perSecond: sorted.length / seconds,
    loadAverage: loadavg()[0] ?? 0,
  }
}

/** A timed request: its latency goes to `latencies`, a refused one counts as a failure. */
export function timed(
  latencies: number[],
  onFailure: (message: string) => void,
  call: () => Promise<Envelope<unknown>>,
): Promise<void> {
  const t0 = performance.now()
  return call().then((envelope) => {
    if (envelope.ok) latencies.push(performance.now() - t0)
    else onFailure(envelope.error.message)
  })
}

/** What one step is given: its client and index, and where its timing and failures go. */
export type LoadStepOf = (
  client: LoadClient,
  index: number,
  latencies: number[],
  fail: (message: string) => void,
) => Promise<void>

/** Latencies and failures of a run, and its figures at the end. */
function collector() {
  const latencies: number[] = []
  let failures = 0
  let firstFailure: string | null = null
  return {
    latencies,
    fail: (message: string): void => {
      failures++
      firstFailure ??= message
    },
    figures: (seconds: number) => ({ ...figuresOf(latencies, failures, seconds), firstFailure }),
  }
}

/**
 * Each of `clients` runs its `step` once every `everyMs`, at a phase of its own (people do
 * not click together), for `seconds`; the steps' own timing goes into the figures.
 */
export async function runPaced(
  clients: readonly LoadClient[],
  step: LoadStepOf,
  options: { everyMs: number; seconds: number },
): Promise<LoadFigures & { firstFailure: string | null }> {
  const run = collector()
  const endAt = performance.now() + options.seconds * 1000
  await Promise.all(
    clients.map(async (client, index) => {
      await sleep(Math.random() * options.everyMs)
      for (let next = performance.now(); next < endAt; next += options.everyMs) {
        await step(client, index, run.latencies, run.fail)
        const wait = next + options.everyMs - performance.now()
        if (wait > 0) await sleep(wait)
      }
    }),
  )
  return run.figures(options.seconds)
}

/** Each of `clients` runs its `step` back to back for `seconds`: the server's throughput. */
export async function runSaturated(
  clients: readonly LoadClient[],
  step: LoadStepOf,
  options: { seconds: number },
): Promise<LoadFigures & { firstFailure: string | null }> {
  const run = collector()
  const t0 = performance.now()
  const endAt = t0 + options.seconds * 1000
  await Promise.all(
    clients.map(async (client, index) => {
      while (performance.now() < endAt) await step(client, index, run.latencies, run.fail)
    }),
  )
  return run.figures((performance.now() - t0) / 1000)
}
