import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasePath } from '../../../src-main/app/data-dir'
import { createServiceClient, type ServiceClient } from '../../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli as cli, type CliRun } from '../../helpers/cli-in-process'
import { simulatorCredits } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// The look-up desk's CLI: cost on stderr before any call, --estimate stops there, cached
// answers reused until --refresh, --yes for the proof and token-metadata, and `--json`
// printing what the service answers to the same call; the ledger equals the counter.

describe('CLI: look-ups', () => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let truth: ServiceClient
  let base: string[]
  let casual: string
  let collector: string
  let holder: string

  const ok = async (args: string[]): Promise<CliRun> => {
    const run = await cli([...base, ...args])
    expect(run.code, run.stderr).toBe(0)
    return run
  }
  const json = async <T>(args: string[]): Promise<T & { credits: number; fromCache: boolean }> =>
    JSON.parse((await ok([...args, '--json'])).stdout) as T & {
      credits: number
      fromCache: boolean
    }
  const ledger = (): number => {
    const db = new Database(databasePath(temp.dir), { readonly: true })
    try {
      return (
        db.prepare('select coalesce(sum(credits), 0) as n from credit_ledger').get() as {
          n: number
        }
      ).n
    } finally {
      db.close()
    }
  }
  const spent = (): Promise<number> => simulatorCredits(sim.url, 'demo')

  beforeAll(async () => {
    // A still clock: answers name the indexer's slot, which must not move between the two asks.
    sim = await startSimulator({
      seed: 7,
      live: false,
      clock: { mode: 'manual' },
      keys: ['demo', 'truth'],
    })
    truth = createServiceClient(singleOriginServiceSettings(sim.url, 'truth'))
    base = ['--data-dir', temp.dir, '--service', sim.url, '--api-key', 'demo']
    casual = sim.chain.walletByProfile('casual').address
    collector = sim.chain.walletByProfile('nft-collector').address
    holder = sim.chain.walletByProfile('compressed-holder').address
  }, 60_000)
  afterAll(async () => {
    await sim.close()
    temp.remove()
  })

  it('lookup: cost first, --estimate stops, the answer is the service’s, then cached until --refresh', async () => {
    const estimate = await ok(['lookup', casual, '--estimate'])
    expect(estimate.stderr).toMatch(
      /Cost: 510 credits: 5 wallet calls \(100 each\) and 1 DAS call \(10\)/,
    )
    expect(estimate.stdout).toBe('')
    expect(await spent()).toBe(0)

    const first = await json<{ history: unknown; identity: unknown; view: string }>([
      'lookup',
      casual,
    ])
    expect(first).toMatchObject({ view: 'wallet', credits: 510, fromCache: false })
    expect(first.history).toEqual(await truth.wallet.history({ wallet: casual, limit: 100 }))
    expect(first.identity).toEqual(await truth.wallet.identity({ wallet: casual }))
    expect(await spent()).toBe(510)

    const again = await cli([...base, 'lookup', casual, '--json'])
    expect(again.stderr).toMatch(/Cached answer from .*free now/)
    expect(JSON.parse(again.stdout)).toMatchObject({ fromCache: true, credits: 510 })
    expect(await spent()).toBe(510)

    const refreshed = await json<object>(['lookup', casual, '--refresh'])
    expect(refreshed.fromCache).toBe(false)
    expect(await spent()).toBe(1020)
    expect(ledger()).toBe(await spent())
  })

  it('asset, assets and token-accounts print what DAS answers', async () => {
    const page = await json<{ page: { items: { id: string }[] } }>(['assets', '--owner', collector])
    const truthPage = await truth.das.getAssetsByOwner({
      ownerAddress: collector,
      page: 1,
      limit: 50,
      options: { showGrandTotal: true },
    })
    expect(page.page).toEqual(truthPage)
    const ids = truthPage.items.slice(0, 2).map((a) => a.id)
    const assets = await json<{ assets: unknown }>(['asset', ...ids])
    expect(assets.assets).toEqual(await truth.das.getAssetBatch({ ids }))
    const accounts = await json<{ page: unknown }>(['token-accounts', '--owner', casual])
    expect(accounts.page).toEqual(
      await truth.das.getTokenAccounts({ owner: casual, page: 1, limit: 100 }),
    )
    expect(accounts.credits).toBe(10)
    const neither = await cli([...base, 'assets'])
    expect(neither.code).not.toBe(0)
    expect(neither.stderr).toMatch(/give --owner or --authority/)
    expect(ledger()).toBe(await spent())
  })

  it('compressed account, owner, tx and proof (the proof only with --yes)', async () => {
    const owned = await truth.compression.getCompressedAccountsByOwner({
      owner: holder,
      limit: 1000,
    })
    const owner = await json<{ accounts: { value: unknown } }>(['compressed', 'owner', holder])
    expect(owner.accounts.value).toEqual(owned.value)
    const hashes = owned.value.items.slice(0, 2).map((a) => a.hash)
    const byHash = await json<{ accounts: { value: unknown } }>([
      'compressed',
      'account',
      ...hashes,
    ])
    expect(byHash.accounts.value).toEqual(
      (await truth.compression.getMultipleCompressedAccounts({ hashes })).value,
    )
    const signature = (
      await truth.compression.getCompressionSignaturesForOwner({ owner: holder, limit: 1 })
    ).value.items[0]?.signature as string
    const tx = await json<{ transaction: unknown }>(['compressed', 'tx', signature])
    expect(tx.transaction).toEqual(
      await truth.compression.getTransactionWithCompressionInfo({ signature }),
    )

    const before = await spent()
    const unconfirmed = await cli([...base, 'compressed', 'proof', ...hashes])
    expect(unconfirmed.code).not.toBe(0)
    expect(unconfirmed.stderr).toMatch(/Cost: 100 credits: 1 validity-proof call \(100\)/)
    expect(unconfirmed.stderr).toMatch(/add --yes/)
    expect(await spent()).toBe(before)
    const proof = await json<{ proof: { value: unknown } }>([
      'compressed',
      'proof',
      ...hashes,
      '--yes',
    ])
    expect(proof.credits).toBe(100)
    expect(proof.proof.value).toEqual((await truth.compression.getValidityProof({ hashes })).value)
    expect(ledger()).toBe(await spent())
  })

  it('fee and token-metadata', async () => {
    const fee = await json<{
      levels: { level: string; sol: string; microLamportsPerCu: number }[]
    }>(['fee', '--account', casual, '--compute-units', '1000000'])
    expect(fee.credits).toBe(1)
    const estimate = await truth.priorityFee.getPriorityFeeEstimate([
      { accountKeys: [casual], options: { includeAllPriorityFeeLevels: true } },
    ])
    const high = fee.levels.find((l) => l.level === 'high')
    expect(high?.microLamportsPerCu).toBe(estimate.priorityFeeLevels?.high)
    // 1,000,000 CU × µL/CU = µL × 1e6 → lamports = µL; SOL = µL / 1e9.
    expect(Number(high?.sol)).toBeCloseTo((estimate.priorityFeeLevels?.high ?? 0) / 1e9, 15)

    const mint = (await truth.das.getTokenAccounts({ owner: casual, page: 1, limit: 1 }))
      .token_accounts[0]?.mint as string
    const unconfirmed = await cli([...base, 'token-metadata', mint])
    expect(unconfirmed.code).not.toBe(0)
    expect(unconfirmed.stderr).toMatch(/Deprecated: .*getAssetBatch/)
    expect(unconfirmed.stderr).toMatch(/Credits unknown/)
    expect(unconfirmed.stderr).toMatch(/add --yes/)
    const metadata = await json<{ metadata: unknown }>(['token-metadata', mint, '--yes'])
    expect(metadata.metadata).toEqual(
      await truth.tokenMetadata.getTokenMetadata({ mintAccounts: [mint] }),
    )
    expect(ledger()).toBe(await spent())
  })

  it('bad input is refused before any call, naming what was wrong', async () => {
    const before = await spent()
    const bad = await cli([...base, 'lookup', 'not-an-address'])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/base58 address/)
    const tooMany = await cli([...base, 'asset', ...Array.from({ length: 1001 }, () => casual)])
    expect(tooMany.code).not.toBe(0)
    expect(tooMany.stderr).toMatch(/1000|1,000/)
    expect(await spent()).toBe(before)
  })
})
