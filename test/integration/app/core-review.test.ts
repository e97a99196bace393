import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../../../src-main/app/core'
import { databasePath } from '../../../src-main/app/data-dir'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import type { WalletSummary } from '@shared/ipc/review-schemas'
import {
  addBalanceSnapshots,
  generateHistoryMirror,
  type GeneratedMirror,
} from '../../helpers/history-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'
import { FastForwardClock } from '../../helpers/virtual-clock'

// The review channels through the core: inputs parsed, outputs inside the contract, unknown
// wallets and bad filters answered with clear errors.

describe('core: review channels', () => {
  const temp = makeTempDir()
  let core: Core
  let mirror: GeneratedMirror
  const pushed: { event: string; payload: unknown }[] = []

  beforeAll(async () => {
    // The person's own mirror, filled before the app opens it.
    const own = await openSqliteMirror(databasePath(temp.dir))
    mirror = generateHistoryMirror(own.database.sqlite, {
      address: testAddress(1),
      label: 'Main',
      count: 500,
    })
    generateHistoryMirror(own.database.sqlite, { address: testAddress(2), count: 5, seed: 9 })
    addBalanceSnapshots(own.database.sqlite, mirror, [
      { atSec: 10, tokens: [{ mintIndex: 0, balance: 3, priceUsd: 2 }], nfts: 2 },
    ])
    await own.close()
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      dataSource: 'service',
      clock: new FastForwardClock({ wallSec: () => 1_800_000_000 }),
    })
    core.events.subscribe((event, payload) => pushed.push({ event, payload }))
  })
  afterAll(async () => {
    await core?.close()
    temp.remove()
  })

  it('history:page answers the first page and continues from its cursor', async () => {
    const first = await core.dispatch('history:page', { address: mirror.address, limit: 200 })
    expect(first.ok).toBe(true)
    if (!first.ok) return
    const page = first.result as { rows: { signature: string }[]; nextCursor: unknown }
    expect(page.rows).toHaveLength(200)
    const second = await core.dispatch('history:page', {
      address: mirror.address,
      limit: 200,
      cursor: page.nextCursor,
    })
    const rows = second.ok ? (second.result as typeof page).rows : []
    expect(rows).toHaveLength(200)
    expect(new Set([...page.rows, ...rows].map((r) => r.signature)).size).toBe(400)
  })

  it('filters, counts and lists mints', async () => {
    const filters = { mint: mirror.mints[1], direction: 'in' }
    const count = await core.dispatch('history:count', { address: mirror.address, filters })
    const page = await core.dispatch('history:page', {
      address: mirror.address,
      filters,
      limit: 500,
    })
    expect(count.ok && page.ok).toBe(true)
    if (!count.ok || !page.ok) return
    const rows = (page.result as { rows: { changes: { mint: string; amount: number }[] }[] }).rows
    expect((count.result as { count: number }).count).toBe(rows.length)
    expect(
      rows.every((r) => r.changes.some((c) => c.mint === mirror.mints[1] && c.amount > 0)),
    ).toBe(true)
    const mints = await core.dispatch('history:mints', { address: mirror.address })
    expect(mints.ok && (mints.result as unknown[]).length).toBeGreaterThan(3)
  })

  it('answers balances, NFTs, series, transfers, compressed and the profile', async () => {
    const a = { address: mirror.address }
    for (const channel of [
      'balances:current',
      'nfts:list',
      'wallet:value-series',
      'wallet:amount-series',
      'transfers:page',
      'compressed:page',
      'wallet:profile',
    ] as const) {
      const answer = await core.dispatch(channel, a)
      expect(answer.ok, `${channel}: ${JSON.stringify(answer)}`).toBe(true)
    }
    const balances = await core.dispatch('balances:current', a)
    expect(balances.ok && balances.result).toMatchObject({ totalUsd: 6, nftCount: 2 })
  })

  it('refuses an unwatched wallet and a bad filter with clear errors', async () => {
    const unknown = await core.dispatch('history:page', { address: testAddress(55) })
    expect(unknown).toMatchObject({
      ok: false,
      error: { name: 'NotFoundError', message: expect.stringMatching(/not on the watchlist/) },
    })
    const bad = await core.dispatch('history:page', {
      address: mirror.address,
      filters: { signature: '0OIl' },
    })
    expect(bad).toMatchObject({ ok: false, error: { name: 'InvalidInputError' } })
    const tooMany = await core.dispatch('history:page', { address: mirror.address, limit: 100_000 })
    expect(tooMany.ok).toBe(false)
  })

  it('summaries count new activity until the wallet is viewed, then push the cleared badge', async () => {
    const before = await core.dispatch('watchlist:summaries', undefined)
    expect(before.ok && (before.result as WalletSummary[])[0]!.newActivityCount).toBe(500)
    pushed.length = 0
    expect((await core.dispatch('wallet:mark-viewed', { address: mirror.address })).ok).toBe(true)
    const event = pushed.find((p) => p.event === 'watchlist:summaries')
    expect((event?.payload as WalletSummary[])[0]).toMatchObject({
      address: mirror.address,
      newActivityCount: 0,
    })
  })

  it('reorders the watchlist and announces it', async () => {
    pushed.length = 0
    const answer = await core.dispatch('watchlist:reorder', {
      addresses: [testAddress(2), mirror.address],
    })
    expect(answer.ok && (answer.result as { address: string }[]).map((w) => w.address)).toEqual([
      testAddress(2),
      mirror.address,
    ])
    expect(pushed.some((p) => p.event === 'watchlist:changed')).toBe(true)
  })
})
