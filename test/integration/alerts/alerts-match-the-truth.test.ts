import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import type { HistoryEntry } from '@shared/api/wallet-rest'
import { decimalFromRaw } from '@shared/domain/exact-amount'
import type { AlertRuleView, AlertView } from '../../../src-shared/ipc/alert-schemas'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { runCli } from '../../helpers/cli-in-process'
import { readWalletTruth } from '../../helpers/sim-truth'
import { makeTempDir } from '../../helpers/temp-dir'

// The truth check: rules over two wallets' new activity fire what the simulator's truth
// calls for — every alert once, none other, with the exact amounts, symbols and USD values
// of each leg — and the same whichever wallet syncs first. Two data folders watch the same
// chain; one syncs A then B, the other B then A. A token both wallets receive within the
// hour is a cluster, found in either order, completed by the later receipt.

const ORDERS = [
  ['A', 'B'],
  ['B', 'A'],
] as const

interface Expected {
  rule: string
  wallet: string
  signature: string
  amounts: { mint: string; symbol: string | null; amount: string; usd: number | null }[]
}

describe('alerts match the simulator’s truth, whatever order wallets sync in', () => {
  const dirs = ORDERS.map(() => makeTempDir())
  let sim: RunningSimulator
  const wallets: Record<'A' | 'B', string> = { A: '', B: '' }
  const run = async (dir: string, ...args: string[]) => {
    const result = await runCli([
      '--data-dir',
      dir,
      '--service',
      sim.url,
      '--api-key',
      'demo',
      ...args,
    ])
    expect(result.code, `${args.join(' ')}\n${result.stderr}`).toBe(0)
    return result.stdout
  }
  const before = new Map<string, number>()

  beforeAll(async () => {
    sim = await startSimulator({ seed: 21, clock: { mode: 'manual' } })
    wallets.A = sim.chain.walletByProfile('casual').address
    wallets.B = sim.chain.walletByProfile('idle').address
    for (const temp of dirs) {
      await run(temp.dir, 'watch', 'add', wallets.A, '--label', 'A')
      await run(temp.dir, 'watch', 'add', wallets.B, '--label', 'B')
      await run(temp.dir, 'sync', '--once', '--quiet')
      await run(temp.dir, 'alerts', 'add', '--when', 'activity', '--name', 'activity')
      await run(temp.dir, 'alerts', 'add', '--when', 'outgoing', '--name', 'outgoing')
      await run(
        temp.dir,
        'alerts',
        'add',
        '--when',
        'cluster',
        '--count',
        '2',
        '--window',
        '1h',
        '--name',
        'cluster',
      )
    }
    for (const side of ['A', 'B'] as const)
      before.set(side, (await readWalletTruth(sim.url, wallets[side])).txCount)
    // New activity on the chain: derived transactions, then a token both receive.
    sim.addActivity(sim.chain.walletByProfile('casual'), 3)
    sim.addActivity(sim.chain.walletByProfile('idle'), 4)
    const heldByEither = new Set(
      (await Promise.all([wallets.A, wallets.B].map((w) => readWalletTruth(sim.url, w)))).flatMap(
        (t) => t.history.flatMap((h) => h.balanceChanges.map((c) => c.mint)),
      ),
    )
    const shared = sim.chain.mints.find((m) => !m.isNative && !heldByEither.has(m.address))
    if (shared === undefined) throw new Error('no mint neither wallet ever held')
    sim.inject(sim.chain.walletByProfile('casual'), { kind: 'token-airdrop', mint: shared.address })
    // B receives a second after A: a matcher that looked only back from each receipt would
    // miss the cluster when B's receipt is read first.
    const advanced = await fetch(`${sim.url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSec: 1 }),
    })
    expect(advanced.ok).toBe(true)
    sim.inject(sim.chain.walletByProfile('idle'), { kind: 'token-airdrop', mint: shared.address })
    for (const [i, order] of ORDERS.entries())
      for (const side of order)
        await run(dirs[i]!.dir, 'sync', '--once', '--quiet', '--wallet', wallets[side])
  }, 120_000)
  afterAll(async () => {
    await sim.close()
    for (const temp of dirs) temp.remove()
  })

  /** What the truth calls for: from the chain's own history, not from the mirror. */
  async function expected(): Promise<Expected[]> {
    const out: Expected[] = []
    const receipts: {
      wallet: string
      signature: string
      at: number
      slot: number
      leg: Expected['amounts'][number]
    }[] = []
    for (const side of ['A', 'B'] as const) {
      const address = wallets[side]
      const truth = await readWalletTruth(sim.url, address)
      for (const entry of truth.history.slice(before.get(side))) {
        const legs = legsOf(entry, address)
        out.push({ rule: 'activity', wallet: address, signature: entry.signature, amounts: legs })
        if (legs.some((l) => l.amount.startsWith('-')))
          out.push({ rule: 'outgoing', wallet: address, signature: entry.signature, amounts: legs })
        for (const leg of legs)
          if (!leg.amount.startsWith('-') && leg.mint !== NATIVE_SOL_MINT)
            receipts.push({
              wallet: address,
              signature: entry.signature,
              at: entry.timestamp ?? 0,
              slot: entry.slot,
              leg,
            })
      }
    }
    // A cluster: the second wallet to receive a token within the hour completes it.
    const byMint = new Map<string, typeof receipts>()
    for (const r of receipts) byMint.set(r.leg.mint, [...(byMint.get(r.leg.mint) ?? []), r])
    for (const list of byMint.values()) {
      const sorted = list.sort(
        (x, y) => x.at - y.at || x.slot - y.slot || (x.signature < y.signature ? -1 : 1),
      )
      const first = sorted[0]
      const completion = sorted.find(
        (r) => r.wallet !== first?.wallet && r.at - (first?.at ?? 0) <= 3600,
      )
      if (first && completion)
        out.push({
          rule: 'cluster',
          wallet: completion.wallet,
          signature: completion.signature,
          amounts: [first.leg, completion.leg],
        })
    }
    return out
  }

  /** A transaction's legs for its wallet, exact: the fee the wallet paid left out of SOL. */
  function legsOf(entry: HistoryEntry, address: string): Expected['amounts'] {
    return entry.balanceChanges.flatMap((c) => {
      let raw = BigInt(Math.round(c.amount * 10 ** c.decimals))
      if (c.mint === NATIVE_SOL_MINT && entry.feePayer === address)
        raw += BigInt(Math.round(entry.fee * 1e9))
      if (raw === 0n) return []
      const mint = sim.chain.mints.find((m) => m.address === c.mint)
      const amount = decimalFromRaw(raw.toString(), c.decimals)
      return [
        {
          mint: c.mint,
          symbol: mint?.symbol ?? null,
          amount,
          usd: mint ? Math.abs(Number(amount)) * mint.priceUsd : null,
        },
      ]
    })
  }

  const fired = async (dir: string): Promise<Expected[]> => {
    const rules = JSON.parse(await run(dir, 'alerts', 'list', '--json')) as AlertRuleView[]
    const history = JSON.parse(
      await run(dir, 'alerts', 'history', '--json', '--limit', '500'),
    ) as AlertView[]
    return history.map((a) => ({
      rule: rules.find((r) => r.id === a.rule?.id)?.name ?? '?',
      wallet: a.wallet ?? '',
      signature: a.signature ?? '',
      amounts: a.amounts,
    }))
  }
  const key = (e: Expected) => `${e.rule} ${e.wallet} ${e.signature}`

  it.each(ORDERS.map((order, i) => [order.join(' then '), i] as const))(
    'syncing %s: every alert the truth calls for, once, none other, with exact amounts, symbols and USD',
    async (_order, i) => {
      const want = await expected()
      const got = await fired(dirs[i]!.dir)
      expect(got.map(key).sort()).toEqual(want.map(key).sort())
      expect(new Set(got.map(key)).size).toBe(got.length)
      for (const alert of got) {
        const truth = want.find((w) => key(w) === key(alert))
        expect(
          alert.amounts.map((a) => [a.mint, a.symbol, a.amount]),
          key(alert),
        ).toEqual(truth?.amounts.map((a) => [a.mint, a.symbol, a.amount]))
        alert.amounts.forEach((a, n) => {
          const usd = truth?.amounts[n]?.usd ?? null
          if (usd === null) expect(a.usd).toBeNull()
          else expect(a.usd).toBeCloseTo(usd, 6)
        })
      }
      expect(got.filter((g) => g.rule === 'cluster')).toHaveLength(1)
    },
  )
})
