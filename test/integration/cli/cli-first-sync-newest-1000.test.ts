import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { readStoredMirror } from '../../helpers/stored-mirror'
import { makeTempDir } from '../../helpers/temp-dir'

// Issue 48: a new wallet's first sync stores its newest 1,000 transactions and their
// transfers, unless the person chose otherwise: a whale of a million transactions costs a
// few thousand credits, not two million.

/** The truth of a wallet's newest `n` transactions and their transfers (never charged). */
async function newestTruth(
  simUrl: string,
  address: string,
  n: number,
): Promise<{ history: HistoryEntry[]; transfers: TransferEntry[] }> {
  const base = `${simUrl}/__sim/truth/${address}`
  const { txCount } = (await (await fetch(base)).json()) as { txCount: number }
  const from = Math.max(0, txCount - n)
  const history = (await (await fetch(`${base}/history?from=${from}&limit=${n}`)).json()) as {
    entries: HistoryEntry[]
  }
  const transfers = (await (await fetch(`${base}/transfers?from=${from}&limit=${n}`)).json()) as {
    transfers: TransferEntry[]
  }
  return { history: history.entries, transfers: transfers.transfers }
}

/** What the mirror holds of its wallets: signatures of transactions, transfers' keys. */
async function held(dataDir: string): Promise<{ history: string[]; transfers: string[] }> {
  return readStoredMirror({ dataDir }, async (db) => ({
    history: (await db.selectFrom('transactions').select('signature').execute()).map(
      (r) => r.signature,
    ),
    transfers: (
      await db
        .selectFrom('transfers')
        .select(['signature', 'mint', 'direction', 'counterparty', 'amount_raw'])
        .execute()
    ).map((r) => `${r.signature} ${r.mint} ${r.direction} ${r.counterparty} ${r.amount_raw}`),
  }))
}

const keyOf = (t: TransferEntry): string =>
  `${t.signature} ${t.mint} ${t.direction} ${t.counterparty} ${t.amountRaw}`

describe('CLI: a first sync stores the newest 1,000 transactions and their transfers by default', () => {
  let sim: RunningSimulator
  const temp = makeTempDir()
  const base = (): string[] => ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
  })
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('a whale of 1,000,000 transactions: 1,000 of them, every transfer of them, at most 4,000 credits', async () => {
    const whale = sim.chain.walletByProfile('whale').address
    const added = await cli([...base(), 'watch', 'add', whale, '--label', 'Whale'])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain(`Watching ${whale} (Whale)`)
    const before = await simulatorCredits(sim.url)

    const run = await cli([...base(), 'sync', '--once', '--quiet'])

    expect(run.code, run.stderr).toBe(0)
    const truth = await newestTruth(sim.url, whale, 1_000)
    const mirror = await held(temp.dir)
    expect(mirror.history.sort()).toEqual(truth.history.map((e) => e.signature).sort())
    const stored = new Set(mirror.transfers)
    expect(truth.transfers.length).toBeGreaterThan(1_000)
    expect(truth.transfers.filter((t) => !stored.has(keyOf(t)))).toEqual([])
    // Not the whale's older transfers: at most the rest of the page that reached past them.
    expect(mirror.transfers.length).toBeLessThan(truth.transfers.length + 100)
    const spent = (await simulatorCredits(sim.url)) - before
    expect(spent).toBeGreaterThan(1_000)
    expect(spent).toBeLessThanOrEqual(4_000)

    const status = JSON.parse((await cli([...base(), 'status', '--json'])).stdout) as {
      streams: { stream: string; itemsStored: number; isBackfillComplete: boolean }[]
    }[]
    expect(status[0]?.streams.find((s) => s.stream === 'history')).toMatchObject({
      itemsStored: 1_000,
      isBackfillComplete: true,
    })
    expect(status[0]?.streams.every((s) => s.isBackfillComplete)).toBe(true)
  })

  it('--depth all, --depth N and --since are kept as the wallet’s depth; a wrong value names the flag', async () => {
    const trader = sim.chain.walletByProfile('active-trader').address
    const casual = sim.chain.walletByProfile('casual').address
    const collector = sim.chain.walletByProfile('nft-collector').address
    expect((await cli([...base(), 'watch', 'add', trader, '--depth', '250'])).code).toBe(0)
    expect((await cli([...base(), 'watch', 'add', casual, '--depth', 'all'])).code).toBe(0)
    expect((await cli([...base(), 'watch', 'add', collector, '--since', '2026-10-01'])).code).toBe(
      0,
    )
    const depths = await readStoredMirror({ dataDir: temp.dir }, (db) =>
      db
        .selectFrom('sync_streams')
        .innerJoin('wallets', 'wallets.id', 'sync_streams.wallet_id')
        .select(['wallets.address', 'depth_limit_count', 'depth_limit_since_sec'])
        .where('stream', '=', 'history')
        .execute(),
    )
    const depthOf = (address: string) => depths.find((d) => d.address === address)
    expect(depthOf(trader)).toMatchObject({ depth_limit_count: 250, depth_limit_since_sec: null })
    expect(depthOf(casual)).toMatchObject({ depth_limit_count: null, depth_limit_since_sec: null })
    expect(depthOf(collector)).toMatchObject({
      depth_limit_count: null,
      depth_limit_since_sec: Date.parse('2026-10-01T00:00:00Z') / 1000,
    })

    const wrong = await cli([
      ...base(),
      'watch',
      'add',
      sim.chain.walletByProfile('idle').address,
      '--depth',
      'lots',
    ])
    expect(wrong.code).not.toBe(0)
    expect(wrong.stderr).toMatch(/--depth must be “all” or a whole number/)
    const both = await cli([
      ...base(),
      'watch',
      'add',
      sim.chain.walletByProfile('idle').address,
      '--depth',
      'all',
      '--since',
      '2026-01-01',
    ])
    expect(both.code).not.toBe(0)
    expect(both.stderr).toMatch(/--depth all and --since contradict/)
  })
})
