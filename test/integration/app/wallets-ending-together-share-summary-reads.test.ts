import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { databasePath } from '../../../src-main/app/data-dir'
import { EventBus } from '../../../src-main/app/event-bus'
import { SyncEventRelay } from '../../../src-main/app/sync-event-relay'
import type { Mirror } from '../../../src-main/db/mirror'
import { openSqliteMirror } from '../../../src-main/db/sqlite/mirror'
import type { WalletSummary } from '@shared/ipc/review-schemas'
import { generateHistoryMirror } from '../../helpers/history-mirror'
import { makeTempDir } from '../../helpers/temp-dir'
import { testAddress } from '../../helpers/wallets'

// When a wallet's sync ends, the sidebar's figures for every wallet follow it. A read covers
// all wallets, so wallets that end while one runs share the read queued behind it, and the
// last figures sent are read after the last change.

const WALLETS = 24

describe('wallets that end together share the sidebar reads', () => {
  const temp = makeTempDir()
  let mirror: Mirror
  const addresses = Array.from({ length: WALLETS }, (_, i) => testAddress(i + 1))

  beforeAll(async () => {
    const own = await openSqliteMirror(databasePath(temp.dir))
    for (const [i, address] of addresses.entries())
      generateHistoryMirror(own.database.sqlite, { address, count: 40, seed: i + 1 })
    await own.close()
    mirror = await openSqliteMirror(databasePath(temp.dir))
  })

  afterAll(async () => {
    await mirror.close()
    temp.remove()
  })

  function relayWithLog(): { relay: SyncEventRelay; sent: WalletSummary[][] } {
    const events = new EventBus()
    const sent: WalletSummary[][] = []
    events.subscribe((event, payload) => {
      if (event === 'watchlist:summaries') sent.push(payload as WalletSummary[])
    })
    const relay = new SyncEventRelay({ mirror, events, syncing: () => [], nowSec: () => 1_000 })
    return { relay, sent }
  }

  it('reads the figures about twice for wallets ending at once, not once per wallet', async () => {
    const { relay, sent } = relayWithLog()
    await Promise.all(addresses.map((address) => relay.emitStatus(address)))
    expect(sent.length).toBeGreaterThanOrEqual(1)
    expect(sent.length).toBeLessThanOrEqual(2)
    expect(sent.at(-1)?.map((s) => s.address)).toEqual(addresses)
  })

  it('sends, last, figures read after the last wallet ended', async () => {
    const { relay, sent } = relayWithLog()
    const [first, second] = addresses as [string, string]
    const before = await mirror.review.walletSummaries()
    expect(before.find((s) => s.address === second)?.newActivityCount).toBeGreaterThan(0)

    const running = relay.emitStatus(first)
    await mirror.review.markViewed(second, 2_000_000_000)
    await Promise.all([running, relay.emitStatus(second)])
    expect(sent.at(-1)?.find((s) => s.address === second)?.newActivityCount).toBe(0)

    // A wallet that ends after everything settled gets a read of its own.
    const reads = sent.length
    await relay.emitStatus(first)
    expect(sent.length).toBe(reads + 1)
  })
})
