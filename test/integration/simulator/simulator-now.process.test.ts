import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

// Issue 29, finding 12: the standalone simulator's clock starts at --now, by default the
// real now, and its histories lead up to that moment.

const CLI = resolve(import.meta.dirname, '../../../src-main/cli/main.ts')

interface SimProcess {
  url: string
  close(): Promise<void>
}

const running: SimProcess[] = []

/** `heliograph simulator --port 0 …` in a child process, once it listens. */
async function startSimulatorCommand(args: string[]): Promise<SimProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'simulator', '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const url = await new Promise<string>((done, fail) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /simulator listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1]) done(match[1])
    })
    child.on('exit', (code) => fail(new Error(`the simulator exited with ${code} first`)))
  })
  const sim = {
    url,
    close: () =>
      new Promise<void>((done) => {
        child.on('exit', () => done())
        child.kill('SIGTERM')
      }),
  }
  running.push(sim)
  return sim
}

async function clockOf(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__sim/clock`)).json()) as { nowSec: number }).nowSec
}

/** The newest history entry's time of a profile wallet. */
async function newestHistorySec(url: string, profile: string): Promise<number> {
  const { wallets } = (await (await fetch(`${url}/__sim/wallets`)).json()) as {
    wallets: { address: string; profile: string }[]
  }
  const address = wallets.find((w) => w.profile === profile)?.address
  const page = (await (
    await fetch(`${url}/v1/wallet/${address}/history?limit=1&api-key=demo`)
  ).json()) as { data: { timestamp: number }[] }
  return page.data[0]?.timestamp ?? 0
}

describe('heliograph simulator --now', () => {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sim) => sim.close()))
  })

  it('starts the clock at --now, with the histories leading up to it', async () => {
    const start = Date.parse('2030-01-01T00:00:00Z') / 1000
    const sim = await startSimulatorCommand(['--now', '2030-01-01'])
    expect(await clockOf(sim.url)).toBeGreaterThanOrEqual(start)
    const newest = await newestHistorySec(sim.url, 'active-trader')
    expect(newest).toBeLessThanOrEqual(start)
    // The trader is busy: its newest transaction is within days of the start.
    expect(start - newest).toBeLessThan(30 * 86_400)
  })

  it('without --now, starts at the real now: today (UTC) is the simulator’s today', async () => {
    const sim = await startSimulatorCommand([])
    const simDay = new Date((await clockOf(sim.url)) * 1000).toISOString().slice(0, 10)
    expect(simDay).toBe(new Date().toISOString().slice(0, 10))
  })
})
