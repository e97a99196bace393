import { afterEach, describe, expect, it } from 'vitest'
import type { ParsedTokenAccountData } from '@shared/api/rpc'
import { TOKEN_PROGRAM_ID, TOKEN_PROGRAM_IDS } from '@shared/api/rpc'
import type { ServiceClient } from '../../../src-main/service/service-client'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { WATCH_DAY_NFT_COUNT } from '../../../src-main/simulator/chain/wallet-profiles'
import { expectAccountsAgree, expectTokenListsAgree, programsByMint } from './account-agreement'
import { startSimulatorProcess } from '../../helpers/simulator-process'
import { startTestSimulator } from './sim-test-helpers'

// Given the watch-day population (seed 7, manual clock): fifty wallets of the stated shape;
// one simulated day appends about 20 balance-changing transactions to each active wallet
// and about 5 compressions to the compressed holder, at random times, deterministically
// for the seed, quickly; the default population of the same seed is untouched.

const DAY_SEC = 86_400

const running: RunningSimulator[] = []
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close()
})

async function start(seed = 7) {
  const t = await startTestSimulator({ seed, population: 'watch-day' })
  running.push(t.sim)
  return t
}

interface ListedWallet {
  address: string
  profile: string
  txCount: number
}

async function listWallets(url: string): Promise<{ population: string; wallets: ListedWallet[] }> {
  return (await (await fetch(`${url}/__sim/wallets`)).json()) as {
    population: string
    wallets: ListedWallet[]
  }
}

/** Token accounts of an owner over both programs (jsonParsed). */
async function tokenAccounts(client: ServiceClient, owner: string) {
  const all = []
  for (const programId of TOKEN_PROGRAM_IDS) {
    const listed = await client.rpc.getTokenAccountsByOwner([
      owner,
      { programId },
      { encoding: 'jsonParsed' },
    ])
    all.push(
      ...listed.value.map((v) => ({
        program: v.account.owner,
        info: (v.account.data as ParsedTokenAccountData).parsed.info,
      })),
    )
  }
  return all
}

async function advanceOneDay(url: string): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(`${url}/__sim/clock`, {
    method: 'POST',
    body: JSON.stringify({ advanceSec: DAY_SEC }),
  })
  expect(res.status).toBe(200)
  return performance.now() - t0
}

/** Signatures and times appended to each wallet by one simulated day. */
async function oneDay(sim: RunningSimulator) {
  const before = new Map(sim.chain.wallets.map((w) => [w.address, sim.chain.txCount(w)]))
  const elapsedMs = await advanceOneDay(sim.url)
  const added = new Map(
    sim.chain.wallets.map((w) => {
      const txs = []
      for (let i = before.get(w.address) ?? 0; i < sim.chain.txCount(w); i++)
        txs.push(sim.chain.tx(w, i))
      return [w.address, txs]
    }),
  )
  return { elapsedMs, added }
}

describe('watch-day population', () => {
  it('holds 45 idle, 3 active and 2 NFT-heavy wallets, apart from the default population', async () => {
    const { sim } = await start()
    const { population, wallets } = await listWallets(sim.url)
    expect(population).toBe('watch-day')
    expect(wallets).toHaveLength(50)
    const count = (profile: string) => wallets.filter((w) => w.profile === profile).length
    expect(count('watch-idle')).toBe(45)
    expect(count('watch-active')).toBe(3)
    expect(count('watch-nft')).toBe(1)
    expect(count('watch-nft-compressed')).toBe(1)
    const defaults = await startTestSimulator({ seed: 7 })
    running.push(defaults.sim)
    const defaultAddresses = new Set(
      (await listWallets(defaults.sim.url)).wallets.map((w) => w.address),
    )
    expect(wallets.filter((w) => defaultAddresses.has(w.address))).toEqual([])
  })

  it('gives each wallet SOL and the stated token accounts, NFTs and compressed state', async () => {
    const { sim, client } = await start()
    const { wallets } = await listWallets(sim.url)
    const programOf = await programsByMint(sim.url)
    for (const w of wallets) {
      expect((await client.rpc.getBalance([w.address])).value, w.profile).toBeGreaterThan(0)
      const accounts = await tokenAccounts(client, w.address)
      const nfts = accounts.filter(
        (a) =>
          a.info.tokenAmount.decimals === 0 &&
          programOf(a.info.mint) === TOKEN_PROGRAM_ID &&
          a.info.tokenAmount.amount === '1',
      )
      const fungible = accounts.length - nfts.length
      for (const a of accounts) expect(BigInt(a.info.tokenAmount.amount)).toBeGreaterThan(0n)
      switch (w.profile) {
        case 'watch-idle':
          expect([fungible, nfts.length]).toEqual([3, 0])
          break
        case 'watch-active':
          expect([fungible, nfts.length]).toEqual([5, 0])
          break
        case 'watch-nft':
          expect([fungible, nfts.length]).toEqual([0, WATCH_DAY_NFT_COUNT])
          break
        case 'watch-nft-compressed': {
          expect([fungible, nfts.length]).toEqual([2, WATCH_DAY_NFT_COUNT])
          const compressed = await client.compression.getCompressedAccountsByOwner({
            owner: w.address,
          })
          expect(compressed.value.items.length).toBeGreaterThan(0)
          const tokens = await client.compression.getCompressedTokenBalancesByOwnerV2({
            owner: w.address,
          })
          expect(tokens.value.items.length).toBeGreaterThan(0)
          break
        }
        default:
          throw new Error(`unexpected profile ${w.profile}`)
      }
    }
    // At least some idle wallets hold a Token-2022 mint, so both programs are exercised.
    const with2022 = []
    for (const w of wallets.filter((x) => x.profile === 'watch-idle'))
      if ((await tokenAccounts(client, w.address)).some((a) => a.program !== TOKEN_PROGRAM_ID))
        with2022.push(w.address)
    expect(with2022.length).toBeGreaterThan(0)
    for (const w of wallets.slice(40)) await expectTokenListsAgree(client, w.address, programOf)
  })

  it('appends a day of random-time activity only to the active wallets and the compressed holder, quickly', async () => {
    const { sim, client } = await start()
    const startSec = sim.chain.clock.nowSec()
    const holder = sim.chain.walletByProfile('watch-nft-compressed')
    const signaturesBefore = await client.compression.getCompressionSignaturesForOwner({
      owner: holder.address,
    })
    const balanceBefore = await client.compression.getCompressedBalanceByOwner({
      owner: holder.address,
    })
    const { elapsedMs, added } = await oneDay(sim)
    expect(elapsedMs).toBeLessThan(2_000)
    for (const w of sim.chain.wallets) {
      const txs = added.get(w.address) ?? []
      if (w.profile.id === 'watch-active') {
        expect(txs.length, w.address).toBeGreaterThanOrEqual(10)
        expect(txs.length, w.address).toBeLessThanOrEqual(35)
        for (const tx of txs) {
          expect(tx.error).toBeNull()
          expect(tx.changes.length).toBeGreaterThan(0)
        }
        // At random moments of the day, not bunched at its end.
        const times = txs.map((tx) => tx.timestamp)
        for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!)
        expect(times[0]).toBeGreaterThan(startSec)
        expect(times[times.length - 1]).toBeLessThanOrEqual(startSec + DAY_SEC)
        expect(times[times.length - 1]! - times[0]!).toBeGreaterThan(DAY_SEC / 4)
        await expectAccountsAgree(sim.chain, client, w)
      } else if (w.profile.id === 'watch-nft-compressed') {
        const compressions = txs.filter((tx) => tx.compressed !== undefined)
        expect(compressions.length).toBeGreaterThanOrEqual(2)
        expect(compressions.length).toBeLessThanOrEqual(10)
        const after = await client.compression.getCompressionSignaturesForOwner({
          owner: w.address,
        })
        expect(after.value.items.length - signaturesBefore.value.items.length).toBe(
          compressions.length,
        )
        expect(after.value.items[0]?.signature).toBe(
          compressions[compressions.length - 1]?.signature,
        )
        const tokenOwner = await client.compression.getCompressionSignaturesForTokenOwner({
          owner: w.address,
        })
        expect(tokenOwner.value.items.length).toBeGreaterThan(0)
        const lamportsAdded = compressions.reduce(
          (sum, tx) => sum + (tx.compressed?.lamports ?? 0n),
          0n,
        )
        const balanceAfter = await client.compression.getCompressedBalanceByOwner({
          owner: w.address,
        })
        expect(BigInt(balanceAfter.value - balanceBefore.value)).toBe(lamportsAdded)
        await expectAccountsAgree(sim.chain, client, w)
      } else {
        expect(txs, w.profile.id).toEqual([])
      }
    }
  })

  it('is the same day for the same seed and another day for another seed', async () => {
    const day = async (seed: number) => {
      const { sim } = await start(seed)
      const { added } = await oneDay(sim)
      return sim.chain.wallets
        .filter((w) => w.profile.id === 'watch-active')
        .map((w) => (added.get(w.address) ?? []).map((tx) => `${tx.signature}@${tx.timestamp}`))
    }
    const [a, b, c] = [await day(7), await day(7), await day(8)]
    expect(a).toEqual(b)
    expect(a.map((txs) => txs.length)).not.toEqual(c.map((txs) => txs.length))
  })

  it('keeps the default population as it is', async () => {
    const { sim } = await startTestSimulator({ seed: 7 })
    running.push(sim)
    const { population, wallets } = await listWallets(sim.url)
    expect(population).toBe('default')
    expect(wallets.map((w) => [w.profile, w.txCount])).toEqual([
      ['idle', 3],
      ['casual', 64],
      ['active-trader', 6_000],
      ['nft-collector', 420],
      ['compressed-holder', 300],
      ['failed-transactions', 240],
      ['whale', 1_000_000],
      ['empty', 0],
    ])
    // No live plan: a day passes without activity.
    await advanceOneDay(sim.url)
    expect(sim.chain.wallets.map((w) => sim.chain.txCount(w))).toEqual([
      3, 64, 6_000, 420, 300, 240, 1_000_000, 0,
    ])
  })

  it('is served by the CLI with --population watch-day, its live plan running', async () => {
    const child = await startSimulatorProcess(['--population', 'watch-day', '--seed', '7'])
    try {
      const { population, wallets } = await listWallets(child.url)
      expect(population).toBe('watch-day')
      expect(wallets).toHaveLength(50)
      const { running: live } = (await (await fetch(`${child.url}/__sim/live`)).json()) as {
        running: { profile: string; perDay: number | null }[]
      }
      expect(live.map((r) => [r.profile, r.perDay])).toEqual([
        ['watch-active', 20],
        ['watch-active', 20],
        ['watch-active', 20],
        ['watch-nft-compressed', 6],
      ])
    } finally {
      await child.close()
    }
  })
})
