import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '@shared/ipc/settings-schemas'
import type { WalletSyncOutcome } from '@shared/ipc/sync-schemas'
import type { WatchedWallet } from '@shared/ipc/watchlist-schemas'
import { createCore, type Core } from '../../../src-main/app/core'
import { demoDatabasePath } from '../../../src-main/app/data-dir'
import { makeTempDir } from '../../helpers/temp-dir'
import Database from 'better-sqlite3'
import { FastForwardClock } from '../../helpers/virtual-clock'

// Issue 14: names are asked again after a refresh period the person sets (default monthly),
// never sooner. A wallet's identity is asked at its first sync; a sync two days later asks
// nothing with the default period, and asks again once the period is set to one day.

async function call<T>(core: Core, channel: string, input?: unknown): Promise<T> {
  const envelope = await core.dispatch(channel, input)
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`)
  return envelope.result as T
}

describe('the names refresh period is the person’s setting', () => {
  const temp = makeTempDir()
  let core: Core
  let now = Math.floor(Date.now() / 1000)
  let casual: WatchedWallet

  const identityCalls = (): number => {
    const db = new Database(demoDatabasePath(temp.dir), { readonly: true })
    try {
      return (
        db
          .prepare(
            `select count(*) as n from credit_ledger where operation = 'wallet.identity' and wallet_address = ?`,
          )
          .get(casual.address) as { n: number }
      ).n
    } finally {
      db.close()
    }
  }
  const sync = async (): Promise<void> => {
    const outcome = await call<WalletSyncOutcome>(core, 'sync:run', { address: casual.address })
    expect(outcome.state).toBe('ok')
  }

  beforeAll(async () => {
    core = await createCore({
      dataDir: temp.dir,
      shell: 'web',
      version: 'test',
      demo: { live: false },
      clock: new FastForwardClock({ wallSec: () => now }),
    })
    await call(core, 'demo:add-wallets')
    const wallets = await call<WatchedWallet[]>(core, 'watchlist:list')
    casual = wallets.find((w) => w.label === 'Demo: casual') as WatchedWallet
  }, 60_000)
  afterAll(async () => {
    await core.close()
    temp.remove()
  })

  it('defaults to 30 days and refuses 0 and more than a year, naming the field', async () => {
    expect((await call<AppSettings>(core, 'settings:get')).namesRefreshDays).toBe(30)
    // Named in words, never by the schema path (issue 29, finding 5).
    await expect(call(core, 'settings:update', { namesRefreshDays: 0 })).rejects.toThrow(
      'settings:update: Names refresh days must be at least 1.',
    )
    await expect(call(core, 'settings:update', { namesRefreshDays: 366 })).rejects.toThrow(
      'settings:update: Names refresh days must be at most 365.',
    )
  })

  it('within the period nothing is asked again; past a shorter period set by the person, it is', async () => {
    await sync()
    expect(identityCalls()).toBe(1)
    now += 2 * 86_400
    await sync()
    expect(identityCalls()).toBe(1)
    const saved = await call<AppSettings>(core, 'settings:update', { namesRefreshDays: 1 })
    expect(saved.namesRefreshDays).toBe(1)
    await sync()
    expect(identityCalls()).toBe(2)
  }, 60_000)
})
