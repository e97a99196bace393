import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

/** Rows the mirror holds per stream of the one watched wallet. */
async function storedCounts(dataDir: string): Promise<{ history: number; transfers: number }> {
  return readStoredMirror({ dataDir }, async (db) => {
    const history = await db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const transfers = await db
      .selectFrom('transfers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return { history: Number(history.n), transfers: Number(transfers.n) }
  })
}

describe('CLI: sync --once --max-transactions N stores exactly N', () => {
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

  it('a trader with 6,000 transactions: 50 history items and 50 transfers, one call each', async () => {
    const run = await cli([...base, 'sync', '--once', '--quiet', '--max-transactions', '50'])
    expect(run.code, run.stderr).toBe(0)
    expect(await storedCounts(temp.dir)).toEqual({ history: 50, transfers: 50 })

    const status = JSON.parse((await cli([...base, 'status', '--json'])).stdout) as {
      streams: { stream: string; itemsStored: number; isBackfillComplete: boolean }[]
    }[]
    const history = status[0]?.streams.find((s) => s.stream === 'history')
    expect(history).toMatchObject({ itemsStored: 50, isBackfillComplete: true })

    const credits = JSON.parse((await cli([...base, 'credits', '--json'])).stdout) as {
      byOperation: { operation: string; calls: number; credits: number }[]
    }
    // A smaller page costs the same 100 credits: one call each, not more.
    expect(credits.byOperation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'wallet.history', calls: 1, credits: 100 }),
        expect.objectContaining({ operation: 'wallet.transfers', calls: 1, credits: 100 }),
      ]),
    )
  })
})
