import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { TOKEN_PROGRAM_IDS } from '@shared/api/rpc'
import type { WalletBalance } from '@shared/api/wallet-rest'
import { createServiceClient, type ServiceClient } from '../../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import type { PopulationId } from '../../../src-main/simulator/chain/populations'
import type { SimWallet } from '../../../src-main/simulator/chain/sim-chain'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { holdingsFromLook, type LookedAccounts } from '../../../src-main/sync/holdings-from-look'

// A change's holdings are written from what the round read (lamports, token amounts) and
// the last snapshot's prices and names: for every wallet profile of both populations, after
// new activity, they must equal what the balances endpoint answers then — or be declined
// for the one reason the look cannot answer, a mint the last snapshot does not describe.

async function balancesAnswer(client: ServiceClient, wallet: string): Promise<WalletBalance[]> {
  const out: WalletBalance[] = []
  for (let page = 1; ; page++) {
    const answer = await client.wallet.balances({ wallet, page, limit: 100 })
    out.push(...answer.balances)
    if (!answer.pagination.hasMore) return out
  }
}

/**
 * What a round reads: the wallet's lamports, each fungible token account's amount (the
 * accounts the last snapshot named included, closed or not).
 */
async function look(
  client: ServiceClient,
  wallet: string,
  priced: ReadonlySet<string>,
): Promise<LookedAccounts> {
  const { value: lamports } = await client.rpc.getBalance([wallet])
  const tokens: { mint: string; amount: bigint }[] = []
  for (const programId of TOKEN_PROGRAM_IDS) {
    const listed = await client.rpc.getTokenAccountsByOwner([
      wallet,
      { programId },
      { encoding: 'jsonParsed' },
    ])
    for (const { account } of listed.value) {
      const data = account.data
      if (Array.isArray(data)) throw new Error('asked for jsonParsed')
      const { mint, tokenAmount } = data.parsed.info
      // The watcher's rule: a 0-decimal mint no snapshot priced is an NFT's.
      if (tokenAmount.decimals === 0 && !priced.has(mint)) continue
      tokens.push({ mint, amount: BigInt(tokenAmount.amount) })
    }
  }
  // An account the last listing named and that is gone now reads as closed: 0.
  for (const mint of priced)
    if (mint !== NATIVE_SOL_MINT && !tokens.some((t) => t.mint === mint))
      tokens.push({ mint, amount: 0n })
  return { lamports: BigInt(lamports), tokens }
}

describe.each<PopulationId>(['default', 'watch-day'])('the %s population', (population) => {
  let sim: RunningSimulator
  let client: ServiceClient
  const wallets: SimWallet[] = []

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' }, population, live: false })
    client = createServiceClient(singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 5_000 }))
    const seen = new Set<string>()
    for (const w of sim.chain.wallets) {
      if (seen.has(w.profile.id)) continue
      seen.add(w.profile.id)
      wallets.push(w)
    }
  })
  afterAll(async () => {
    await sim.close()
  })

  it('holdings from the look equal the balances answer after new activity', async () => {
    let derived = 0
    for (const wallet of wallets) {
      const previous = await balancesAnswer(client, wallet.address)
      const priced = new Set(previous.map((b) => b.mint))
      for (let round = 0; round < 4; round++) {
        sim.addActivity(wallet, 2)
        const result = holdingsFromLook(
          { takenAtSec: 0, balances: previous, nfts: [] },
          await look(client, wallet.address, priced),
        )
        const answer = await balancesAnswer(client, wallet.address)
        if (typeof result === 'string') {
          const mint = /does not describe (\S+)$/.exec(result)?.[1]
          expect(mint, `${wallet.profile.id}: ${result}`).toBeDefined()
          expect(priced.has(mint as string)).toBe(false)
          expect(answer.some((b) => b.mint === mint)).toBe(true)
          break
        }
        expect(result, wallet.profile.id).toEqual(answer)
        derived++
      }
    }
    expect(derived).toBeGreaterThanOrEqual(wallets.length)
  })
})
