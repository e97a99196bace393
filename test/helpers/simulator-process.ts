import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

const CLI = resolve(import.meta.dirname, '../../src-main/cli/main.ts')

/**
 * The simulator in a child process, as the real service would be: on another thread of
 * execution, so a client's fetching and writing can overlap (benchmarks need that).
 */
export async function startSimulatorProcess(
  args: string[] = [],
): Promise<{ url: string; close: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    // The histories end at the simulator's fixed default moment, as in-process simulators'.
    ['--import', 'tsx', CLI, 'simulator', '--port', '0', '--now', '2026-11-01', ...args],
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
    child.on('exit', (code) =>
      fail(new Error(`the simulator exited with ${code} before listening`)),
    )
  })
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        child.on('exit', () => done())
        child.kill('SIGTERM')
      }),
  }
}

/** The address of a profile wallet of a running simulator. */
export async function profileAddressOf(url: string, profile: string): Promise<string> {
  const { wallets } = (await (await fetch(`${url}/__sim/wallets`)).json()) as {
    wallets: { address: string; profile: string }[]
  }
  const wallet = wallets.find((w) => w.profile === profile)
  if (!wallet) throw new Error(`no ${profile} wallet in the simulator`)
  return wallet.address
}
