import { expect } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { ParsedTokenAccountData } from '@shared/api/rpc'
import { TOKEN_AMOUNT_SLICE, TOKEN_PROGRAM_ID, TOKEN_PROGRAM_IDS } from '@shared/api/rpc'
import type { ServiceClient } from '../../../src-main/service/service-client'
import type { SimChain, SimWallet } from '../../../src-main/simulator/chain/sim-chain'

// Checks that the account reads agree with the wallet REST balances, with DAS token accounts
// and with the chain's own balances, for one wallet, over HTTP.

/** Raw integer of a decimal-adjusted amount (exact for amounts below 2^53 raw). */
export const toRaw = (amount: number, decimals: number) =>
  BigInt(Math.round(amount * 10 ** decimals))

/** The u64 LE amount of a token account read with dataSlice {64, 8}, 0 when it is closed. */
export function slicedAmount(data: unknown): bigint {
  const [text] = data as [string, 'base64']
  const bytes = Buffer.from(text, 'base64')
  expect(bytes.length).toBe(8)
  return bytes.readBigUInt64LE(0)
}

/** Mint address → token program id, from the simulator's mint listing (NFTs: classic Token). */
export async function programsByMint(url: string): Promise<(mint: string) => string> {
  const { mints } = (await (await fetch(`${url}/__sim/wallets`)).json()) as {
    mints: { address: string; tokenProgram: string }[]
  }
  const table = new Map(mints.map((m) => [m.address, m.tokenProgram]))
  return (mint) => table.get(mint) ?? TOKEN_PROGRAM_ID
}

/**
 * getMultipleAccounts (lamports and each token amount through dataSlice) equals the wallet
 * REST balances and SimChain.balancesNow; getBalance equals the lamports; an emptied token
 * account reads as null.
 */
export async function expectAccountsAgree(
  chain: SimChain,
  client: ServiceClient,
  wallet: SimWallet,
): Promise<void> {
  const truth = chain.balancesNow(wallet)
  const mints = chain.mintsOf(wallet).filter((m) => m !== 0)
  const read = await client.rpc.getMultipleAccounts([
    [wallet.address, ...mints.map((m) => chain.tokenAccountAddress(wallet, m))],
    { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE },
  ])
  const [walletAccount, ...tokenAccounts] = read.value
  const lamports = truth[0] ?? 0n
  if (lamports === 0n) expect(walletAccount).toBeNull()
  else expect(BigInt(walletAccount?.lamports ?? -1)).toBe(lamports)
  expect(BigInt((await client.rpc.getBalance([wallet.address])).value)).toBe(lamports)

  const rest = await client.wallet.balances({
    wallet: wallet.address,
    showZeroBalance: true,
    limit: 100,
  })
  const restRaw = new Map(rest.balances.map((b) => [b.mint, toRaw(b.balance, b.decimals)]))
  expect(restRaw.get(NATIVE_SOL_MINT)).toBe(lamports)
  mints.forEach((m, k) => {
    const account = tokenAccounts[k]
    const mint = chain.mints[m]!
    const amount = account ? slicedAmount(account.data) : 0n
    expect(amount, `${wallet.profile.id} ${mint.symbol}`).toBe(truth[m] ?? 0n)
    expect(restRaw.get(mint.address) ?? 0n, `${wallet.profile.id} ${mint.symbol}`).toBe(amount)
    if (amount === 0n) expect(account).toBeNull()
  })
}

/** getTokenAccountsByOwner for each program lists exactly what DAS getTokenAccounts lists of it. */
export async function expectTokenListsAgree(
  client: ServiceClient,
  owner: string,
  programOf: (mint: string) => string,
): Promise<void> {
  const das = await client.das.getTokenAccounts({ owner, limit: 1000 })
  for (const programId of TOKEN_PROGRAM_IDS) {
    const listed = await client.rpc.getTokenAccountsByOwner([
      owner,
      { programId },
      { encoding: 'jsonParsed' },
    ])
    const fromRpc = listed.value.map((v) => {
      expect(v.account.owner).toBe(programId)
      const info = (v.account.data as ParsedTokenAccountData).parsed.info
      expect(info.owner).toBe(owner)
      return `${v.pubkey} ${info.mint} ${info.tokenAmount.amount}`
    })
    const fromDas = das.token_accounts
      .filter((a) => programOf(a.mint) === programId)
      .map((a) => `${a.address} ${a.mint} ${a.amount}`)
    expect(fromRpc.sort(), programId).toEqual(fromDas.sort())
  }
}

/** The wallet's balances (wallet REST) equal the sums of its history's balance changes. */
export async function expectBalancesEqualHistorySums(
  client: ServiceClient,
  wallet: string,
): Promise<void> {
  const sums = new Map<string, bigint>()
  let before: string | undefined
  for (;;) {
    const page = await client.wallet.history({ wallet, limit: 100, ...(before ? { before } : {}) })
    for (const entry of page.data)
      for (const c of entry.balanceChanges)
        sums.set(c.mint, (sums.get(c.mint) ?? 0n) + toRaw(c.amount, c.decimals))
    if (!page.pagination.hasMore) break
    before = page.pagination.nextCursor ?? undefined
  }
  const rest = await client.wallet.balances({ wallet, showZeroBalance: true, limit: 100 })
  const restRaw = new Map(rest.balances.map((b) => [b.mint, toRaw(b.balance, b.decimals)]))
  for (const [mint, raw] of restRaw) expect(raw, mint).toBe(sums.get(mint) ?? 0n)
  for (const [mint, raw] of sums) if (raw !== 0n) expect(restRaw.get(mint), mint).toBe(raw)
}
