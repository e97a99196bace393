import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { CREDIT_PRICES } from '@shared/api/prices'
import { DEMO_SEED } from '../../../src-main/app/demo-data'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { readWalletTruth, simulatorCredits } from '../../helpers/sim-truth'
import { testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES, type TestEngine } from '../../helpers/sync-fixture'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'

// Issue 14: a large collection's DAS holdings pages are priced before they are fetched:
// before a first sync the estimate says the rate and that the size comes with the first
// page; after one it prices ⌈n/1,000⌉ pages from the snapshot's NFT count.

/** The collector watched on a fresh mirror, with `extraTransactions` more of its kind. */
function watchedCollector(engine: TestEngine, extraTransactions: number) {
  const temp = makeTempDir()
  let mirror: TestMirror | undefined
  const fx = { sim: null as unknown as RunningSimulator, base: [] as string[], collector: '' }
  beforeAll(async () => {
    fx.sim = await startSimulator({ seed: DEMO_SEED, clock: { mode: 'manual' } })
    mirror = await testMirror(engine, temp.dir)
    fx.base = [...mirror.cliArgs, '--service', fx.sim.url, '--api-key', 'demo']
    const wallet = fx.sim.chain.walletByProfile('nft-collector')
    fx.collector = wallet.address
    if (extraTransactions > 0) fx.sim.addActivity(wallet, extraTransactions)
    const added = await cli([...fx.base, 'watch', 'add', fx.collector, '--label', 'Collector'])
    expect(added.code).toBe(0)
  })
  afterAll(async () => {
    await fx.sim.close()
    await mirror?.drop()
    temp.remove()
  })
  return fx
}

describe.each(ENGINES)('CLI: sync --estimate prices the NFT holdings pages (on %s)', (engine) => {
  const fx = watchedCollector(engine, 0)

  it('before a first sync: the holdings counted by the look `watch add` made (its DAS total); nothing spent', async () => {
    const looked = await simulatorCredits(fx.sim.url)
    const run = await cli([...fx.base, 'sync', '--estimate'])
    expect(run.code, run.stderr).toBe(0)
    // 173 NFTs and the tokens and SOL: the holdings the first sync will snapshot.
    const holdings =
      /Collector: First sync ≈ [\d,]+ credits \(all [\d,]+ transactions, ([\d,]+) holdings, names\)/.exec(
        run.stderr,
      )
    expect(holdings, run.stderr).not.toBeNull()
    expect(Number(holdings?.[1]?.replace(/,/g, ''))).toBeGreaterThan(173)
    expect(await simulatorCredits(fx.sim.url)).toBe(looked)
  })

  it('after one: ⌈n/1,000⌉ pages for the n NFTs the wallet holds', async () => {
    const synced = await cli([...fx.base, 'sync', '--once', '--quiet'])
    expect(synced.code, synced.stderr).toBe(0)
    // The simulator's truth (never charged): the NFTs getAssetsByOwner lists.
    const total = (await readWalletTruth(fx.sim.url, fx.collector)).nftMints.length
    expect(total).toBe(173)
    const spent = await simulatorCredits(fx.sim.url)
    const run = await cli([...fx.base, 'sync', '--estimate'])
    expect(run.code, run.stderr).toBe(0)
    const credits = Math.ceil(total / DAS_MAX_LIMIT) * CREDIT_PRICES.das
    expect(run.stderr).toContain(
      `NFT holdings: ${credits} credits for ${total} NFTs at the last snapshot (${CREDIT_PRICES.das} credits per 1,000 assets).`,
    )
    // Up to date now: every stream one call, the holdings pages counted in the bound.
    const bound = /≤ ([\d,]+) credits in all\./.exec(run.stderr)
    expect(bound, run.stderr).not.toBeNull()
    expect(Number(bound![1]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(credits)
    expect(await simulatorCredits(fx.sim.url)).toBe(spent)
  }, 120_000)
})

describe('CLI: a collection past 1,000 NFTs shows its holdings cost before the pages are fetched', () => {
  // About half of a collector's transactions buy an NFT: past 1,000, a second page.
  // On SQLite only: a 2,600-transaction backfill at the plan's pace, whose estimate reads
  // the same snapshot count the case above reads on both engines.
  const fx = watchedCollector('sqlite', 2_600)

  it('the progress line gives the pages still to come and their credits once the first page tells the total; the next estimate prices them all', async () => {
    const total = (await readWalletTruth(fx.sim.url, fx.collector)).nftMints.length
    expect(total).toBeGreaterThan(DAS_MAX_LIMIT)
    const pages = Math.ceil(total / DAS_MAX_LIMIT)
    const run = await cli([...fx.base, 'sync', '--once'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(
      new RegExp(
        `Collector balances: snapshot, .*, ~${pages - 1} pages? to go \\(${(pages - 1) * CREDIT_PRICES.das} credits\\)`,
      ),
    )
    const estimate = await cli([...fx.base, 'sync', '--estimate'])
    expect(estimate.stderr).toContain(
      `NFT holdings: ${pages * CREDIT_PRICES.das} credits for ${total.toLocaleString('en-US')} NFTs at the last snapshot`,
    )
  }, 180_000)
})
