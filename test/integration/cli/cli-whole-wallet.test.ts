import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_SOL_MINT } from '@shared/api/base58'
import { DAS_MAX_LIMIT } from '@shared/api/das'
import { decimalFromRaw, rawFromDecimalText } from '@shared/domain/exact-amount'
import type { BalanceAtResult, WatchlistTotals, WholeWallet } from '@shared/ipc/wallet-schemas'
import { DEMO_SEED } from '../../../src-main/app/demo-data'
import { startSimulator, type RunningSimulator } from '../../../src-main/simulator/simulator-server'
import { makeTempDir } from '../../helpers/temp-dir'
import { runCli as cli } from '../../helpers/cli-in-process'
import { testMirror, type TestMirror } from '../../helpers/stored-mirror'
import { ENGINES } from '../../helpers/sync-fixture'

// Issue 14's CLI: `show --json`, `balance-at --json` and `totals --json`, offline from the
// mirror after one `sync --once`, against the demo chain's collector and compressed holder.

/** Decimals of an exact decimal text as printed (its fraction digits, at most). */
function decimalsOf(amount: string): number {
  return amount.split('.')[1]?.length ?? 0
}

async function rpc<T>(url: string, method: string, params: unknown): Promise<T> {
  const res = await fetch(`${url}/?api-key=demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }),
  })
  return ((await res.json()) as { result: T }).result
}

describe.each(ENGINES)('CLI: the whole wallet, balances at a date and totals (on %s)', (engine) => {
  const temp = makeTempDir()
  let sim: RunningSimulator
  let mirror: TestMirror | undefined
  let base: string[]
  let offline: string[]
  let collector: string
  let holder: string

  beforeAll(async () => {
    sim = await startSimulator({ seed: DEMO_SEED, clock: { mode: 'manual' } })
    mirror = await testMirror(engine, temp.dir)
    base = [...mirror.cliArgs, '--service', sim.url, '--api-key', 'demo']
    // Reading commands need no service: the mirror alone answers.
    offline = [...mirror.cliArgs, '--data-source', 'service']
    collector = sim.chain.walletByProfile('nft-collector').address
    holder = sim.chain.walletByProfile('compressed-holder').address
    expect((await cli([...base, 'watch', 'add', collector, '--label', 'Collector'])).code).toBe(0)
    expect((await cli([...base, 'watch', 'add', holder, '--label', 'Holder'])).code).toBe(0)
    const run = await cli([...base, 'sync', '--once', '--quiet'])
    expect(run.code, run.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await sim.close()
    await mirror?.drop()
    temp.remove()
  })

  it('show --json lists every NFT getAssetsByOwner reports (all 173 of the collector)', async () => {
    const run = await cli([...offline, 'show', collector, '--json'])
    expect(run.code, run.stderr).toBe(0)
    const shown = JSON.parse(run.stdout) as WholeWallet
    expect(Object.keys(shown).sort()).toEqual(
      ['address', 'fundedBy', 'holdings', 'identity', 'label', 'unpricedCount', 'valueUsd'].sort(),
    )
    const listed = await rpc<{ items: { id: string }[] }>(sim.url, 'getAssetsByOwner', {
      ownerAddress: collector,
      page: 1,
      limit: DAS_MAX_LIMIT,
    })
    expect(shown.holdings.nfts.map((n) => n.id).sort()).toEqual(
      listed.items.map((a) => a.id).sort(),
    )
    expect(shown.holdings.nfts).toHaveLength(173)
    expect(shown.label).toBe('Collector')
  })

  it('show --json gives the compressed holder’s compressed SOL as getCompressedBalanceByOwner', async () => {
    const shown = JSON.parse(
      (await cli([...offline, 'show', holder, '--json'])).stdout,
    ) as WholeWallet
    const balance = await rpc<{ value: number }>(sim.url, 'getCompressedBalanceByOwner', {
      owner: holder,
    })
    expect(shown.holdings.compressed.lamports).toBe(String(balance.value))
    expect(shown.fundedBy?.funder).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  })

  it('balance-at: the mirror (free) and the service agree, and the service’s cost is printed first', async () => {
    const date = new Date((sim.chain.clock.nowSec() - 3 * 86_400) * 1000).toISOString().slice(0, 10)
    // The holder: a balance-at call per mint, so the collector's 170 NFTs would cost 17,000.
    const local = await cli([...offline, 'balance-at', holder, '--date', date, '--json'])
    expect(local.code, local.stderr).toBe(0)
    const asked = await cli([
      ...base,
      'balance-at',
      holder,
      '--date',
      date,
      '--source',
      'service',
      '--json',
    ])
    expect(asked.code, asked.stderr).toBe(0)
    expect(asked.stderr).toMatch(/Asking the service: \d+ mint\(s\) × balance-at = [\d,]+ credits/)
    const a = JSON.parse(local.stdout) as BalanceAtResult
    const b = JSON.parse(asked.stdout) as BalanceAtResult
    expect(a.source).toBe('local')
    expect(b.source).toBe('service')
    expect(a.balances.length).toBeGreaterThan(0)
    expect(a.balances).toEqual(b.balances)
  }, 60_000)

  it('balance-at refuses a date that is not one, naming the option', async () => {
    const run = await cli([...offline, 'balance-at', collector, '--date', '2025-02-30'])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/--date/)
  })

  it('totals --json sums the wallets', async () => {
    const totals = JSON.parse(
      (await cli([...offline, 'totals', '--json'])).stdout,
    ) as WatchlistTotals
    const values = await Promise.all(
      [collector, holder].map(
        async (a) =>
          (JSON.parse((await cli([...offline, 'show', a, '--json'])).stdout) as WholeWallet)
            .valueUsd,
      ),
    )
    expect(totals.wallets).toBe(2)
    expect(totals.valueUsd).toBeCloseTo(values[0]! + values[1]!, 6)
    expect(totals.tokens.length).toBeGreaterThan(0)
  })

  it('totals --json count compressed holdings: each token’s amount is Σ of show --json holdings', async () => {
    const totals = JSON.parse(
      (await cli([...offline, 'totals', '--json'])).stdout,
    ) as WatchlistTotals
    const shown = await Promise.all(
      [collector, holder].map(
        async (a) =>
          JSON.parse((await cli([...offline, 'show', a, '--json'])).stdout) as WholeWallet,
      ),
    )
    // Σ per mint in raw units: tokens, compressed tokens, and compressed SOL as SOL; a
    // mint's unit is the finest any of its printed amounts uses (trailing zeros are cut).
    const decimals = new Map<string, number>()
    const see = (mint: string, amount: string): void => {
      decimals.set(mint, Math.max(decimals.get(mint) ?? 0, decimalsOf(amount)))
    }
    for (const t of totals.tokens) see(t.mint, t.amount)
    for (const w of shown) {
      for (const t of [...w.holdings.tokens, ...w.holdings.compressed.tokens]) see(t.mint, t.amount)
      if (w.holdings.compressed.lamports !== null) see(NATIVE_SOL_MINT, '0.000000001')
    }
    const expected = new Map<string, { all: bigint; compressed: bigint }>()
    const add = (mint: string, amount: string, isCompressed: boolean): void => {
      const raw = BigInt(rawFromDecimalText(amount, decimals.get(mint) ?? 0) ?? 'NaN')
      const e = expected.get(mint) ?? { all: 0n, compressed: 0n }
      e.all += raw
      if (isCompressed) e.compressed += raw
      expected.set(mint, e)
    }
    for (const w of shown) {
      for (const t of w.holdings.tokens) add(t.mint, t.amount, false)
      for (const t of w.holdings.compressed.tokens) add(t.mint, t.amount, true)
      const lamports = w.holdings.compressed.lamports
      if (lamports !== null && lamports !== '0')
        add(NATIVE_SOL_MINT, decimalFromRaw(lamports, 9), true)
    }
    const holderShown = shown[1] as WholeWallet
    expect(holderShown.holdings.compressed.tokens.length).toBeGreaterThan(0)
    expect(new Set(totals.tokens.map((t) => t.mint))).toEqual(new Set(expected.keys()))
    for (const t of totals.tokens) {
      const d = decimals.get(t.mint) as number
      const e = expected.get(t.mint) as { all: bigint; compressed: bigint }
      expect(t.amount, t.mint).toBe(decimalFromRaw(e.all.toString(), d))
      expect(t.compressedAmount, t.mint).toBe(decimalFromRaw(e.compressed.toString(), d))
    }
    // Every compressed token of the holder is in the totals, and the values add up.
    for (const c of holderShown.holdings.compressed.tokens)
      expect(totals.tokens.some((t) => t.mint === c.mint && t.compressedAmount !== '0')).toBe(true)
    expect(totals.tokens.reduce((sum, t) => sum + (t.valueUsd ?? 0), 0)).toBeCloseTo(
      totals.valueUsd,
      6,
    )
    expect(totals.compressedValueUsd).toBeGreaterThan(0)
  })
})
