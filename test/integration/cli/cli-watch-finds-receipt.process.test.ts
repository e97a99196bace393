import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import type { InjectionAnswer } from '../../../src-main/simulator/chain/injection-answer'
import { runCli, startCli } from '../../helpers/cli-process'
import { profileAddressOf, startSimulatorProcess } from '../../helpers/simulator-process'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 47's "done means", in real time: with `heliograph sync --every 15` watching one
// wallet against a simulator process, a token purchase the wallet makes is in the mirror
// within 150 s, and then a receipt of that token into the account the purchase opened —
// signed and paid for by another wallet, the watched wallet's address not among its
// accounts — is in the mirror within 150 s too (it used to wait for the hourly listing of
// the wallet's token accounts, or never arrive).

const EVERY_SEC = 15
const WITHIN_MS = 150_000

describe('CLI: sync --every 15 finds a purchase, then a receipt the wallet never signed, in real time', () => {
  const temp = makeTempDir()
  let sim: Awaited<ReturnType<typeof startSimulatorProcess>>
  let base: string[]
  let address: string

  beforeAll(async () => {
    sim = await startSimulatorProcess()
    address = await profileAddressOf(sim.url, 'casual')
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    expect((await runCli([...base, 'watch', 'add', address])).code).toBe(0)
  }, 60_000)
  afterAll(async () => {
    await sim?.close()
    temp.remove()
  })

  const stored = (signature: string) =>
    readStoredMirror(
      { dataDir: temp.dir },
      async (db) =>
        (
          await db
            .selectFrom('transactions')
            .select('id')
            .where('signature', '=', signature)
            .execute()
        ).length,
    ).catch(() => 0)
  /** Milliseconds until the mirror holds `signature`; fails past the bound. */
  async function msUntilStored(signature: string): Promise<number> {
    const start = Date.now()
    while ((await stored(signature)) === 0) {
      if (Date.now() - start > WITHIN_MS) throw new Error(`${signature} not in the mirror in time`)
      await sleep(250)
    }
    return Date.now() - start
  }
  async function inject(body: Record<string, string>): Promise<InjectionAnswer> {
    const res = await fetch(`${sim.url}/__sim/inject`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: address, ...body }),
    })
    expect(res.status).toBe(200)
    return (await res.json()) as InjectionAnswer
  }

  it('each reaches the mirror within 150 s', async () => {
    const watching = startCli([...base, 'sync', '--every', String(EVERY_SEC)])
    try {
      await watching.waitFor((out) => out.stderr.includes('Watching 1 wallet'), 60_000)
      // The first sync takes the wallet's past; the watch starts from there.
      const truth = (await (await fetch(`${sim.url}/__sim/truth/${address}`)).json()) as {
        txCount: number
      }
      const newest = (
        (await (
          await fetch(`${sim.url}/__sim/truth/${address}/signatures?from=${truth.txCount - 1}`)
        ).json()) as { signatures: string[] }
      ).signatures[0] as string
      await msUntilStored(newest)

      const bought = await inject({ kind: 'token-purchase' })
      expect(bought.tokenAccountState).toBe('opened')
      expect(await msUntilStored(bought.signature)).toBeLessThanOrEqual(WITHIN_MS)

      const receipt = await inject({
        kind: 'token-receipt',
        mint: bought.mint as string,
        amountRaw: '10717',
      })
      expect(receipt).toMatchObject({
        tokenAccount: bought.tokenAccount,
        tokenAccountState: 'credited',
      })
      expect(await msUntilStored(receipt.signature)).toBeLessThanOrEqual(WITHIN_MS)
      expect(watching.child.exitCode).toBeNull()
    } finally {
      watching.child.kill('SIGTERM')
      await watching.exited
    }
  }, 480_000)
})
