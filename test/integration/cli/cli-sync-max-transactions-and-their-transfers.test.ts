import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { readWalletTruth } from '../../helpers/sim-truth'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

/** The signatures of the one watched wallet's stored transactions and transfers. */
async function stored(dataDir: string): Promise<{ history: string[]; transfers: string[] }> {
  return readStoredMirror({ dataDir }, async (db) => {
    const history = await db.selectFrom('transactions').select('signature').execute()
    const transfers = await db.selectFrom('transfers').select('signature').execute()
    return {
      history: history.map((r) => r.signature),
      transfers: transfers.map((r) => r.signature),
    }
  })
}

describe('CLI: sync --once --max-transactions N stores exactly N, and their transfers', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let base: string[]

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    const trader = sim.chain.walletByProfile('active-trader').address
    expect((await cli([...base, 'watch', 'add', trader, '--label', 'Trader'])).code).toBe(0)
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('a trader with 6,000 transactions: its newest 50 and every transfer of them, at a page of transfers per 100', async () => {
    const run = await cli([...base, 'sync', '--once', '--quiet', '--max-transactions', '50'])
    expect(run.code, run.stderr).toBe(0)
    const truth = await readWalletTruth(sim.url, sim.chain.walletByProfile('active-trader').address)
    const newest = truth.history.slice(-50).map((e) => e.signature)
    const mirror = await stored(temp.dir)
    expect(mirror.history.sort()).toEqual([...newest].sort())
    // "Their transfers": every transfer of the 50 transactions, none missing; the last page
    // of transfers may reach a little past the oldest of them, never a page further.
    const theirs = truth.transfers.filter((t) => newest.includes(t.signature))
    expect(theirs.length).toBeGreaterThan(50)
    const held = new Set(mirror.transfers)
    expect(theirs.filter((t) => !held.has(t.signature))).toEqual([])
    const transferPages = Math.ceil(theirs.length / 100)
    expect(mirror.transfers.length).toBeLessThanOrEqual(transferPages * 100)

    const status = JSON.parse((await cli([...base, 'status', '--json'])).stdout) as {
      streams: { stream: string; itemsStored: number; isBackfillComplete: boolean }[]
    }[]
    const history = status[0]?.streams.find((s) => s.stream === 'history')
    expect(history).toMatchObject({ itemsStored: 50, isBackfillComplete: true })

    const credits = JSON.parse((await cli([...base, 'credits', '--json'])).stdout) as {
      byOperation: { operation: string; calls: number; credits: number }[]
    }
    // A smaller page costs the same 100 credits: one history call, not more; the transfers
    // take the pages their count needs, not one more.
    expect(credits.byOperation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'wallet.history', calls: 1, credits: 100 }),
        expect.objectContaining({
          operation: 'wallet.transfers',
          calls: transferPages,
          credits: transferPages * 100,
        }),
      ]),
    )
  })
})
