import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryEntry, TransferEntry } from '@shared/api/wallet-rest'
import { createServiceClient, type ServiceClient } from '../../../src-main/service/service-client'
import { singleOriginServiceSettings } from '../../../src-main/service/service-settings'
import type { PopulationId } from '../../../src-main/simulator/chain/populations'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { deliveredView, walletView } from '../../../src-main/sync/transaction-derivation'
import { enhancedTransaction } from '../../../src-main/simulator/chain/enhanced-transactions'
import { EnhancedTransaction } from '@shared/api/webhook-delivery'

// A change is synced from getTransaction, and a webhook delivery written as it comes: the
// history entry and the transfers worked out from each transaction, read or delivered,
// must be the ones the history and transfers endpoints list, for every wallet profile of
// both populations and for the injected patterns; the derivation declines only a failed
// transaction (the history names its error in words the transaction does not carry).

const ENTRIES_PER_WALLET = 100

/** A view with its transfers in one fixed order. */
function inAnyOrder(view: ReturnType<typeof walletView>) {
  if (!view.ok) return view
  const key = (t: TransferEntry) => `${t.mint}:${t.direction}:${t.counterparty}:${t.amountRaw}`
  return { ...view, transfers: [...view.transfers].sort((a, b) => key(a).localeCompare(key(b))) }
}

interface Sample {
  profile: string
  entries: HistoryEntry[]
  transfers: Map<string, TransferEntry[]>
}

async function sampleOf(client: ServiceClient, wallet: string): Promise<Omit<Sample, 'profile'>> {
  const history = await client.wallet.history({ wallet, limit: ENTRIES_PER_WALLET })
  const entries = history.data
  const oldest = entries.at(-1)?.timestamp ?? 0
  const transfers = new Map<string, TransferEntry[]>()
  let cursor: string | undefined
  for (;;) {
    const page = await client.wallet.transfers({
      wallet,
      limit: 100,
      ...(cursor ? { cursor } : {}),
    })
    for (const t of page.data)
      transfers.set(t.signature, [...(transfers.get(t.signature) ?? []), t])
    if (!page.pagination.hasMore || (page.data.at(-1)?.timestamp ?? 0) < oldest) break
    cursor = page.pagination.nextCursor ?? undefined
  }
  return { entries, transfers }
}

describe.each<PopulationId>(['default', 'watch-day'])('the %s population', (population) => {
  let sim: RunningSimulator
  let client: ServiceClient
  const samples: Sample[] = []
  let symbols: Map<string, string>

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, clock: { mode: 'manual' }, population, live: false })
    client = createServiceClient(singleOriginServiceSettings(sim.url, 'demo', { timeoutMs: 5_000 }))
    // What the mirror learns from balances snapshots: each fungible mint's symbol.
    symbols = new Map(sim.chain.mints.map((m) => [m.address, m.symbol]))
    // The patterns watching must read whole: a purchase opening an account, a receipt the
    // wallet did not sign into it and into a new one, a close, a failed swap of its own.
    const first = sim.chain.wallets[0] as (typeof sim.chain.wallets)[number]
    const bought = sim.inject(first, { kind: 'token-purchase' })
    sim.chain.clock.advance(60)
    sim.inject(first, { kind: 'token-receipt', mint: bought.mint as string })
    sim.chain.clock.advance(60)
    sim.inject(first, { kind: 'close-account', mint: bought.mint as string })
    const unheld = sim.chain.mints.find(
      (m) => m.index > 0 && !sim.chain.mintsOf(first).includes(m.index),
    )
    sim.inject(first, { kind: 'token-receipt', mint: unheld?.address as string })
    sim.inject(first, { kind: 'failed-swap' })
    const seen = new Set<string>()
    for (const wallet of sim.chain.wallets) {
      if (seen.has(wallet.profile.id)) continue
      seen.add(wallet.profile.id)
      samples.push({ profile: wallet.profile.id, ...(await sampleOf(client, wallet.address)) })
    }
  }, 120_000)
  afterAll(async () => {
    await sim.close()
  })

  it('derives every transaction’s history entry and transfers as the endpoints list them', async () => {
    const declined = new Map<string, number>()
    let derived = 0
    for (const { profile, entries, transfers } of samples) {
      const wallet = sim.chain.walletByProfile(profile as never).address
      for (const entry of entries) {
        const tx = await client.rpc.getTransaction([
          entry.signature,
          { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
        ])
        expect(tx, `${profile} ${entry.signature}`).not.toBeNull()
        const view = walletView(wallet, tx as NonNullable<typeof tx>, symbols)
        // The same transaction as an enhanced webhook delivers it says the same (a delivery
        // lists native and token transfers apart; stored transfers have no order).
        const delivered = deliveredView(
          wallet,
          EnhancedTransaction.parse(enhancedTransaction(tx as NonNullable<typeof tx>, 'TRANSFER')),
          symbols,
        )
        expect(inAnyOrder(delivered), `${profile} delivered`).toEqual(inAnyOrder(view))
        const listed = transfers.get(entry.signature) ?? []
        const expectedWhy = entry.error !== null ? 'a failed transaction' : null
        if (!view.ok) {
          expect(view.why, `${profile} ${entry.signature}`).toBe(expectedWhy)
          declined.set(view.why, (declined.get(view.why) ?? 0) + 1)
          continue
        }
        expect(expectedWhy, `${profile} ${entry.signature} derived`).toBeNull()
        expect(view.entry, `${profile} ${entry.signature}`).toEqual(entry)
        expect(view.transfers, `${profile} ${entry.signature}`).toEqual(listed)
        derived++
      }
    }
    const total = samples.reduce((n, s) => n + s.entries.length, 0)
    expect(total).toBeGreaterThan(samples.length * 10)
    expect(derived).toBeGreaterThan(total / 2)
  }, 120_000)
})

describe('a change the derivation cannot explain', () => {
  it('declines when a token balance names no owner, or transfers leave a change unexplained', async () => {
    const sim = await startSimulator({ seed: 7, clock: { mode: 'manual' } })
    try {
      const client = createServiceClient(singleOriginServiceSettings(sim.url, 'demo'))
      const trader = sim.chain.walletByProfile('active-trader')
      const symbols = new Map(sim.chain.mints.map((m) => [m.address, m.symbol]))
      const entries = (await client.wallet.history({ wallet: trader.address, limit: 100 })).data
      const swap = entries.find((e) => e.error === null && e.balanceChanges.length >= 2)
      expect(swap).toBeDefined()
      const tx = await client.rpc.getTransaction([
        swap?.signature as string,
        { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 },
      ])
      const base = tx as NonNullable<typeof tx>
      expect(walletView(trader.address, base, symbols).ok).toBe(true)

      const ownerless = structuredClone(base)
      for (const b of ownerless.meta?.postTokenBalances ?? []) delete b.owner
      expect(walletView(trader.address, ownerless, symbols)).toEqual({
        ok: false,
        why: 'a token balance names no owner',
      })

      // One transfer fewer than the balances moved: a row would be missing.
      const short = structuredClone(base)
      const inner = short.meta?.innerInstructions?.[0]
      if (inner) inner.instructions.pop()
      else short.transaction.message.instructions.pop()
      expect(walletView(trader.address, short, symbols)).toEqual({
        ok: false,
        why: 'its transfers do not add up to the balance changes',
      })

      expect(walletView(trader.address, base, new Map())).toMatchObject({ ok: false })
    } finally {
      await sim.close()
    }
  })
})
