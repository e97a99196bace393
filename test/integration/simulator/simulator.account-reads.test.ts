import { afterEach, describe, expect, it } from 'vitest'
import bs58 from 'bs58'
import { CREDIT_PRICES } from '@shared/api/prices'
import type { ParsedTokenAccountData } from '@shared/api/rpc'
import {
  GetMultipleAccountsResult,
  GetTokenAccountsByOwnerResult,
  SYSTEM_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_AMOUNT_SLICE,
  TOKEN_PROGRAM_ID,
} from '@shared/api/rpc'
import type { RunningSimulator } from '../../../src-main/simulator/simulator-server'
import type { ProfileId } from '../../../src-main/simulator/chain/wallet-profiles'
import {
  expectAccountsAgree,
  expectBalancesEqualHistorySums,
  expectTokenListsAgree,
  programsByMint,
  slicedAmount,
} from './account-agreement'
import { rawRpc, startTestSimulator } from './sim-test-helpers'

// Given the default population (seed 7): the standard RPC account reads answer in the shared
// schemas at 1 credit each, and agree with wallet balances, DAS token accounts and the chain,
// before and after live activity and after each kind of injected transaction.

const running: RunningSimulator[] = []
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close()
})

async function start(options: Parameters<typeof startTestSimulator>[0] = {}) {
  const t = await startTestSimulator(options)
  running.push(t.sim)
  return t
}

const PROFILES: ProfileId[] = [
  'idle',
  'casual',
  'active-trader',
  'nft-collector',
  'compressed-holder',
  'failed-transactions',
  'whale',
  'empty',
]

async function inject(url: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/__sim/inject`, { method: 'POST', body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('shapes and prices', () => {
  it('charge 1 credit per account read and 10 per getSignaturesForAddress', async () => {
    const { sim, client, address } = await start()
    const trader = address('active-trader')
    await client.rpc.getMultipleAccounts([[trader], { encoding: 'base64' }])
    await client.rpc.getTokenAccountsByOwner([
      trader,
      { programId: TOKEN_PROGRAM_ID },
      { encoding: 'base64' },
    ])
    await client.rpc.getBalance([trader])
    await client.rpc.getSignaturesForAddress([trader, { limit: 1 }])
    const credits = sim.credits.forKey('demo')
    expect(credits.byOperation).toEqual({
      'rpc.getMultipleAccounts': { calls: 1, credits: 1 },
      'rpc.getTokenAccountsByOwner': { calls: 1, credits: 1 },
      'rpc.getBalance': { calls: 1, credits: 1 },
      'rpc.getSignaturesForAddress': { calls: 1, credits: 10 },
    })
    expect(CREDIT_PRICES.rpcStandard).toBe(1)
    expect(credits.total).toBe(13)
  })

  it('serve wallets as system accounts and token accounts as 165-byte SPL layouts', async () => {
    const { sim, address } = await start()
    const chain = sim.chain
    const casual = chain.walletByProfile('casual')
    const usdc = chain.tokenAccountAddress(casual, 1)
    const { body } = await rawRpc(sim.url, 'getMultipleAccounts', [
      [casual.address, usdc, address('empty'), chain.mints[3]!.address],
      { encoding: 'base64' },
    ])
    const result = GetMultipleAccountsResult.parse(body.result)
    expect(result.context.slot).toBe(chain.currentSlot())
    const [wallet, token, empty, mint] = result.value
    expect(wallet).toMatchObject({ owner: SYSTEM_PROGRAM_ID, data: ['', 'base64'], space: 0 })
    expect(token).toMatchObject({ owner: TOKEN_PROGRAM_ID, space: TOKEN_ACCOUNT_SIZE })
    const bytes = Buffer.from((token!.data as [string, string])[0], 'base64')
    expect(bytes.length).toBe(TOKEN_ACCOUNT_SIZE)
    expect(bs58.encode(bytes.subarray(0, 32))).toBe(chain.mints[1]!.address)
    expect(bs58.encode(bytes.subarray(32, 64))).toBe(casual.address)
    expect(bytes.readBigUInt64LE(64)).toBe(chain.balancesNow(casual)[1])
    // A wallet that never transacted, and accounts the chain does not serve, read as null.
    expect(empty).toBeNull()
    expect(mint).toBeNull()
    // dataSlice cuts the data; the size stays the account's.
    const sliced = (
      await rawRpc(sim.url, 'getMultipleAccounts', [
        [usdc],
        { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE },
      ])
    ).body.result.value[0]
    expect(slicedAmount(sliced.data)).toBe(chain.balancesNow(casual)[1])
    expect(sliced.space).toBe(TOKEN_ACCOUNT_SIZE)
  })

  it('list Token-2022 accounts under their program, parsed or base64', async () => {
    const { sim, address } = await start()
    // casual trades MOSS (index 12), a Token-2022 mint; its held mints are classic.
    const casual = address('casual')
    const raw = await rawRpc(sim.url, 'getTokenAccountsByOwner', [
      casual,
      { programId: TOKEN_2022_PROGRAM_ID },
      { encoding: 'base64' },
    ])
    const listed = GetTokenAccountsByOwnerResult.parse(raw.body.result)
    for (const { account } of listed.value) expect(account.owner).toBe(TOKEN_2022_PROGRAM_ID)
    const byMint = await rawRpc(sim.url, 'getTokenAccountsByOwner', [
      casual,
      { mint: sim.chain.mints[1]!.address },
      { encoding: 'jsonParsed' },
    ])
    const [usdc] = GetTokenAccountsByOwnerResult.parse(byMint.body.result).value
    const info = (usdc!.account.data as ParsedTokenAccountData).parsed.info
    expect(info.tokenAmount.decimals).toBe(6)
    expect(BigInt(info.tokenAmount.amount)).toBe(
      sim.chain.balancesNow(sim.chain.walletByProfile('casual'))[1],
    )
  })

  it('refuse more than 100 pubkeys naming the limit, unknown programs and mints, free of charge', async () => {
    const { sim, address } = await start()
    const a = address('casual')
    const tooMany = await rawRpc(sim.url, 'getMultipleAccounts', [
      Array.from({ length: 101 }, () => a),
      { encoding: 'base64' },
    ])
    expect(tooMany.body.error.code).toBe(-32602)
    expect(tooMany.body.error.message).toContain('at most 100')
    const exactly = await rawRpc(sim.url, 'getMultipleAccounts', [
      Array.from({ length: 100 }, () => a),
      { encoding: 'base64' },
    ])
    expect(exactly.body.result.value).toHaveLength(100)
    const program = await rawRpc(sim.url, 'getTokenAccountsByOwner', [
      a,
      { programId: SYSTEM_PROGRAM_ID },
      { encoding: 'base64' },
    ])
    expect(program.body.error.message).toContain('programId')
    const mint = await rawRpc(sim.url, 'getTokenAccountsByOwner', [
      a,
      { mint: a },
      { encoding: 'base64' },
    ])
    expect(mint.body.error.message).toContain('mint')
    expect(sim.credits.forKey('demo').total).toBe(1)
  })

  it('are rate limited on the RPC class of the plan', async () => {
    const { sim, address } = await start({ plan: 'free' })
    const statuses: number[] = []
    // 25 calls span at most two or three one-second windows of 10 (free plan, RPC class).
    for (let i = 0; i < 25; i++)
      statuses.push((await rawRpc(sim.url, 'getBalance', [address('casual')])).status)
    expect(statuses).toContain(429)
    expect(statuses).toContain(200)
  })

  it('are subject to injected faults', async () => {
    const { sim, address } = await start()
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ target: 'rpc.getMultipleAccounts', kind: 'error', count: 1 }),
    })
    const read = () =>
      rawRpc(sim.url, 'getMultipleAccounts', [[address('casual')], { encoding: 'base64' }])
    expect((await read()).status).toBe(500)
    expect((await read()).status).toBe(200)
    expect(sim.credits.forKey('demo').total).toBe(1)
  })
})

describe('agreement with balances, DAS and the chain', () => {
  it.each(PROFILES)('%s', async (profile) => {
    const { sim, client } = await start()
    const wallet = sim.chain.walletByProfile(profile)
    await expectAccountsAgree(sim.chain, client, wallet)
    await expectTokenListsAgree(client, wallet.address, await programsByMint(sim.url))
  })

  it('reads an emptied token account as null while DAS lists it only with showZeroBalance', async () => {
    const { sim, client } = await start()
    const casual = sim.chain.walletByProfile('casual')
    // LUMN (4) is traded but not held: it nets to zero at every block end.
    expect(sim.chain.balancesNow(casual)[4]).toBe(0n)
    const account = sim.chain.tokenAccountAddress(casual, 4)
    const read = await client.rpc.getMultipleAccounts([[account], { encoding: 'base64' }])
    expect(read.value).toEqual([null])
    const all = await client.das.getTokenAccounts({
      owner: casual.address,
      options: { showZeroBalance: true },
    })
    expect(all.token_accounts.map((a) => a.address)).toContain(account)
    const open = await client.das.getTokenAccounts({ owner: casual.address })
    expect(open.token_accounts.map((a) => a.address)).not.toContain(account)
  })

  it('after appended and live activity', async () => {
    const { sim, client } = await start()
    const programOf = await programsByMint(sim.url)
    const wallets = (['casual', 'active-trader', 'nft-collector'] as const).map((p) =>
      sim.chain.walletByProfile(p),
    )
    for (const w of wallets) sim.addActivity(w, 13)
    await fetch(`${sim.url}/__sim/live`, {
      method: 'POST',
      body: JSON.stringify({ action: 'start', wallets: ['casual', 'idle'], perDay: 40 }),
    })
    const before = sim.chain.txCount(wallets[0]!)
    sim.chain.clock.advance(86_400)
    expect(sim.chain.txCount(wallets[0]!)).toBeGreaterThan(before)
    for (const w of [...wallets, sim.chain.walletByProfile('idle')]) {
      await expectAccountsAgree(sim.chain, client, w)
      await expectTokenListsAgree(client, w.address, programOf)
    }
  })
})

describe('injected activity', () => {
  it('token-airdrop opens a new token account that every view shows', async () => {
    const { sim, client } = await start()
    const casual = sim.chain.walletByProfile('casual')
    const lamportsBefore = sim.chain.balancesNow(casual)[0]
    const { status, body } = await inject(sim.url, { wallet: 'casual', kind: 'token-airdrop' })
    expect(status).toBe(200)
    const mint = body.mint as string
    const account = body.tokenAccount as string
    expect(sim.chain.mintsOf(casual).some((m) => sim.chain.mints[m]!.address === mint)).toBe(true)
    // Paid by the sender: the wallet's SOL is unchanged.
    expect(sim.chain.balancesNow(casual)[0]).toBe(lamportsBefore)

    const listed = await client.rpc.getTokenAccountsByOwner([
      casual.address,
      { mint },
      { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE },
    ])
    expect(listed.value.map((v) => v.pubkey)).toEqual([account])
    expect(slicedAmount(listed.value[0]!.account.data)).toBe(BigInt(body.amountRaw as string))
    const history = await client.wallet.history({ wallet: casual.address, limit: 1 })
    expect(history.data[0]?.signature).toBe(body.signature)
    expect(history.data[0]?.balanceChanges.map((c) => c.mint)).toEqual([mint])
    const transfers = await client.wallet.transfers({ wallet: casual.address, limit: 1 })
    expect(transfers.data[0]).toMatchObject({
      signature: body.signature,
      direction: 'in',
      mint,
      amountRaw: body.amountRaw,
    })
    const balances = await client.wallet.balances({ wallet: casual.address })
    expect(balances.balances.map((b) => b.mint)).toContain(mint)
    const signatures = await client.rpc.getSignaturesForAddress([casual.address, { limit: 1 }])
    expect(signatures[0]?.signature).toBe(body.signature)
    await expectAccountsAgree(sim.chain, client, casual)
    await expectTokenListsAgree(client, casual.address, await programsByMint(sim.url))
    // A mint the wallet has held cannot be airdropped as new.
    const again = await inject(sim.url, { wallet: 'casual', kind: 'token-airdrop', mint })
    expect(again.status).toBe(400)
  })

  it.each(['memo', 'failed'] as const)(
    'silent (%s) appears in history and signatures and changes no balance',
    async (variant) => {
      const { sim, client } = await start()
      const w = sim.chain.walletByProfile('active-trader')
      const keys = [
        w.address,
        ...sim.chain
          .mintsOf(w)
          .slice(1)
          .map((m) => sim.chain.tokenAccountAddress(w, m)),
      ]
      const read = () =>
        client.rpc.getMultipleAccounts([
          keys,
          { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE },
        ])
      const before = await read()
      const { body } = await inject(sim.url, { wallet: w.address, kind: 'silent', variant })
      const after = await read()
      expect(after.value).toEqual(before.value)
      const history = await client.wallet.history({ wallet: w.address, limit: 1 })
      expect(history.data[0]).toMatchObject({ signature: body.signature, balanceChanges: [] })
      expect(history.data[0]?.feePayer).not.toBe(w.address)
      expect(history.data[0]?.error === null).toBe(variant === 'memo')
      const [latest] = await client.rpc.getSignaturesForAddress([w.address, { limit: 1 }])
      expect(latest?.signature).toBe(body.signature)
      if (variant === 'memo') expect(latest?.memo).toMatch(/^\[\d+\] /)
      else expect(latest?.err).not.toBeNull()
      await expectAccountsAgree(sim.chain, client, w)
    },
  )

  it('token-purchase: the wallet pays for a mint it never held, and its own transaction opens the account', async () => {
    const { sim, client } = await start()
    const w = sim.chain.walletByProfile('casual')
    const lamportsBefore = sim.chain.balancesNow(w)[0] ?? 0n
    const { status, body } = await inject(sim.url, { wallet: 'casual', kind: 'token-purchase' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ kind: 'token-purchase', tokenAccountState: 'opened' })
    const mint = body.mint as string
    const account = body.tokenAccount as string
    expect(sim.chain.balancesNow(w)[0]).toBeLessThan(lamportsBefore)
    // Signed by the wallet: first on its own signatures and on the account's.
    const [own] = await client.rpc.getSignaturesForAddress([w.address, { limit: 1 }])
    expect(own?.signature).toBe(body.signature)
    const [onAccount] = await client.rpc.getSignaturesForAddress([account, { limit: 1 }])
    expect(onAccount?.signature).toBe(body.signature)
    const tx = await client.rpc.getTransaction([
      body.signature as string,
      { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
    ])
    const keys = tx!.transaction.message.accountKeys.map((k) => k.pubkey)
    expect(keys[0]).toBe(w.address)
    const index = keys.indexOf(account)
    expect(tx!.meta!.preTokenBalances!.some((b) => b.accountIndex === index)).toBe(false)
    expect(tx!.meta!.postTokenBalances!.find((b) => b.accountIndex === index)).toMatchObject({
      mint,
      owner: w.address,
      programId: body.tokenProgram,
      uiTokenAmount: { amount: body.amountRaw },
    })
    const history = await client.wallet.history({ wallet: w.address, limit: 1 })
    expect(history.data[0]?.feePayer).toBe(w.address)
    expect(history.data[0]?.balanceChanges.map((c) => c.mint)).toContain(mint)
    await expectAccountsAgree(sim.chain, client, w)
    await expectTokenListsAgree(client, w.address, await programsByMint(sim.url))
    // Its account is open now: a purchase opens an account, it does not top one up.
    const again = await inject(sim.url, { wallet: 'casual', kind: 'token-purchase', mint })
    expect(again.status).toBe(400)
    expect(again.body.error).toMatch(/^mint: .*open/)
  })

  it('token-receipt: another wallet signs and pays; the wallet is not among the accounts, its token account is', async () => {
    const { sim, client } = await start()
    const w = sim.chain.walletByProfile('casual')
    const bought = await inject(sim.url, { wallet: w.address, kind: 'token-purchase' })
    const mint = bought.body.mint as string
    const account = bought.body.tokenAccount as string
    const lamportsBefore = sim.chain.balancesNow(w)[0]
    const { status, body } = await inject(sim.url, {
      wallet: w.address,
      kind: 'token-receipt',
      mint,
      amountRaw: '10717',
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ tokenAccount: account, amountRaw: '10717' })
    expect(body.tokenAccountState).toBe('credited')
    expect(sim.chain.balancesNow(w)[0]).toBe(lamportsBefore)
    const tx = await client.rpc.getTransaction([
      body.signature as string,
      { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
    ])
    const keys = tx!.transaction.message.accountKeys.map((k) => k.pubkey)
    expect(keys).not.toContain(w.address)
    expect(keys[0]).not.toBe(w.address)
    const post = tx!.meta!.postTokenBalances!.find((b) => b.accountIndex === keys.indexOf(account))
    expect(post?.owner).toBe(w.address)
    // Not on the wallet's signatures; on its token account's and in its history.
    const [own] = await client.rpc.getSignaturesForAddress([w.address, { limit: 1 }])
    expect(own?.signature).toBe(bought.body.signature)
    const [onAccount] = await client.rpc.getSignaturesForAddress([account, { limit: 1 }])
    expect(onAccount?.signature).toBe(body.signature)
    const history = await client.wallet.history({ wallet: w.address, limit: 1 })
    expect(history.data[0]?.signature).toBe(body.signature)
    await expectAccountsAgree(sim.chain, client, w)

    // A mint it has no account of: one is opened for it, still without naming the wallet.
    const other = sim.chain.mints.find(
      (m) => m.index > 0 && !sim.chain.mintsOf(w).includes(m.index),
    )!
    const fresh = await inject(sim.url, {
      wallet: w.address,
      kind: 'token-receipt',
      mint: other.address,
    })
    expect(fresh.body.tokenAccountState).toBe('opened')
    const freshTx = await client.rpc.getTransaction([
      fresh.body.signature as string,
      { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
    ])
    expect(freshTx!.transaction.message.accountKeys.map((k) => k.pubkey)).not.toContain(w.address)
    await expectTokenListsAgree(client, w.address, await programsByMint(sim.url))
    const refused = await inject(sim.url, { wallet: w.address, kind: 'token-receipt' })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatch(/mint/)
  })

  it('close-account: the wallet sends all of a mint away and the account closes in that transaction', async () => {
    const { sim, client } = await start()
    const w = sim.chain.walletByProfile('active-trader')
    const m = sim.chain.mintsOf(w).find((i) => i > 0 && (sim.chain.balancesNow(w)[i] ?? 0n) > 0n)!
    const mint = sim.chain.mints[m]!
    const held = sim.chain.balancesNow(w)[m]!
    const { status, body } = await inject(sim.url, {
      wallet: w.address,
      kind: 'close-account',
      mint: mint.address,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ tokenAccountState: 'closed', amountRaw: held.toString() })
    const account = body.tokenAccount as string
    const read = await client.rpc.getMultipleAccounts([
      [account],
      { encoding: 'base64', dataSlice: TOKEN_AMOUNT_SLICE },
    ])
    expect(read.value[0]).toBeNull()
    const tx = await client.rpc.getTransaction([
      body.signature as string,
      { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
    ])
    const index = tx!.transaction.message.accountKeys.findIndex((k) => k.pubkey === account)
    expect(tx!.meta!.preTokenBalances!.find((b) => b.accountIndex === index)).toMatchObject({
      owner: w.address,
      uiTokenAmount: { amount: held.toString() },
    })
    expect(tx!.meta!.postTokenBalances!.some((b) => b.accountIndex === index)).toBe(false)
    const transfers = await client.wallet.transfers({ wallet: w.address, limit: 1 })
    expect(transfers.data[0]).toMatchObject({ direction: 'out', amountRaw: held.toString() })
    await expectAccountsAgree(sim.chain, client, w)
    await expectTokenListsAgree(client, w.address, await programsByMint(sim.url))
    const again = await inject(sim.url, { wallet: w.address, kind: 'close-account', mint: m })
    expect(again.status).toBe(400)
    expect(again.body.error).toMatch(/^mint: the wallet has no open .* account to close/)
    // Bought again: the same address opens again.
    const reopened = await inject(sim.url, { wallet: w.address, kind: 'token-purchase', mint: m })
    expect(reopened.body).toMatchObject({ tokenAccount: account, tokenAccountState: 'opened' })
  })

  it('failed-swap: the wallet signs a swap that fails and pays only its fee', async () => {
    const { sim, client } = await start()
    const w = sim.chain.walletByProfile('casual')
    const before = sim.chain.balancesNow(w)
    const { body } = await inject(sim.url, { wallet: w.address, kind: 'failed-swap' })
    const history = await client.wallet.history({ wallet: w.address, limit: 1 })
    expect(history.data[0]).toMatchObject({ signature: body.signature, feePayer: w.address })
    expect(history.data[0]?.error).not.toBeNull()
    expect(history.data[0]?.balanceChanges).toEqual([
      expect.objectContaining({ amount: -history.data[0]!.fee }),
    ])
    const after = sim.chain.balancesNow(w)
    expect(after.slice(1)).toEqual(before.slice(1))
    expect(body.mint).toBeUndefined()
  })

  it('keeps every view consistent across injections at every block position', async () => {
    const { sim, client } = await start()
    const w = sim.chain.walletByProfile('casual')
    let bought: string | null = null
    for (let k = 0; k < 16; k++) {
      const step = k % 8
      const answer = await inject(sim.url, {
        wallet: 'casual',
        ...(step === 0
          ? { kind: 'token-airdrop' }
          : step === 1
            ? { kind: 'token-purchase' }
            : step === 3 && bought
              ? { kind: 'token-receipt', mint: bought }
              : step === 5 && bought
                ? { kind: 'close-account', mint: bought }
                : step === 6
                  ? { kind: 'failed-swap' }
                  : { kind: 'silent', ...(step === 2 ? { variant: 'failed' } : {}) }),
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      if (step === 1) bought = answer.body.mint as string
      sim.addActivity(w, 1 + (k % 2))
      await expectAccountsAgree(sim.chain, client, w)
      await expectBalancesEqualHistorySums(client, w.address)
    }
    await expectTokenListsAgree(client, w.address, await programsByMint(sim.url))
  })
})
